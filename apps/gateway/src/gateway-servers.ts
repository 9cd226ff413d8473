import http from 'node:http';
import https from 'node:https';
import net, { type Socket } from 'node:net';
import type { GatewayConfig } from '@rampart/contracts';
import { WrongPasswordLimiter } from './authorize-limiter.ts';
import type { Inspector, OnGatewayEvent } from './inspector.ts';
import { createLocalServices, type WorkerServices } from './services.ts';
import { createRequestHandler, createUpgradeHandler, type ProxyContext } from './proxy.ts';
import { nameMatches, hostName } from './site-router.ts';
import { planListeners, type ListenerPlan } from './site-runtime.ts';
import { answerClientError } from './unparseable-request.ts';
import { sharedUploadScanner } from './upload-scan.ts';

/** How often Node checks header and request timeouts (its default, 30 s, would let a slowloris linger). */
const checkEveryMs = 500;

interface Listener {
  plan: ListenerPlan;
  server: http.Server;
  sockets: Set<Socket>;
}

export interface GatewayServersOptions {
  inspector: Inspector;
  onEvent: OnGatewayEvent;
  workerTag?: string;
  /** Shared state and lookups (cluster-wide in a worker); default: one process's own. */
  services?: WorkerServices;
  /** The process's log (a cluster worker's goes to the primary's). */
  log?: (message: string) => void;
}

/**
 * The listeners of one process: one server per address:port, each reaching the sites that listen
 * there. In a cluster worker, `listen` shares the primary's socket, so several workers (and two
 * generations during a reload) accept on the same port.
 */
export class GatewayServers {
  private listeners = new Map<string, Listener>();
  private ctx: ProxyContext;
  /** The services this object made itself (no cluster): it loads the policy's timed lists into them. */
  private ownServices: ReturnType<typeof createLocalServices> | undefined;
  private readonly log: (message: string) => void;

  constructor(options: GatewayServersOptions) {
    this.log = options.log ?? (() => {});
    if (!options.services) this.ownServices = createLocalServices();
    this.ctx = {
      inspector: options.inspector,
      onEvent: options.onEvent,
      timeouts: { header_ms: 20_000, idle_ms: 60_000, upstream_connect_ms: 5_000, upstream_response_ms: 60_000 },
      draining: false,
      workerTag: options.workerTag,
      tunnels: new Set(),
      services: options.services ?? this.ownServices!,
      authorizeLimiter: new WrongPasswordLimiter(),
    };
  }

  /** Addresses actually bound (port 0 resolved), by listener key. */
  addresses(): Record<string, { address: string; port: number }> {
    const out: Record<string, { address: string; port: number }> = {};
    for (const [key, l] of this.listeners) {
      const a = l.server.address();
      if (a && typeof a === 'object') out[key] = { address: a.address, port: a.port };
    }
    return out;
  }

  /**
   * Applies a configuration in place: listeners kept where address, port and TLS-ness stay, their
   * sites swapped (new requests see the new sites at once, in-flight ones finish on the old),
   * new ones opened, dropped ones drained. Throws before changing anything if a certificate is bad.
   */
  async apply(config: GatewayConfig): Promise<void> {
    const plans = planListeners(config);
    this.ctx.timeouts = config.timeouts;
    // In a cluster the primary owns the timed lists and tells the workers; alone, the file's lists
    // (the console's copy at the time it wrote the file) are where this process starts from.
    if (config.policy && this.ownServices) this.ownServices.replaceTimed(config.policy.timed);
    // The upload scan's custom library (upload-scan.ts): a changed one is compiled by a fresh scan thread.
    sharedUploadScanner().useLibrary(config.policy?.custom_library ?? null, this.log);
    const wanted = new Set(plans.map((p) => p.key));
    for (const plan of plans) {
      const existing = this.listeners.get(plan.key);
      if (existing && existing.plan.tls === plan.tls) {
        const previous = existing.plan;
        existing.plan = plan;
        this.tune(existing.server, config);
        // SNI reads the plan on each handshake; the no-SNI default certificate is set here.
        const first = plan.certs[0];
        if (first && existing.server instanceof https.Server) existing.server.setSecureContext({ cert: first.cert, key: first.key });
        for (const rt of previous.sites) if (!plan.sites.some((s) => s.pool === rt.pool)) setTimeout(() => rt.pool.destroy(), config.timeouts.idle_ms).unref();
        continue;
      }
      if (existing) await this.closeListener(existing, 5_000);
      await this.open(plan, config);
    }
    for (const [key, l] of this.listeners) if (!wanted.has(key)) await this.closeListener(l, config.timeouts.idle_ms);
  }

