import type { FirewallService, FirewallSinks } from '../firewall/firewall-service.ts';
import { RemoteService, type RemoteOptions } from './remote-service.ts';

/** Remote protection on top of the firewall: sshd read, its chain planned into the firewall's table, logins watched. */
export async function openRemote(firewall: FirewallService, enabled: boolean, sinks: FirewallSinks, log: (line: string) => void, options: RemoteOptions = {}): Promise<RemoteService> {
  const service = new RemoteService(firewall, enabled, sinks, log, options);
  await service.start();
  return service;
}
