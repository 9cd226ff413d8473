import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ConsoleContext } from '../context.ts';
import { getSetting, setSetting } from '../db/settings.ts';
import { panelAddress } from './addresses.ts';
import { readCertificate, readPrivateKey } from './certificate.ts';
import { portalRuntime } from './runtime.ts';

interface Tls {
  cert: string;
  key: string;
}

interface Bound {
  server: Server;
  port: number;
  tls: Tls | null;
  sockets: Set<Duplex>;
}

export interface PanelListener {
  /** The address it listens on now (http(s)://host:port). */
  url(): string;
  close(): Promise<void>;
}

export interface ListenerOptions {
  host: string;
  /** RAMPART_PORT: used until an administrator saves a port, and when the saved one cannot be bound. */
  envPort: number;
  log?: (line: string) => void;
}

/**
 * The console's HTTP(S) listener, movable without the process dying. It is our own server that
 * hands each request and upgrade to Fastify's (never-listening) `app.server`, so a new port, a
 * switch to HTTPS or a new certificate is a new server in front of the same app: the old one stops
 * only after the new one listens, and a failed move leaves the old one running.
 */
export async function startPanelListener(app: FastifyInstance, ctx: ConsoleContext, options: ListenerOptions): Promise<PanelListener> {
  await app.ready();
  const runtime = portalRuntime(ctx);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));

  /** HTTPS from the settings, when it is on and its key opens and matches; else plain HTTP (and the log says why). */
  const wantedTls = (): Tls | null => {
    const https = getSetting(ctx.db, 'panel_https');
    if (!https.enabled) return null;
    const key = runtime.box.open(https.key_sealed);
    const cert = readCertificate(https.cert);
    const keyObject = readPrivateKey(key);
    if (!cert || !keyObject || !cert.checkPrivateKey(keyObject)) {
      log('console: HTTPS is on but its certificate or key cannot be used; serving plain HTTP');
      return null;
    }
    return { cert: https.cert, key };
  };

  const listen = (port: number, tls: Tls | null): Promise<Bound> => {
    const handler = (req: IncomingMessage, res: ServerResponse) => app.server.emit('request', req, res);
    const server: Server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, handler) : createHttpServer(handler);
    const sockets = new Set<Duplex>();
    // @fastify/websocket listens for upgrades on app.server: pass them on.
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => app.server.emit('upgrade', req, socket, head));
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    server.on('clientError', (_error, socket: Duplex) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      else socket.destroy();
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: options.host, port, exclusive: true }, () => {
        server.off('error', reject);
        resolve({ server, port: (server.address() as { port: number }).port, tls, sockets });
      });
    });
  };

  /** Stops a listener: no new connections, then the open ones (keep-alive, websockets) after a short grace. */
  const stop = (bound: Bound, graceMs: number): Promise<void> =>
    new Promise((resolve) => {
      bound.server.close(() => resolve());
      bound.server.closeIdleConnections();
      setTimeout(() => {
        for (const socket of bound.sockets) socket.destroy();
      }, graceMs).unref();
    });

  const announce = (bound: Bound) => {
    runtime.listening = { host: options.host, port: bound.port, tls: bound.tls !== null };
  };

  // Choice: a saved port wins over RAMPART_PORT; if it cannot be bound (taken meanwhile), the
  // environment's port keeps the panel reachable rather than the console failing to start.
  const saved = getSetting(ctx.db, 'panel_port');
  let current: Bound;
  try {
    current = await listen(saved ?? options.envPort, wantedTls());
  } catch (error) {
    if (saved === null || saved === options.envPort) throw error;
    log(`console: the saved panel port ${saved} cannot be used (${(error as Error).message}); using ${options.envPort}`);
    current = await listen(options.envPort, wantedTls());
  }
  announce(current);

  let moving: Promise<void> = Promise.resolve();
  const move = async () => {
    const port = getSetting(ctx.db, 'panel_port') ?? current.port;
    const tls = wantedTls();
    const sameTls = (tls === null) === (current.tls === null) && (tls === null || (tls.cert === current.tls?.cert && tls.key === current.tls.key));
    if (port === current.port && sameTls) return; // domain, entry or IP list only: the gate has them already
    const old = current;
    try {
      if (port !== old.port) {
        current = await listen(port, tls);
        announce(current);
        await stop(old, 500);
      } else {
        // Same port, new TLS: the old server must let go of the port first.
        await stop(old, 0);
        try {
          current = await listen(port, tls);
        } catch (error) {
          current = await listen(old.port, old.tls);
          throw error;
        }
        announce(current);
      }
      log(`console listening on ${panelAddress({ tls: current.tls !== null, host: options.host, port: current.port, entry: '' }).replace(/\/$/, '')}`);
    } catch (error) {
      // The move failed: the panel stays where it was, and the settings say so again.
      log(`console: could not move the panel listener (${(error as Error).message}); it stays on port ${current.port}`);
      if (port !== current.port) setSetting(ctx.db, 'panel_port', current.port);
      if (tls && !current.tls) setSetting(ctx.db, 'panel_https', { ...getSetting(ctx.db, 'panel_https'), enabled: false });
      announce(current);
    }
  };
  runtime.onApply(() => (moving = moving.then(move, move)));

  return {
    url: () => panelAddress({ tls: current.tls !== null, host: options.host, port: current.port, entry: '' }).replace(/\/$/, ''),
    async close() {
      runtime.onApply(null);
      await moving.catch(() => {});
      await stop(current, 0);
      runtime.listening = null;
    },
  };
}
