import dgram from 'node:dgram';
import { lookup } from 'node:dns/promises';
import type { Connect, Link } from './link.ts';
import type { SyslogServer } from './transport.ts';

/**
 * Syslog over UDP, one message per datagram. The name is looked up once per connection, not per
 * message. UDP cannot tell which of a name's addresses a receiver listens on, so take IPv4 first:
 * that is where syslog collectors almost always listen. A connected socket lets the kernel report
 * ICMP "port unreachable" as an error on a later send; any error other than an oversized datagram
 * reconnects, which also picks up a changed address.
 */
export function udpConnect(server: SyslogServer): Connect {
  return async (events, signal) => {
    const { address, family } = await lookup(server.host, { order: 'ipv4first' });
    signal.throwIfAborted();
    const socket = dgram.createSocket(family === 6 ? 'udp6' : 'udp4');
    const close = (): void => {
      try {
        socket.close();
      } catch {
        // Already closed.
      }
    };
    try {
      await new Promise<void>((resolve, reject) => {
        const fail = (error: Error): void => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        };
        const onAbort = (): void => fail(new Error('connection attempt abandoned'));
        signal.addEventListener('abort', onAbort, { once: true });
        socket.once('error', fail);
        socket.connect(server.port, address, () => {
          signal.removeEventListener('abort', onAbort);
          socket.off('error', fail);
          resolve();
        });
      });
    } catch (error) {
      close();
      throw error;
    }
    socket.on('error', (error) => events.broken(error));
    const link: Link = {
      write: (message, done) => {
        socket.send(message, (error) => {
          done(error);
          if (error && (error as NodeJS.ErrnoException).code !== 'EMSGSIZE') events.broken(error);
        });
        return true;
      },
      end: () =>
        new Promise<void>((closed) => {
          try {
            socket.close(() => closed());
          } catch {
            closed();
          }
        }),
      destroy: close,
    };
    return link;
  };
}
