import path from 'node:path';

/*
 * Pure readers of apt's and dpkg's text: `apt-get -s` lines, `apt-cache show` stanzas, the
 * APT::Status-Fd progress lines, Release files and a Debian changelog's first entry.
 */

/** One `Inst` line of `apt-get -s dist-upgrade`: "Inst pkg [old] (new Label:Suite[, …] [arch])". */
export interface PlannedUpgrade {
  name: string;
  /** Null for a package the upgrade newly installs. */
  from: string | null;
  to: string;
  /** apt's origins of the new version, "Label:Suite" each. */
  origins: string[];
  arch: string;
}

const instLine = /^Inst (\S+)(?: \[([^\]]*)\])? \((\S+) (.*) \[([^\]]+)\]\)/;

export function parseSimulate(stdout: string): PlannedUpgrade[] {
  const out: PlannedUpgrade[] = [];
  for (const line of stdout.split('\n')) {
    const m = instLine.exec(line);
    if (!m) continue;
    const [, rawName, from, to, origins, arch] = m as unknown as [string, string, string | undefined, string, string, string];
    // apt names a foreign-architecture package "pkg:arch"; the name is the part before.
    const name = rawName.split(':')[0]!;
    out.push({ name, from: from ?? null, to, origins: origins.split(', ').map((o) => o.trim()).filter(Boolean), arch });
  }
  return out;
}

