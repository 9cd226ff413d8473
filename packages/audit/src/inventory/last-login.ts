import type { Executor } from '../executor.ts';

/**
 * The last login of each account, from Debian's own commands through the executor (wtmp and lastlog
 * are binary; no parser of ours): `lastlog` (shadow's per-user record, Debian 12), else `last -F -w`
 * (wtmp, newest first; Debian 13 dropped lastlog). Neither answering (a fixture root, a minimal
 * system) gives `known: false`: the page says "unknown", never "never".
 */
export interface LastLogin {
  at: number | null;
  from: string | null;
}
export interface LastLogins {
  known: boolean;
  byUser: Map<string, LastLogin>;
}

/** `Mon May 20 10:00:00 +0000 2025` (lastlog) and `Mon May 20 10:00:00 2025` (last -F, local time). */
const lastlogDate = /(\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d [+-]\d{4} \d{4})\s*$/;
const lastDate = /^(\S+)\s+(\S+)\s+(.*?)\s*(\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4})/;

function parseDate(text: string): number | null {
  // `Mon May 20 10:00:00 +0000 2025` → `May 20 2025 10:00:00 +0000`, which Date parses everywhere.
  const m = /^\w{3} (\w{3}) +(\d+) (\d\d:\d\d:\d\d)(?: ([+-]\d{4}))? (\d{4})$/.exec(text.trim());
  if (!m) return null;
  const at = Date.parse(`${m[1]} ${m[2]} ${m[5]} ${m[3]}${m[4] ? ` ${m[4]}` : ''}`);
  return Number.isNaN(at) ? null : at;
}

export function parseLastlog(stdout: string): Map<string, LastLogin> {
  const byUser = new Map<string, LastLogin>();
  for (const line of stdout.split('\n').slice(1)) {
    const name = line.split(/\s+/)[0];
    if (!name) continue;
    if (line.includes('**Never logged in**')) {
      byUser.set(name, { at: null, from: null });
      continue;
    }
    const date = lastlogDate.exec(line);
    if (!date) continue;
    // Between the name and the date: the port, then the remote host when there is one.
    const middle = line.slice(name.length, date.index).trim().split(/\s+/).filter(Boolean);
    byUser.set(name, { at: parseDate(date[1] as string), from: middle.length > 1 ? (middle.at(-1) as string) : null });
  }
  return byUser;
}

export function parseLast(stdout: string): Map<string, LastLogin> {
  const byUser = new Map<string, LastLogin>();
  for (const line of stdout.split('\n')) {
    const m = lastDate.exec(line);
    if (!m) continue;
    const [, name, tty, host] = m as unknown as [string, string, string, string];
    if (name === 'reboot' || name === 'shutdown' || tty === 'system' || byUser.has(name)) continue;
    byUser.set(name, { at: parseDate(m[4] as string), from: host.trim() === '' || host.trim() === '0.0.0.0' ? null : host.trim() });
  }
  return byUser;
}

export async function readLastLogins(exec: Executor): Promise<LastLogins> {
  const lastlog = await exec('lastlog', []);
  if (lastlog.code === 0 && lastlog.stdout.startsWith('Username')) return { known: true, byUser: parseLastlog(lastlog.stdout) };
  const last = await exec('last', ['-F', '-w']);
  if (last.code === 0) return { known: true, byUser: parseLast(last.stdout) };
  return { known: false, byUser: new Map() };
}
