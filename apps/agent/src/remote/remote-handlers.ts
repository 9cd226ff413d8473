import type { AgentHandlers } from '../protocol/dispatch.ts';
import type { RemoteService } from './remote-service.ts';

type RemoteMethods = Extract<keyof AgentHandlers, `remote.${string}`>;

/** The agent calls of remote-login protection. */
export function remoteHandlers(service: RemoteService): Pick<AgentHandlers, RemoteMethods> {
  return {
    // The page shows sshd as it is now: a port changed since the last look is read and guarded first.
    'remote.get': async () => {
      await service.refreshSshd();
      return service.view();
    },
    'remote.access.set': ({ access, guard }) => service.setAccess(access, guard),
    'remote.bruteforce.set': async ({ bruteforce }) => {
      await service.setBruteforce(bruteforce);
      return { ok: true as const };
    },
  };
}
