import path from 'node:path';
import type { Executor } from '../executor.ts';
import type { RootFs } from '../root-fs.ts';

/**
 * Kernel parameters as the boot will set them and as the kernel has them now. The files are read
 * the way systemd-sysctl reads them: every *.conf of the sysctl.d directories sorted by file name
 * across directories (a name in /etc masks the same name in /run and /usr/lib), later assignments
 * winning; Debian's /etc/sysctl.d/99-sysctl.conf links to /etc/sysctl.conf, which procps'
 * `sysctl --system` also reads last, so /etc/sysctl.conf comes last unless a link already brought it.
 */
export interface SysctlAssignment {
  key: string;
  value: string;
  file: string;
  line: number;
}
export interface SysctlFacts {
  /** The assignments in the order they are applied; keys use dots; a key may hold a `*` glob. */
  assignments: SysctlAssignment[];
  /** Keys a `-key` line excludes from globs. */
  excluded: Set<string>;
  /** Live values through the executor; null when `sysctl` did not answer (a chroot without /proc). */
  live: Map<string, string> | null;
}

export const sysctlDirs = ['/etc/sysctl.d', '/run/sysctl.d', '/usr/local/lib/sysctl.d', '/usr/lib/sysctl.d', '/lib/sysctl.d'];

export function sysctlFiles(fs: RootFs): string[] {
  const byName = new Map<string, string>();
  for (const dir of sysctlDirs)
    for (const name of fs.list(dir)) if (name.endsWith('.conf') && !byName.has(name)) byName.set(name, path.posix.join(dir, name));
  const files = [...byName.keys()].sort().map((name) => byName.get(name) as string);
  const hosts = new Set(files.map((f) => fs.resolve(f)));
  if (fs.exists('/etc/sysctl.conf') && !hosts.has(fs.resolve('/etc/sysctl.conf'))) files.push('/etc/sysctl.conf');
  return files;
}

const normalizeKey = (key: string): string => key.trim().replace(/\//g, '.');

export function parseSysctlFile(text: string, file: string, facts: Pick<SysctlFacts, 'assignments' | 'excluded'>): void {
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    const eq = line.indexOf('=');
    if (eq < 0) {
      if (line.startsWith('-')) facts.excluded.add(normalizeKey(line.slice(1)));
      return;
    }
    const key = normalizeKey(line.slice(0, eq).replace(/^-/, ''));
    facts.assignments.push({ key, value: line.slice(eq + 1).trim(), file, line: index + 1 });
  });
}

/** The value the files give `key` at boot: the last matching assignment (a glob unless excluded). */
export function configuredSysctl(facts: Pick<SysctlFacts, 'assignments' | 'excluded'>, key: string): SysctlAssignment | undefined {
  let found: SysctlAssignment | undefined;
  for (const a of facts.assignments) {
    if (a.key === key) found = a;
    else if (a.key.includes('*') && !facts.excluded.has(key)) {
      const re = new RegExp(`^${a.key.replace(/\./g, '\\.').replace(/\*/g, '[^.]+')}$`);
      if (re.test(key)) found = a;
    }
  }
  return found;
}

/** `sysctl -e k1 k2` prints `key = value` lines; whitespace inside values is folded to one space. */
export function parseSysctlOutput(stdout: string): Map<string, string> {
  const live = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const eq = line.indexOf(' = ');
    if (eq > 0) live.set(line.slice(0, eq).trim(), line.slice(eq + 3).trim().replace(/\s+/g, ' '));
  }
  return live;
}

export async function collectSysctl(fs: RootFs, exec: Executor, keys: readonly string[]): Promise<SysctlFacts> {
  const facts: SysctlFacts = { assignments: [], excluded: new Set(), live: null };
  for (const file of sysctlFiles(fs)) parseSysctlFile(fs.read(file)?.text ?? '', file, facts);
  const result = await exec('sysctl', ['-e', ...keys]);
  const live = result.code === 0 ? parseSysctlOutput(result.stdout) : new Map<string, string>();
  facts.live = live.size > 0 ? live : null;
  return facts;
}