/** RFC 822-like stanzas (apt-cache show, dpkg status, Release): field → value, continuation lines joined with \n. */
export function parseStanzas(text: string): Record<string, string>[] {
  const stanzas: Record<string, string>[] = [];
  let current: Record<string, string> = {};
  let last = '';
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      if (Object.keys(current).length > 0) stanzas.push(current);
      current = {};
      last = '';
      continue;
    }
    if (/^\s/.test(line)) {
      if (last) current[last] += `\n${line.slice(1)}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    last = line.slice(0, colon);
    current[last] = line.slice(colon + 1).trim();
  }
  if (Object.keys(current).length > 0) stanzas.push(current);
  return stanzas;
}

export interface PackageMeta {
  description: string;
  size: number;
  installedSizeKib: number | null;
}

/** `apt-cache show pkg=ver …` → "pkg=ver" → synopsis and sizes. */
export function parsePackageMeta(text: string): Map<string, PackageMeta> {
  const meta = new Map<string, PackageMeta>();
  for (const s of parseStanzas(text)) {
    if (!s['Package'] || !s['Version']) continue;
    const installed = Number.parseInt(s['Installed-Size'] ?? '', 10);
    meta.set(`${s['Package']}=${s['Version']}`, {
      description: (s['Description'] ?? s['Description-en'] ?? '').split('\n')[0]!.trim(),
      size: Number.parseInt(s['Size'] ?? '0', 10) || 0,
      installedSizeKib: Number.isFinite(installed) ? installed : null,
    });
  }
  return meta;
}

/** A line of APT::Status-Fd: dlstatus (download), pmstatus (dpkg), pmerror, pmconffile, media-change. */
export type StatusLine =
  | { kind: 'dlstatus'; percent: number; message: string }
  | { kind: 'pmstatus'; pkg: string; percent: number; message: string }
  | { kind: 'pmerror'; pkg: string; percent: number; message: string };

export function parseStatusLine(line: string): StatusLine | null {
  // The package field may itself hold a colon ("pkg:arch"): it ends at the first ":<percent>:".
  const m = /^(dlstatus|pmstatus|pmerror):(.*?):([0-9]+(?:\.[0-9]+)?):(.*)$/.exec(line.trim());
  if (!m) return null;
  const percent = Math.max(0, Math.min(100, Number(m[3])));
  if (m[1] === 'dlstatus') return { kind: 'dlstatus', percent, message: m[4]! };
  // dpkg names "pkg:arch" on multi-arch systems; an archive dpkg could not unpack is named by its path.
  const pkg = m[2]!.includes('/') ? path.basename(m[2]!).split('_')[0]! : m[2]!.split(':')[0]!;
  return { kind: m[1] as 'pmstatus' | 'pmerror', pkg, percent, message: m[4]! };
}

const arches = new Set(['all', 'amd64', 'i386', 'arm64', 'armhf', 'armel', 'mips64el', 'ppc64el', 's390x', 'riscv64']);

/**
 * A download line of apt: "Get:N uri suite/component arch pkg arch version [size]", or from a flat
 * repository "Get:N uri ./ pkg version [size]": the package being fetched.
 */
export function parseGetLine(line: string): string | null {
  const m = /^Get:\d+ (.*) \[[^\]]+\]$/.exec(line.trim());
  if (!m) return null;
  const tokens = m[1]!.split(' ');
  if (tokens.length < 4) return null;
  const pkg = tokens.length >= 6 && arches.has(tokens.at(-2)!) ? tokens.at(-3)! : tokens.at(-2)!;
  return pkg.split(':')[0]!;
}

/** apt could not take a lock because it lacks the right (not root), not because another apt holds it. */
export function isPermissionFailure(stderr: string): boolean {
  return /are you root\?|Permission denied/i.test(stderr);
}

/** apt or dpkg could not take its lock: another package manager is running. */
export function isLockFailure(stderr: string): boolean {
  if (isPermissionFailure(stderr)) return false;
  return /Could not get lock|Unable to lock|dpkg frontend lock|Unable to acquire the dpkg frontend lock|is another process using it\?/i.test(stderr);
}

/** The last `E:` line (apt's error), else the last non-empty line. */
export function aptError(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  const errors = lines.filter((l) => l.startsWith('E: ') || l.startsWith('dpkg: error'));
  return (errors.at(-1) ?? lines.at(-1) ?? '').replace(/^E: /, '').slice(0, 300);
}

/** A Release file's origin fields and date (YYYY-MM-DD, UTC). */
export interface ReleaseInfo {
  origin: string;
  label: string;
  suite: string;
  codename: string;
  version: string;
  date: string | null;
}

export function parseRelease(text: string): ReleaseInfo | null {
  // An InRelease is clearsigned: the fields are the first stanza after the PGP header.
  const body = text.replace(/^-----BEGIN PGP SIGNED MESSAGE-----\n(?:Hash:.*\n)*\n/, '');
  const s = parseStanzas(body)[0];
  if (!s) return null;
  const date = s['Date'] ? new Date(s['Date']) : null;
  return {
    origin: s['Origin'] ?? '',
    label: s['Label'] ?? '',
    suite: s['Suite'] ?? '',
    codename: s['Codename'] ?? '',
    version: s['Version'] ?? '',
    date: date && !Number.isNaN(date.getTime()) ? date.toISOString().slice(0, 10) : null,
  };
}

/** The names apt prints for a release in simulate lines ("Label:Version/Suite" or "Label:Suite"). */
export function releaseKeys(r: ReleaseInfo): string[] {
  const label = r.label || r.origin;
  const keys = [`${label}:${r.suite}`, `${label}:${r.codename}`];
  if (r.version) keys.push(`${label}:${r.version}/${r.suite}`, `${label}:${r.version}/${r.codename}`);
  return keys;
}

/** The first entry of a Debian changelog: its urgency and date (YYYY-MM-DD, UTC). */
export function parseChangelogHead(text: string): { urgency: string | null; date: string | null } {
  const lines = text.split('\n');
  const head = lines.findIndex((l) => /^\S+ \([^)]+\) .*;/.test(l));
  if (head < 0) return { urgency: null, date: null };
  const urgency = /urgency=([a-z]+)/i.exec(lines[head]!)?.[1]?.toLowerCase() ?? null;
  const trailer = lines.slice(head + 1).find((l) => l.startsWith(' -- '));
  const stamp = trailer ? /> {2}(.+)$/.exec(trailer)?.[1] : undefined;
  const date = stamp ? new Date(stamp) : null;
  return { urgency, date: date && !Number.isNaN(date.getTime()) ? date.toISOString().slice(0, 10) : null };
}
