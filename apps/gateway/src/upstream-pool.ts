import http from 'node:http';
import https from 'node:https';

export interface Upstream {
  url: URL;
  /** host:port as sent in Host when the client's Host is not preserved. */
  hostHeader: string;
  agent: http.Agent;
  /** Until this time (ms) the upstream is skipped after a failure (passive health). */
  downUntil: number;
  failures: number;
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

  constructor(urls: readonly string[], failMs: number, idleMs: number) {
    this.failMs = failMs;
    this.upstreams = urls.map((raw) => {
      const url = new URL(raw);
      const secure = url.protocol === 'https:';
      // One keep-alive pool per origin; idle sockets close a little before a typical origin would.
      const options = { keepAlive: true, keepAliveMsecs: 1000, maxSockets: 1024, maxFreeSockets: 256, timeout: idleMs, scheduling: 'lifo' as const };
      const agent = secure ? new https.Agent({ ...options, rejectUnauthorized: false }) : new http.Agent(options);
      return { url, hostHeader: url.host, agent, downUntil: 0, failures: 0 };
    });
  }

  pick(now: number, exclude: ReadonlySet<Upstream> = new Set()): Upstream | undefined {
    const n = this.upstreams.length;
    for (let i = 0; i < n; i++) {
      const u = this.upstreams[(this.next + i) % n] as Upstream;
      if (u.downUntil <= now && !exclude.has(u)) {
        this.next = (this.next + i + 1) % n;
        return u;
      }
    }
    const candidates = this.upstreams.filter((u) => !exclude.has(u));
    return candidates.sort((a, b) => a.downUntil - b.downUntil)[0];
  }

  markFailed(u: Upstream, now: number): void {
    u.failures++;
    u.downUntil = now + this.failMs;
  }

  markOk(u: Upstream): void {
    u.failures = 0;
    u.downUntil = 0;
  }

  destroy(): void {
    for (const u of this.upstreams) u.agent.destroy();
  }
}