  private tune(server: http.Server, config: GatewayConfig): void {
    server.headersTimeout = config.timeouts.header_ms;
    // No total-request limit: a 1 GB upload may take long; idleness is what gets cut off.
    server.requestTimeout = 0;
    server.keepAliveTimeout = config.timeouts.idle_ms;
    server.timeout = config.timeouts.idle_ms;
    // A client that sends its request and then shuts its sending side (shutdown(SHUT_WR), `nc -q`,
    // scripts) still waits for the answer, as nginx and Apache give it. Node's default (false) drops
    // the request on the FIN; true ends the socket once the answer in progress is written. Idle
    // half-open sockets are still cut by `server.timeout`.
    // (A property of http.Server that Node's own socketOnEnd reads; @types/node does not list it.)
    (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  }

  private async open(plan: ListenerPlan, config: GatewayConfig): Promise<void> {
    const listener: Listener = { plan, server: undefined as unknown as http.Server, sockets: new Set() };
    const getSites = () => listener.plan.sites;
    const proto = plan.tls ? 'https' : 'http';
    const onRequest = createRequestHandler(getSites, this.ctx, proto);
    let server: http.Server;
    if (plan.tls) {
      const first = plan.certs[0];
      server = https.createServer({
        connectionsCheckingInterval: checkEveryMs,
        SNICallback: (servername, cb) => {
          const name = hostName(servername);
          const certs = listener.plan.certs;
          const hit = certs.find((c) => c.names.some((n) => n.toLowerCase() === name)) ?? certs.find((c) => c.names.some((n) => nameMatches(n, name))) ?? certs[0];
          cb(null, hit?.context);
        },
        // A client without SNI gets the first site's certificate.
        secureContext: first?.context,
      } as https.ServerOptions, onRequest);
    } else {
      server = http.createServer({ connectionsCheckingInterval: checkEveryMs }, onRequest);
    }
    listener.server = server;
    this.tune(server, config);
    server.on('upgrade', createUpgradeHandler(getSites, this.ctx, proto));
    server.on('connection', (socket: Socket) => {
      listener.sockets.add(socket);
      socket.on('close', () => listener.sockets.delete(socket));
    });
    server.on('clientError', (err, socket) => answerClientError(err, socket, getSites(), this.ctx));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: plan.address, port: plan.port }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.listeners.set(plan.key, listener);
  }

  private async closeListener(l: Listener, graceMs: number): Promise<void> {
    this.listeners.delete(l.plan.key);
    await drainServer(l, graceMs);
  }

  /**
   * Stops accepting, lets in-flight requests and WebSocket tunnels finish (responses now say
   * Connection: close), then closes what is left after `graceMs`.
   */
  async drain(graceMs: number): Promise<void> {
    this.ctx.draining = true;
    const all = [...this.listeners.values()];
    this.listeners.clear();
    const tunnels = this.ctx.tunnels;
    await Promise.all([
      ...all.map((l) => drainServer(l, graceMs)),
      waitUntil(() => tunnels.size === 0, graceMs).then(() => {
        for (const t of tunnels) t.destroy();
      }),
    ]);
  }
}

/**
 * Drains one server. Stops accepting at once, but keeps the idle keep-alive connections open for a
 * moment: a client that sends its next request on one gets it answered with Connection: close, and
 * no request is lost to the classic race of closing an idle connection while a request is on its
 * way (http.Server.close would close idle connections immediately, so net.Server's close is used).
 * After `idleGraceMs`, connections still idle are closed; past `graceMs`, everything is.
 */
async function drainServer(l: Listener, graceMs: number, idleGraceMs = 1000): Promise<void> {
  const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(l.server, () => resolve()));
  let sweep: NodeJS.Timeout | undefined;
  const startSweeping = setTimeout(() => {
    sweep = setInterval(() => l.server.closeIdleConnections(), 100);
    l.server.closeIdleConnections();
  }, Math.min(idleGraceMs, graceMs));
  // Past the grace period everything goes, WebSocket tunnels included (they are not HTTP-tracked).
  const timer = setTimeout(() => {
    l.server.closeAllConnections();
    for (const s of l.sockets) s.destroy();
  }, graceMs);
  await closed;
  clearTimeout(startSweeping);
  clearInterval(sweep);
  clearTimeout(timer);
  for (const rt of l.plan.sites) rt.pool.destroy();
}

function waitUntil(test: () => boolean, maxMs: number): Promise<void> {
  const start = Date.now();
  return new Promise((resolve) => {
    const tick = () => (test() || Date.now() - start >= maxMs ? resolve() : setTimeout(tick, 50));
    tick();
  });
}
