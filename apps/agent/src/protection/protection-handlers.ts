import type { AgentHandlers } from '../protocol/dispatch.ts';
import type { NtpService } from '../time/ntp-service.ts';
import type { ProtectionService } from './protection-service.ts';

type Methods = 'protection.get' | 'protection.set' | 'ntp.get' | 'ntp.set' | 'ntp.sync';

/** The basic tab's agent calls: system protection and time sync. */
export function systemBasicHandlers(protection: ProtectionService, ntp: NtpService): Pick<AgentHandlers, Methods> {
  return {
    'protection.get': () => protection.get(),
    'protection.set': (params) => protection.set(params),
    'ntp.get': async () => ntp.view(),
    'ntp.set': ({ settings }) => ntp.set(settings),
    'ntp.sync': () => ntp.sync(),
  };
}
