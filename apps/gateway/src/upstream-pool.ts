import { Pool } from 'undici';

export interface Upstream {
  url: URL;
  /** host:port as sent in Host when the client's Host is not preserved. */
  hostHeader: string;
  /**
   * The keep-alive connection pool to this origin. undici rather than node:http's Agent: on the
   * 2-core bench its client side costs about half as much CPU per request (llhttp in wasm, no
   * ClientRequest/IncomingMessage objects, headers written in one string), which roughly doubled
   * the proxied requests per second (bench/waf-perf, measured in issue 6).
   */
  dispatcher: Pool;
  /** Until this time (ms) the upstream is skipped after a failure (passive health). */
  downUntil: number;
  failures: number;
}

export interface UpstreamPoolOptions {
  /** TCP (+TLS) connect timeout to an origin. */
  connectMs: number;
}

/**
 * Round-robin over a site's origins with passive health: a connect failure or timeout marks the
 * origin down for `failMs`; when every origin is down the least recently failed is tried anyway
 * (a dead site answers 502 either way, and this lets it come back without waiting).
 */
export class UpstreamPool {
  private next = 0;
  readonly upstreams: Upstream[];
  private readonly failMs: number;

  constructor(urls: readonly string[], failMs: number, idleMs: number, options: UpstreamPoolOptions = { connectMs: 5_000 }) {
    this.failMs = failMs;
    this.upstreams = urls.map((raw) => {
      const url = new URL(raw);
      const dispatcher = new Pool(url.origin, {
        connections: 1024,
        // No pipelining towards the origin: one request per connection at a time, as nginx does.
        pipelining: 1,
        connectTimeout: options.connectMs,
        // An idle upstream connection is closed after 4 s (or the origin's Keep-Alive hint minus 1 s),
        // before a typical origin closes it itself (Apache's KeepAliveTimeout is 5 s), which keeps the
        // reuse-a-closing-socket race rare; never longer than the gateway's own idle timeout.
        keepAliveTimeout: Math.min(4_000, idleMs),
        keepAliveMaxTimeout: idleMs,
        // Origins behind the gateway commonly use self-signed certificates (as with Node's client before).
        connect: { rejectUnauthorized: false },
        // Timeouts are set per request from the live configuration (proxy.ts).
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      return { url, hostHeader: url.host, dispatcher, downUntil: 0, failures: 0 };
    });
  }

  pick(now: number, exclude?: ReadonlySet<Upstream>): Upstream | undefined {
    const n = this.upstreams.length;
    for (let i = 0; i < n; i++) {
      const u = this.upstreams[(this.next + i) % n] as Upstream;
      if (u.downUntil <= now && !exclude?.has(u)) {
        this.next = (this.next + i + 1) % n;
        return u;
      }
    }
    const candidates = this.upstreams.filter((u) => !exclude?.has(u));
    return candidates.sort((a, b) => a.downUntil - b.downUntil)[0];
  }

  markFailed(u: Upstream, now: number): void {
    u.failures++;
    u.downUntil = now + this.failMs;
  }

  markOk(u: Upstream): void {
    if (u.failures === 0 && u.downUntil === 0) return;
    u.failures = 0;
    u.downUntil = 0;
  }

  destroy(): void {
    for (const u of this.upstreams) void u.dispatcher.destroy().catch(() => undefined);
  }
}
