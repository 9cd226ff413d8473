import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AccountChange, PrivilegedAccount } from '@rampart/contracts';

/*
 * Direct root SSH login, switched off safely. Reading of "change the system administrator name" on
 * Linux: the root name stays; root can no longer sign in over SSH directly, only through another sudo
 * account. Steps: sshd's effective config (`sshd -T`) says how accounts sign in; another sudo account
 * must be able to (a password hash while password login is on, or authorized_keys while key login is
 * on, and allowed by AllowUsers/DenyUsers); then a drop-in with `PermitRootLogin no`, `sshd -t`, a
 * second `sshd -T` that must now say `no` (an earlier drop-in or a config without the Include would
 * win), and the reload. Any failing step removes the drop-in again. Reverting deletes the drop-in.
 */

export const rootLoginDropinName = '50-rampart-root-login.conf';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs sshd and reloads it; tests inject a fake. */
export interface SshdExecutor {
  /** `sshd <args>`; null when there is no sshd. */
  sshd(args: string[]): Promise<CommandResult | null>;
  reload(): Promise<CommandResult>;
}

function run(file: string, args: string[]): Promise<CommandResult | null> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 15_000, maxBuffer: 4 << 20 }, (error, stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') return resolve(null);
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** The host's sshd (Debian: /usr/sbin/sshd) and its reload (systemd's `ssh` unit, else SIGHUP to the pid file's sshd). */
export const hostSshd: SshdExecutor = {
  sshd: (args) => run('/usr/sbin/sshd', args),
  async reload() {
    const viaSystemd = await run('systemctl', ['reload', 'ssh.service']);
    if (viaSystemd?.code === 0) return viaSystemd;
    try {
      const pid = Number((await readFile('/run/sshd.pid', 'utf8')).trim());
      process.kill(pid, 'SIGHUP');
      return { code: 0, stdout: '', stderr: '' };
    } catch (error) {
      return { code: 1, stdout: '', stderr: `${viaSystemd?.stderr ?? 'no systemctl'}; ${(error as Error).message}`.slice(0, 300) };
    }
  },
};

/** `sshd -T` output as lower-case keys → values (repeated keys joined by a space). */
export function parseSshdT(text: string): Map<string, string> {
  const config = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^(\S+)\s+(.*)$/.exec(line.trim());
    if (!match) continue;
    const key = match[1]!.toLowerCase();
    config.set(key, config.has(key) ? `${config.get(key)} ${match[2]}` : match[2]!);
  }
  return config;
}

/** Simple `*`/`?` patterns of AllowUsers/DenyUsers (the `user@host` form is matched on its user part). */
function userMatches(patterns: string | undefined, name: string): boolean {
  return (patterns ?? '').split(/\s+/).filter(Boolean).some((pattern) => {
    const user = pattern.split('@')[0]!;
    return new RegExp(`^${user.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(name);
  });
}

/** Sudo accounts other than root that sshd would let sign in. */
export function fallbackAccounts(accounts: readonly PrivilegedAccount[], config: Map<string, string>): string[] {
  const passwords = config.get('passwordauthentication') === 'yes' || config.get('kbdinteractiveauthentication') === 'yes';
  const keys = config.get('pubkeyauthentication') !== 'no';
  return accounts
    .filter((a) => a.name !== 'root' && a.reasons.some((r) => r !== 'uid0'))
    .filter((a) => (passwords && a.password) || (keys && a.keys))
    .filter((a) => (!config.has('allowusers') || userMatches(config.get('allowusers'), a.name)) && !userMatches(config.get('denyusers'), a.name))
    .map((a) => a.name);
}

export interface RootLoginView {
  permit: string | null;
  dropin: boolean;
  dropin_path: string;
  fallback_accounts: string[];
}

export class RootLogin {
  readonly #dir: string;
  readonly #sshd: SshdExecutor;

  constructor(dropinDir: string, sshd: SshdExecutor) {
    this.#dir = dropinDir;
    this.#sshd = sshd;
  }

  get dropinPath(): string {
    return path.join(this.#dir, rootLoginDropinName);
  }

  async #config(): Promise<Map<string, string> | null> {
    const result = await this.#sshd.sshd(['-T']);
    return result && result.code === 0 ? parseSshdT(result.stdout) : null;
  }

  async #dropinExists(): Promise<boolean> {
    return stat(this.dropinPath).then(() => true, () => false);
  }

  async view(accounts: readonly PrivilegedAccount[]): Promise<RootLoginView> {
    const config = await this.#config();
    return { permit: config?.get('permitrootlogin') ?? null, dropin: await this.#dropinExists(), dropin_path: this.dropinPath, fallback_accounts: config ? fallbackAccounts(accounts, config) : [] };
  }

  async disable(accounts: readonly PrivilegedAccount[]): Promise<AccountChange & { reason?: string }> {
    const config = await this.#config();
    if (!config) return { changed: false, refused: 'account_root_login_sshd_missing' };
    if (config.get('permitrootlogin') === 'no' && (await this.#dropinExists())) return { changed: false, refused: 'account_root_login_unchanged' };
    if (!fallbackAccounts(accounts, config).length) return { changed: false, refused: 'account_root_login_no_fallback' };
    await mkdir(this.#dir, { recursive: true, mode: 0o755 });
    await writeFile(this.dropinPath, '# Written by Rampart (user protection): direct root SSH login is off.\n# Delete this file (or revert on the user protection page) to allow it again.\nPermitRootLogin no\n', { mode: 0o644 });
    const undo = async (refused: string, reason: string) => {
      await rm(this.dropinPath, { force: true });
      return { changed: false, refused, reason: reason.trim().slice(0, 300) };
    };
    const test = await this.#sshd.sshd(['-t']);
    if (!test || test.code !== 0) return undo('account_root_login_sshd_invalid', test?.stderr ?? 'sshd missing');
    const after = await this.#config();
    if (after?.get('permitrootlogin') !== 'no') return undo('account_root_login_overridden', `PermitRootLogin is still ${after?.get('permitrootlogin') ?? '?'}: an earlier setting wins over ${this.dropinPath}`);
    const reload = await this.#sshd.reload();
    if (reload.code !== 0) {
      const result = await undo('account_root_login_reload_failed', reload.stderr);
      await this.#sshd.reload();
      return result;
    }
    return { changed: true, refused: null };
  }

  async restore(): Promise<AccountChange & { reason?: string }> {
    if (!(await this.#dropinExists())) return { changed: false, refused: 'account_root_login_unchanged' };
    await rm(this.dropinPath, { force: true });
    const test = await this.#sshd.sshd(['-t']);
    // Without the drop-in the config is the one sshd ran before: reload only if it still checks.
    if (test && test.code === 0) await this.#sshd.reload();
    return { changed: true, refused: null };
  }
}
