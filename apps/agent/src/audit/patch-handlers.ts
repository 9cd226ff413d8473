import type { AgentHandlers } from '../protocol/dispatch.ts';
import type { PatchService } from './patch-service.ts';

type PatchMethods = Extract<keyof AgentHandlers, `audit.patch.${string}`>;

/** Every `audit.patch.*` call. Check, download and install answer once apt's lock is known free and go on in the background. */
export function patchHandlers(service: PatchService): Pick<AgentHandlers, PatchMethods> {
  return {
    'audit.patch.status': async () => service.status(),
    'audit.patch.check': async ({ account }) => service.check(account),
    'audit.patch.download': async ({ names, account }) => service.download(names ?? null, account),
    'audit.patch.install': async ({ names, account }) => service.install(names ?? null, account),
    'audit.patch.settings': async ({ settings }) => service.setSettings(settings),
  };
}
