import type { ModuleFlags } from '@rampart/contracts';
import type { Executor } from '../executor.ts';
import { RootFs, type TextFile } from '../root-fs.ts';
import { collectAccounts } from './accounts.ts';
import { parseEquals, parseIni, parseSpaceSeparated, type Setting } from './key-value.ts';
import { collectMounts } from './mounts.ts';
import { collectOpenDeleted } from './open-deleted.ts';
import { collectDpkgVerify, collectPackages, collectUpgrades } from './packages.ts';
import { collectPam } from './pam.ts';
import { collectFilesystemScan } from './filesystem-scan.ts';
import { collectServices } from './services.ts';
import { collectSockets } from './sockets.ts';
import { collectSshdConfig, effectiveSshd } from './sshd-config.ts';
import { collectSysctl } from './sysctl.ts';

/**
 * Everything the checks read, gathered once per run. Each collector reads files under the root or
 * asks the executor; a collector that fails leaves its fact out and records why, and the checks
 * that use that fact end as `error` with the reason, while every other check still runs.
 */
export interface GatherOptions {
  root: string;
  exec: Executor;
  /** Rampart's own module switches, for the "modules off" check; absent means not known. */
  moduleFlags?: ModuleFlags;
  /** Sysctl keys to read live (the kernel checks' keys). */
  sysctlKeys: readonly string[];
  /** Facts to skip (a quick run without the filesystem scan, tests that feed none). */
  skip?: readonly FactName[];
}

/** Files whose mode and owner the checks judge. */
export const statedFiles = [
  '/etc/passwd', '/etc/passwd-', '/etc/shadow', '/etc/shadow-', '/etc/group', '/etc/group-', '/etc/gshadow', '/etc/gshadow-',
  '/etc/ssh/sshd_config', '/etc/crontab', '/etc/cron.hourly', '/etc/cron.daily', '/etc/cron.weekly', '/etc/cron.monthly', '/etc/cron.d',
  '/etc/cron.allow', '/etc/cron.deny', '/etc/at.allow', '/etc/at.deny', '/var/log/journal', '/boot/grub/grub.cfg',
] as const;

/** Plain text files some checks read whole. */
const readFiles = ['/etc/issue', '/etc/issue.net', '/etc/security/limits.conf'] as const;

function collectors(fs: RootFs, options: GatherOptions) {
  const { exec } = options;
  return {
    sshd: () => collectSshdConfig(fs, exec),
    loginDefsFile: () => fs.read('/etc/login.defs'),
    loginDefs: () => parseSpaceSeparated(fs.read('/etc/login.defs')?.text ?? '', '/etc/login.defs'),
    pwquality: () => {
      const settings = parseEquals(fs.read('/etc/security/pwquality.conf')?.text ?? '', '/etc/security/pwquality.conf');
      for (const name of fs.list('/etc/security/pwquality.conf.d'))
        if (name.endsWith('.conf')) parseEquals(fs.read(`/etc/security/pwquality.conf.d/${name}`)?.text ?? '', `/etc/security/pwquality.conf.d/${name}`, settings);
      return settings;
    },
    pam: () => collectPam(fs),
    journald: () => {
      const settings = parseIni(fs.read('/etc/systemd/journald.conf')?.text ?? '', '/etc/systemd/journald.conf');
      for (const name of fs.list('/etc/systemd/journald.conf.d'))
        if (name.endsWith('.conf')) parseIni(fs.read(`/etc/systemd/journald.conf.d/${name}`)?.text ?? '', `/etc/systemd/journald.conf.d/${name}`, settings);
      return settings;
    },
    fileStats: () => new Map(statedFiles.map((p) => [p as string, fs.stat(p)])),
    texts: () => new Map(readFiles.map((p) => [p as string, fs.read(p)] as [string, TextFile | null])),
    modprobe: () => {
      const lines: Setting[] = [];
      for (const dir of ['/etc/modprobe.d', '/usr/lib/modprobe.d', '/lib/modprobe.d'])
        for (const name of fs.list(dir))
          if (name.endsWith('.conf'))
            (fs.read(`${dir}/${name}`)?.text ?? '').split('\n').forEach((l, i) => {
              if (l.trim() && !l.trim().startsWith('#')) lines.push({ value: l.trim(), file: `${dir}/${name}`, line: i + 1 });
            });
      return lines;
    },
    mounts: () => collectMounts(fs),
    packages: () => collectPackages(fs),
    services: () => collectServices(fs, exec),
    sysctl: () => collectSysctl(fs, exec, options.sysctlKeys),
    sockets: () => collectSockets(exec),
    dpkgVerify: () => collectDpkgVerify(exec),
    upgrades: () => collectUpgrades(exec),
    filesystem: () => collectFilesystemScan(exec),
    openDeleted: () => collectOpenDeleted(fs.root),
  };
}

type Collectors = ReturnType<typeof collectors>;
export type FactName = keyof Collectors | 'accounts';
type CollectedFacts = { [K in keyof Collectors]: Awaited<ReturnType<Collectors[K]>> };

export interface Facts extends CollectedFacts {
  root: string;
  accounts: ReturnType<typeof collectAccounts>;
  moduleFlags: ModuleFlags | undefined;
  /** How long each collector took, in milliseconds: the audit's time is almost all here. */
  timings: Partial<Record<FactName, number>>;
  /** Why a fact is missing; the checks that use it report this as their error. */
  errors: Partial<Record<FactName, string>>;
}

export async function gatherFacts(options: GatherOptions): Promise<Facts> {
  const fs = new RootFs(options.root);
  const all = collectors(fs, options);
  const errors: Facts['errors'] = {};
  const timings: Facts['timings'] = {};
  const skip = new Set(options.skip ?? []);
  const names = Object.keys(all) as (keyof Collectors)[];
  // The commands (find, dpkg --verify, apt-get) are the slow part: they run side by side.
  const values = await Promise.all(
    names.map(async (name) => {
      if (skip.has(name)) {
        errors[name] = 'skipped';
        return undefined;
      }
      const started = performance.now();
      try {
        return await all[name]();
      } catch (error) {
        errors[name] = error instanceof Error ? error.message : String(error);
        return undefined;
      } finally {
        timings[name] = Math.round(performance.now() - started);
      }
    }),
  );
  const collected = Object.fromEntries(names.map((name, i) => [name, values[i]])) as CollectedFacts;
  // Accounts need the sshd facts: AuthorizedKeysFile says where keys are looked for.
  const keyFiles = collected.sshd ? effectiveSshd(collected.sshd, 'authorizedkeysfile').value.split(/\s+/) : ['.ssh/authorized_keys', '.ssh/authorized_keys2'];
  let accounts: Facts['accounts'] | undefined;
  try {
    accounts = collectAccounts(fs, keyFiles);
  } catch (error) {
    errors.accounts = error instanceof Error ? error.message : String(error);
  }
  return { ...collected, accounts: accounts as Facts['accounts'], root: fs.root, moduleFlags: options.moduleFlags, timings, errors };
}
