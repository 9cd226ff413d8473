import path from 'node:path';
import type { Executor } from '../executor.ts';
import type { RootFs } from '../root-fs.ts';

/**
 * sshd's effective global configuration, read the way sshd reads it: keywords are case-insensitive,
 * the first value of a keyword wins, `Include` splices the matching files in lexical order at that
 * point (relative patterns are under /etc/ssh), and everything inside a `Match` block is left out of
 * the global values. When `sshd -T` answers (through the executor), its values, defaults included,
 * are the effective ones; the files still say where a value was written.
 */
export interface SshdSetting {
  value: string;
  file: string;
  line: number;
}
export interface SshdConfig {
  /** sshd is installed in the root (its binary or its config file exists). */
  present: boolean;
  /** Lower-case keyword → the first global value written in the files. */
  written: Map<string, SshdSetting>;
  /** Lower-case keyword → the value `sshd -T` printed; null when sshd -T did not answer. */
  dumped: Map<string, string> | null;
  /** The files read, in the order sshd reads them. */
  files: string[];
  /** Keywords sshd accumulates over lines (AllowUsers, DenyGroups, ...): every global value, from sshd -T when it answered, else from the files. */
  lists: Map<string, string[]>;
  /** What reading saw (texts and directory listings), so the planner can replay it with a drop-in added. */
  snapshot: ConfigSnapshot;
}

/** The little of a file system the config reader needs; a RootFs, or a recorded snapshot with additions. */
export interface ConfigReader {
  read(p: string): string | undefined;
  list(dir: string): string[];
}
export interface ConfigSnapshot {
  texts: Map<string, string | undefined>;
  listings: Map<string, string[]>;
}

/** Reads through `fs`, keeping what it saw. */
export function recordingReader(fs: RootFs, snapshot: ConfigSnapshot = { texts: new Map(), listings: new Map() }): ConfigReader & { snapshot: ConfigSnapshot } {
  return {
    snapshot,
    read: (p) => {
      const text = fs.read(p)?.text;
      snapshot.texts.set(p, text);
      return text;
    },
    list: (dir) => {
      const names = fs.list(dir);
      snapshot.listings.set(dir, names);
      return names;
    },
  };
}

/** The snapshot as it would read with `added` files written (path → text). */
export function overlayReader(snapshot: ConfigSnapshot, added: Record<string, string>): ConfigReader {
  return {
    read: (p) => added[p] ?? snapshot.texts.get(p),
    list: (dir) => {
      const names = new Set(snapshot.listings.get(dir) ?? []);
      for (const p of Object.keys(added)) if (path.posix.dirname(p) === dir) names.add(path.posix.basename(p));
      return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    },
  };
}

export const sshdConfigPath = '/etc/ssh/sshd_config';
export const sshdDropInDir = '/etc/ssh/sshd_config.d';

/** Splits a config line into keyword and arguments: whitespace or one `=` separates, quotes group. */
export function splitSshdLine(raw: string): { keyword: string; args: string[] } | null {
  const line = raw.trim();
  if (line === '' || line.startsWith('#')) return null;
  const match = /^([^\s=]+)\s*(?:=\s*|\s+)?(.*)$/.exec(line);
  if (!match) return null;
  const args: string[] = [];
  for (const token of (match[2] ?? '').matchAll(/"([^"]*)"|(\S+)/g)) {
    const word = token[1] ?? token[2] ?? '';
    if (word.startsWith('#')) break;
    args.push(word);
  }
  return { keyword: (match[1] ?? '').toLowerCase(), args };
}

