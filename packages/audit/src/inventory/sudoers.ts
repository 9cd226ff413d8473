import path from 'node:path';
import type { RootFs } from '../root-fs.ts';

/**
 * Who sudoers grants rights to, outside Debian's own two rules (`root ALL=…` and `%sudo ALL=…`):
 * every user specification of /etc/sudoers and the files it includes (`@includedir` / `#includedir`
 * /etc/sudoers.d, `@include`), with User_Alias expanded. Debian's sudo skips files in an included
 * directory whose names end in `~` or contain a `.` (sudoers(5)).
 */
export interface SudoersGrant {
  /** A user name, `%group`, `#uid`, `%#gid` or `ALL`. */
  who: string;
  file: string;
  line: number;
  /** The rule as written (for the finding's detail). */
  rule: string;
}

/** The groups whose members Debian, Ubuntu and RHEL expect to have sudo. */
export const expectedSudoGroups = new Set(['%sudo', '%admin', '%wheel']);

const maxDepth = 8;

/** Joins continuation lines (a trailing backslash) and drops comments, keeping the first line number. */
function logicalLines(text: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let pending: { text: string; line: number } | null = null;
  text.split('\n').forEach((raw, index) => {
    const continued = raw.endsWith('\\');
    const body = continued ? raw.slice(0, -1) : raw;
    pending = pending ? { text: `${pending.text} ${body}`, line: pending.line } : { text: body, line: index + 1 };
    if (!continued) {
      out.push(pending);
      pending = null;
    }
  });
  return out;
}

export function readSudoers(fs: RootFs): SudoersGrant[] {
  const grants: SudoersGrant[] = [];
  const aliases = new Map<string, string[]>();
  const visit = (file: string, depth: number): void => {
    const text = fs.read(file)?.text;
    if (text === undefined || depth > maxDepth) return;
    for (const { text: raw, line } of logicalLines(text)) {
      const trimmed = raw.trim();
      const include = /^[@#](include|includedir)\s+(\S+)/.exec(trimmed);
      if (include) {
        const target = path.posix.resolve(path.posix.dirname(file), include[2] as string);
        if (include[1] === 'include') visit(target, depth + 1);
        else for (const name of fs.list(target)) if (!name.endsWith('~') && !name.includes('.')) visit(path.posix.join(target, name), depth + 1);
        continue;
      }
      const stripped = trimmed.replace(/(^|\s)#(?![0-9]).*$/, '').trim();
      if (stripped === '' || /^Defaults/.test(stripped)) continue;
      const alias = /^User_Alias\s+(.+)$/.exec(stripped);
      if (alias) {
        for (const def of (alias[1] as string).split(':')) {
          const [name, members] = def.split('=');
          if (name && members) aliases.set(name.trim(), members.split(',').map((m) => m.trim()).filter(Boolean));
        }
        continue;
      }
      if (/^(Runas|Host|Cmnd|Cmd)_Alias\s/.test(stripped)) continue;
      // A user specification: `who[, who…] host[, …] = …`; `who` stops at the first blank after the list.
      const spec = /^((?:[^\s,=]+\s*,\s*)*[^\s,=]+)\s+[^=]+=/.exec(stripped);
      if (!spec) continue;
      const expand = (who: string, seen: Set<string>): string[] => {
        if (!aliases.has(who) || seen.has(who)) return [who];
        seen.add(who);
        return (aliases.get(who) ?? []).flatMap((member) => expand(member, seen));
      };
      for (const who of (spec[1] as string).split(',').map((w) => w.trim()).filter(Boolean))
        // A negated entry (`!bob`) takes rights away; it grants nothing.
        for (const entry of who.startsWith('!') ? [] : expand(who, new Set())) grants.push({ who: entry, file, line, rule: stripped.slice(0, 200) });
    }
  };
  visit('/etc/sudoers', 0);
  return grants;
}
