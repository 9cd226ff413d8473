import path from 'node:path';
import { accountFiles, type AccountChange, type AccountFile, type AccountPrivileged, type AccountSettings, type AccountStatus, type EventInput } from '@rampart/contracts';
import type { GuardSourceRule } from '@rampart/guard';
import type { GuardService } from '../tamper/guard-service.ts';
import { privilegedAccounts, readAccountDatabase } from './account-files.ts';
import { loadAccountState, saveAccountState, type AccountState } from './account-state.ts';
import { RootLogin, type SshdExecutor } from './root-login.ts';

/** setTimeout's longest delay; a later end is reached by re-arming. */
const maxDelay = 2_147_483_647;

export interface AccountServiceOptions {
  stateDir: string;
  guard: GuardService;
  /** The module switch at start. */
  enabled: boolean;
  log: (line: string) => void;
  event: (input: EventInput) => void;
  /** Where passwd, shadow, group and gshadow are (tests: a temp copy; never lock the real one in a test). */
  etcDir: string;
  /** Where the root-login drop-in goes (default /etc/ssh/sshd_config.d). */
  sshdDropinDir: string;
  sshd: SshdExecutor;
  now?: () => number;
  /** The relock timer; tests with an injected clock turn it off and call tick(). */
  timers?: boolean;
}

/**
 * User protection: which account files are locked, the module switch and a timed unlock, kept in
 * <stateDir>/account.json and handed to the guard as the `account` rule source (one plan, one
 * owner: the GuardService). The timed unlock survives a restart: an unlock that ended while the
 * agent was down locks again at start, with its event.
 */
