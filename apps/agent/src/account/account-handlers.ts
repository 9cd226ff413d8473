import type { AgentHandlers } from '../protocol/dispatch.ts';
import type { AccountService } from './account-service.ts';

type AccountMethods = Extract<keyof AgentHandlers, `account.${string}`>;

/** Every `account.*` call. */
export function accountHandlers(service: AccountService): Pick<AgentHandlers, AccountMethods> {
  return {
    'account.status': async () => service.status(),
    'account.settings.set': async ({ settings, account }) => service.setSettings(settings, account),
    'account.unlock': async ({ minutes, account }) => service.unlock(minutes, account),
    'account.relock': async ({ account }) => service.relock(account),
    'account.privileged': async () => service.privileged(),
    'account.root_login.set': async ({ disable, account }) => service.setRootLogin(disable, account),
  };
}