/** Expands an Include pattern inside the root: `*` and `?` in the last component, sorted like glob(3). */
function expandInclude(fs: ConfigReader, pattern: string): string[] {
  const absolute = pattern.startsWith('/') ? pattern : path.posix.join('/etc/ssh', pattern);
  const dir = path.posix.dirname(absolute);
  const base = path.posix.basename(absolute);
  if (!/[*?[]/.test(base)) return [absolute];
  const re = new RegExp(`^${base.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
  return fs
    .list(dir)
    .filter((name) => re.test(name) && !name.startsWith('.'))
    .map((name) => path.posix.join(dir, name));
}

/** The first global value of every keyword in the files, following Include, skipping Match blocks. */
export function readWrittenSshdConfig(fs: ConfigReader, file = sshdConfigPath): { written: Map<string, SshdSetting>; files: string[]; all: Map<string, string[]> } {
  const written = new Map<string, SshdSetting>();
  const all = new Map<string, string[]>();
  const files: string[] = [];
  const visit = (current: string, depth: number, insideMatch: boolean): void => {
    const text = fs.read(current);
    if (text === undefined || depth > 16) return;
    files.push(current);
    // A Match opened in an included file is closed at its end: it cannot reach the including file's later lines.
    let inMatch = insideMatch;
    text.split('\n').forEach((raw, index) => {
      const parsed = splitSshdLine(raw);
      if (!parsed) return;
      if (parsed.keyword === 'match') {
        inMatch = !(parsed.args.length === 1 && parsed.args[0]?.toLowerCase() === 'all');
        return;
      }
      if (parsed.keyword === 'include') {
        for (const pattern of parsed.args) for (const included of expandInclude(fs, pattern)) visit(included, depth + 1, inMatch);
        return;
      }
      if (!inMatch) all.set(parsed.keyword, [...(all.get(parsed.keyword) ?? []), ...parsed.args]);
      if (inMatch || written.has(parsed.keyword)) return;
      written.set(parsed.keyword, { value: parsed.args.join(' '), file: current, line: index + 1 });
    });
  };
  visit(file, 0, false);
  return { written, files, all };
}

/** Every value of the accumulating keywords in `sshd -T`'s dump (it prints one line per name). */
export const sshdListKeywords = ['allowusers', 'denyusers', 'allowgroups', 'denygroups'] as const;
export function parseSshdDumpLists(stdout: string): Map<string, string[]> {
  const lists = new Map<string, string[]>();
  for (const line of stdout.split('\n')) {
    const [key, ...values] = line.trim().split(/\s+/);
    const k = (key ?? '').toLowerCase();
    if ((sshdListKeywords as readonly string[]).includes(k)) lists.set(k, [...(lists.get(k) ?? []), ...values]);
  }
  return lists;
}

/** `sshd -T` prints one `keyword value` line per setting, keywords in lower case. */
export function parseSshdDump(stdout: string): Map<string, string> {
  const dumped = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const space = line.indexOf(' ');
    if (space <= 0) continue;
    const key = line.slice(0, space).toLowerCase();
    // Repeated keywords (listenaddress, hostkey) keep their first line; the checks read single values.
    if (!dumped.has(key)) dumped.set(key, line.slice(space + 1).trim());
  }
  return dumped;
}

export async function collectSshdConfig(fs: RootFs, exec: Executor): Promise<SshdConfig> {
  const present = fs.exists(sshdConfigPath) || fs.exists('/usr/sbin/sshd');
  const reader = recordingReader(fs);
  const { written, files, all } = readWrittenSshdConfig(reader);
  let dumped: Map<string, string> | null = null;
  let lists: Map<string, string[]> = new Map(sshdListKeywords.flatMap((k) => (all.has(k) ? [[k, all.get(k) as string[]] as const] : [])));
  if (present) {
    const result = await exec('sshd', ['-T']);
    if (result.code === 0 && result.stdout.trim() !== '') {
      dumped = parseSshdDump(result.stdout);
      lists = parseSshdDumpLists(result.stdout);
    }
  }
  return { present, written, dumped, files, lists, snapshot: reader.snapshot };
}

/**
 * OpenSSH 9.2's compiled-in defaults (Debian 12) for the keywords the checks read, used when
 * `sshd -T` is not available and the files leave a keyword unset.
 */
export const sshdDefaults: Record<string, string> = {
  permitrootlogin: 'prohibit-password',
  passwordauthentication: 'yes',
  permitemptypasswords: 'no',
  kbdinteractiveauthentication: 'yes',
  maxauthtries: '6',
  maxsessions: '10',
  maxstartups: '10:30:100',
  clientaliveinterval: '0',
  clientalivecountmax: '3',
  x11forwarding: 'no',
  logingracetime: '120',
  allowtcpforwarding: 'yes',
  allowagentforwarding: 'yes',
  hostbasedauthentication: 'no',
  ignorerhosts: 'yes',
  permituserenvironment: 'no',
  loglevel: 'INFO',
  usepam: 'no',
  authorizedkeysfile: '.ssh/authorized_keys .ssh/authorized_keys2',
  ciphers: 'chacha20-poly1305@openssh.com,aes128-ctr,aes192-ctr,aes256-ctr,aes128-gcm@openssh.com,aes256-gcm@openssh.com',
  macs: 'umac-64-etm@openssh.com,umac-128-etm@openssh.com,hmac-sha2-256-etm@openssh.com,hmac-sha2-512-etm@openssh.com,hmac-sha1-etm@openssh.com,umac-64@openssh.com,umac-128@openssh.com,hmac-sha2-256,hmac-sha2-512,hmac-sha1',
  kexalgorithms:
    'sntrup761x25519-sha512@openssh.com,curve25519-sha256,curve25519-sha256@libssh.org,ecdh-sha2-nistp256,ecdh-sha2-nistp384,ecdh-sha2-nistp521,diffie-hellman-group-exchange-sha256,diffie-hellman-group16-sha512,diffie-hellman-group18-sha512,diffie-hellman-group14-sha256',
};

/** Where the effective value came from: sshd -T, a file line, or the compiled-in default. */
export interface EffectiveSshdValue {
  value: string;
  file?: string;
  line?: number;
  source: 'sshd -T' | 'file' | 'default';
}

export function effectiveSshd(config: SshdConfig, keyword: string): EffectiveSshdValue {
  const key = keyword.toLowerCase();
  const written = config.written.get(key);
  const dumped = config.dumped?.get(key);
  if (dumped !== undefined) return { value: dumped, file: written?.file, line: written?.line, source: 'sshd -T' };
  if (written) return { value: resolveAlgorithmList(key, written.value), file: written.file, line: written.line, source: 'file' };
  return { value: sshdDefaults[key] ?? '', source: 'default' };
}

/** `Ciphers +x`, `-x` and `^x` change the default list rather than replace it (sshd_config(5)). */
export function resolveAlgorithmList(key: string, value: string): string {
  const defaults = sshdDefaults[key];
  if (!defaults || !['ciphers', 'macs', 'kexalgorithms'].includes(key)) return value;
  const list = defaults.split(',');
  const named = value.slice(1).split(',').filter(Boolean);
  if (value.startsWith('+')) return [...list, ...named.filter((n) => !list.includes(n))].join(',');
  if (value.startsWith('^')) return [...named, ...list.filter((n) => !named.includes(n))].join(',');
  if (value.startsWith('-')) {
    const patterns = named.map((n) => new RegExp(`^${n.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`));
    return list.filter((n) => !patterns.some((p) => p.test(n))).join(',');
  }
  return value;
}
