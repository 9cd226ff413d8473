import type { Executor } from '../executor.ts';
import type { RootFs } from '../root-fs.ts';

/** Packages from dpkg's status file (a file, so it reads from any root), and `dpkg --verify`. */
export interface PackageFacts {
  installed: Set<string>;
  /** Removed with their configuration left behind (status `deinstall ok config-files`). */
  residualConfig: string[];
}
export interface VerifyFinding {
  path: string;
  /** dpkg's nine flag characters (`??5??????`) or `missing`. */
  flags: string;
  conffile: boolean;
}

export function parseDpkgStatus(text: string): PackageFacts {
  const installed = new Set<string>();
  const residualConfig: string[] = [];
  for (const stanza of text.split(/\n\s*\n/)) {
    const name = /^Package:\s*(\S+)/m.exec(stanza)?.[1];
    const status = /^Status:\s*(.+)$/m.exec(stanza)?.[1]?.trim();
    if (!name || !status) continue;
    if (status.endsWith(' installed')) installed.add(name);
    else if (status.endsWith(' config-files')) residualConfig.push(name);
  }
  return { installed, residualConfig };
}

export function collectPackages(fs: RootFs): PackageFacts {
  const status = fs.read('/var/lib/dpkg/status');
  if (!status) throw new Error('/var/lib/dpkg/status is missing');
  return parseDpkgStatus(status.text);
}

/** Lines are `??5?????? c /path` (c marks a conffile) or `missing   c /path`. */
export function parseDpkgVerify(stdout: string): VerifyFinding[] {
  const findings: VerifyFinding[] = [];
  for (const line of stdout.split('\n')) {
    const match = /^(\S{9}|missing)\s+(c\s+)?(\/.*)$/.exec(line.trimEnd());
    if (match) findings.push({ flags: match[1] as string, conffile: Boolean(match[2]), path: match[3] as string });
  }
  return findings;
}

export async function collectDpkgVerify(exec: Executor): Promise<VerifyFinding[]> {
  const result = await exec('dpkg', ['--verify']);
  // dpkg --verify exits 1 when it found differences; that is an answer, not a failure.
  if (result.code !== 0 && result.code !== 1) throw new Error(`dpkg --verify: ${result.stderr.trim() || `exit ${result.code}`}`);
  return parseDpkgVerify(result.stdout);
}

/** `Inst pkg [old] (new origin... [arch])` lines of `apt-get -s dist-upgrade`. */
export interface PendingUpgrade {
  name: string;
  from: string;
  to: string;
  security: boolean;
}

export function parseAptSimulation(stdout: string): PendingUpgrade[] {
  const upgrades: PendingUpgrade[] = [];
  for (const line of stdout.split('\n')) {
    const match = /^Inst (\S+)(?: \[([^\]]+)\])? \((\S+) ([^[]*)/.exec(line);
    if (!match) continue;
    upgrades.push({ name: match[1] as string, from: match[2] ?? '', to: match[3] as string, security: /Debian-Security|-security/.test(match[4] ?? '') });
  }
  return upgrades;
}

export async function collectUpgrades(exec: Executor): Promise<PendingUpgrade[]> {
  const result = await exec('apt-get', ['-s', '-o', 'Debug::NoLocking=1', 'dist-upgrade']);
  if (result.code !== 0) throw new Error(`apt-get -s dist-upgrade: ${result.stderr.trim() || `exit ${result.code}`}`);
  return parseAptSimulation(result.stdout);
}
