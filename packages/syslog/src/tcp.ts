import net from 'node:net';
import type { Connect, Link } from './link.ts';
import type { SyslogServer } from './transport.ts';

/** An unreachable host (no RST, no ICMP) would otherwise hold a connect for minutes of SYN retries. */
const connectTimeoutMs = 10_000;

/** Notices a receiver that vanished without closing (host down, cable out) while we have nothing to send. */
const keepAliveMs = 30_000;

/** RFC 6587 octet counting: `MSG-LEN SP MSG`, so a message may hold any byte, line breaks included. */
export const frame = (message: Buffer): Buffer => Buffer.concat([Buffer.from(`${message.length} `, 'ascii'), message]);

/**
 * Syslog over TCP. `net.connect` looks the name up once per connection and tries each address it
 * gets, IPv6 and IPv4, in turn.
 */
export function tcpConnect(server: SyslogServer): Connect {
  return (events, signal) =>
    new Promise<Link>((resolve, reject) => {
      const socket = net.connect({ host: server.host, port: server.port });
      const timer = setTimeout(() => fail(new Error(`connecting to ${server.host}:${server.port} timed out`)), connectTimeoutMs);
      const onAbort = (): void => fail(new Error('connection attempt abandoned'));
      signal.addEventListener('abort', onAbort, { once: true });
      function settle(): void {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        socket.off('error', fail);
      }
      function fail(error: Error): void {
        settle();
        socket.destroy();
        reject(error);
      }
      socket.once('error', fail);
      socket.once('connect', () => {
        settle();
        socket.setKeepAlive(true, keepAliveMs);
        // Receivers do not answer; read and discard anything one sends so its bytes cannot pile up.
        socket.resume();
        socket.on('drain', () => events.drain());
        socket.on('error', (error) => events.broken(error));
        socket.on('end', () => events.broken(new Error(`${server.host}:${server.port} closed the connection`)));
        socket.on('close', () => events.broken(new Error(`connection to ${server.host}:${server.port} closed`)));
        resolve({
          write: (message, done) => socket.write(frame(message), done),
          end: () =>
            new Promise<void>((ended) => {
              if (socket.closed) return ended();
              socket.once('close', () => ended());
              socket.end();
            }),
          destroy: () => socket.destroy(),
        });
      });
    });
}
