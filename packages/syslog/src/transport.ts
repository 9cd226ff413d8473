import { QueuedSender, type Sender, type SenderOptions } from './sender.ts';
import { tcpConnect } from './tcp.ts';
import { udpConnect } from './udp.ts';

export const syslogTransports = ['udp', 'tcp'] as const;
export type SyslogTransport = (typeof syslogTransports)[number];

export interface SyslogServer {
  /** A name or an IPv4 / IPv6 address (without brackets). */
  host: string;
  port: number;
  transport: SyslogTransport;
}

/** Throws TypeError / RangeError naming what is wrong, so a bad setting fails where it is applied. */
export function validateServer(server: SyslogServer): void {
  if (typeof server.host !== 'string' || server.host.trim() === '') throw new TypeError('syslog server host is empty');
  if (!Number.isInteger(server.port) || server.port < 1 || server.port > 65535) {
    throw new RangeError(`syslog server port must be 1-65535, not ${server.port}`);
  }
  if (!syslogTransports.includes(server.transport)) throw new RangeError(`syslog transport must be udp or tcp, not ${String(server.transport)}`);
}

/** One sender per server: queues, connects (and reconnects) in the background. */
export function createSender(server: SyslogServer, options: SenderOptions = {}): Sender {
  validateServer(server);
  const own = { ...server };
  return new QueuedSender(own, own.transport === 'tcp' ? tcpConnect(own) : udpConnect(own), options);
}