export class AccountService {
  readonly #options: AccountServiceOptions;
  readonly #now: () => number;
  readonly #rootLogin: RootLogin;
  #state: AccountState;
  #enabled: boolean;
  #timer: NodeJS.Timeout | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  private constructor(options: AccountServiceOptions, state: AccountState) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#state = state;
    this.#enabled = options.enabled;
    this.#rootLogin = new RootLogin(options.sshdDropinDir, options.sshd);
  }

  static async open(options: AccountServiceOptions): Promise<AccountService> {
    const service = new AccountService(options, await loadAccountState(path.join(options.stateDir, 'account.json'), options.log));
    if (service.#due()) await service.#relockByTimer();
    else await service.#apply();
    service.#arm();
    return service;
  }

  get #file(): string {
    return path.join(this.#options.stateDir, 'account.json');
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #due(): boolean {
    return this.#state.unlocked_until !== null && this.#now() >= this.#state.unlocked_until;
  }

  /** Files the settings lock. */
  lockedFiles(settings: AccountSettings = this.#state.settings): AccountFile[] {
    if (settings.lock_files) return [...accountFiles];
    return settings.locked_groups.length ? ['group', 'gshadow'] : [];
  }

  /** The rules handed to the guard: each locked file denied write, delete, rename and times for every process. */
  #rules(): GuardSourceRule[] {
    return this.lockedFiles().map((file) => ({ id: file, path: path.join(this.#options.etcDir, file), sub_path: '*', process: '*', exempt: [], level: 1, ops: ['w', 'd', 'n', 't'], notify: true }));
  }

  async #apply(): Promise<void> {
    await this.#options.guard.setSource({ module: 'account', enabled: this.#enabled && this.#state.unlocked_until === null, rules: this.#rules() });
  }

  async #save(): Promise<void> {
    await saveAccountState(this.#file, this.#state);
  }

  #record(kind: string, account: string, params: Record<string, string | number>): void {
    this.#options.event({ kind, module: 'account', level: 'info', source: account ? 'console' : 'agent', account, params: { account, ...params } });
  }

  async setEnabled(enabled: boolean): Promise<void> {
    await this.#serial(async () => {
      this.#enabled = enabled;
      await this.#apply();
    });
  }

  async setSettings(settings: AccountSettings, account: string): Promise<AccountChange> {
    return this.#serial(async () => {
      const what = `lock_files ${settings.lock_files ? 'on' : 'off'}; groups ${settings.locked_groups.join(',') || '-'}`;
      this.#state = { ...this.#state, settings: { lock_files: settings.lock_files, locked_groups: [...new Set(settings.locked_groups)].sort() } };
      await this.#save();
      this.#record('account.settings_changed', account, { what });
      await this.#apply();
      return { changed: true, refused: null };
    });
  }

  /** Off for N minutes: the rules leave the plan and come back by themselves. */
  async unlock(minutes: number, account: string): Promise<AccountChange> {
    return this.#serial(async () => {
      if (!this.#enabled) return { changed: false, refused: 'account_module_off' };
      if (!this.lockedFiles().length) return { changed: false, refused: 'account_not_locked' };
      this.#state = { ...this.#state, unlocked_until: this.#now() + minutes * 60_000 };
      await this.#save();
      this.#record('account.unlocked', account, { minutes });
      await this.#apply();
      this.#arm();
      return { changed: true, refused: null };
    });
  }

  async relock(account: string): Promise<AccountChange> {
    return this.#serial(async () => {
      if (this.#state.unlocked_until === null) return { changed: false, refused: 'account_not_unlocked' };
      this.#state = { ...this.#state, unlocked_until: null };
      await this.#save();
      this.#record('account.settings_changed', account, { what: 'locked again' });
      await this.#apply();
      this.#disarm();
      return { changed: true, refused: null };
    });
  }

  /** Locks again when the unlock has ended (the timer calls it; tests with a fake clock call it). */
  async tick(): Promise<void> {
    if (this.#due()) await this.#serial(async () => (this.#due() ? this.#relockByTimer() : undefined));
  }

  async #relockByTimer(): Promise<void> {
    this.#state = { ...this.#state, unlocked_until: null };
    await this.#save();
    this.#options.event({ kind: 'account.relocked', module: 'account', level: 'info', source: 'agent', params: {} });
    await this.#apply();
  }

  #disarm(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #arm(): void {
    this.#disarm();
    if (this.#closed || this.#options.timers === false || this.#state.unlocked_until === null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.tick()
        .then(() => this.#arm())
        .catch((error: unknown) => this.#options.log(`account: relock failed: ${String(error)}`));
    }, Math.min(maxDelay, Math.max(0, this.#state.unlocked_until - this.#now())));
    this.#timer.unref();
  }

  async status(): Promise<AccountStatus> {
    await this.tick();
    const locked = new Set(this.lockedFiles());
    const guard = this.#options.guard;
    const backend = guard.status().backend;
    const files = accountFiles.map((file) => ({ file, path: path.join(this.#options.etcDir, file), locked: locked.has(file), state: guard.sourceState(`account:${file}`) }));
    const passwd = files[0]!;
    const notes: string[] = [];
    if (this.#enabled && locked.size && this.#state.unlocked_until === null) {
      if (backend === 'none') notes.push('account_no_backend');
      // fanotify denies the write-open of the file itself only: the rename of a new copy over it goes through.
      if (backend === 'fanotify' && passwd.locked) notes.push('account_fanotify_rename');
    }
    return {
      enabled: this.#enabled,
      settings: this.#state.settings,
      unlocked_until: this.#state.unlocked_until,
      files,
      backend,
      user_create_blocked: passwd.state === 'active' && backend === 'lsm',
      notes,
    };
  }

  async privileged(): Promise<AccountPrivileged> {
    const db = await readAccountDatabase(this.#options.etcDir);
    const accounts = await privilegedAccounts(db);
    return { accounts, groups: db.groups.map((g) => g.name).sort(), root_login: await this.#rootLogin.view(accounts) };
  }

  async setRootLogin(disable: boolean, account: string): Promise<AccountChange & { reason?: string }> {
    return this.#serial(async () => {
      const accounts = await privilegedAccounts(await readAccountDatabase(this.#options.etcDir));
      const result = disable ? await this.#rootLogin.disable(accounts) : await this.#rootLogin.restore();
      if (result.changed) this.#record(disable ? 'account.root_login_disabled' : 'account.root_login_restored', account, disable ? { file: this.#rootLogin.dropinPath } : {});
      return result;
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#disarm();
    await this.#queue;
  }
}
