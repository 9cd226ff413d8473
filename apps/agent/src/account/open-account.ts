import type { EventInput } from '@rampart/contracts';
import type { GuardService } from '../tamper/guard-service.ts';
import { AccountService } from './account-service.ts';
import { hostSshd, type SshdExecutor } from './root-login.ts';

export interface AccountOptions {
  /** Where the account files are; default /etc. Tests give a temp copy. */
  etcDir?: string;
  /** Default /etc/ssh/sshd_config.d. */
  sshdDropinDir?: string;
  sshd?: SshdExecutor;
  now?: () => number;
  timers?: boolean;
}

export async function openAccount(stateDir: string, enabled: boolean, guard: GuardService, event: (input: EventInput) => void, log: (line: string) => void, options: AccountOptions = {}): Promise<AccountService> {
  return AccountService.open({
    stateDir,
    guard,
    enabled,
    log,
    event,
    etcDir: options.etcDir ?? '/etc',
    sshdDropinDir: options.sshdDropinDir ?? '/etc/ssh/sshd_config.d',
    sshd: options.sshd ?? hostSshd,
    now: options.now,
    timers: options.timers,
  });
}
