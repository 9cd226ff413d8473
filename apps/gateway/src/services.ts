import type { GatewayEventRecord, WebsiteAuthorEntry, WebsiteInterceptEntry } from '@rampart/contracts';
import type { TimedLists } from '@rampart/waf';

/**
 * What a worker's request pipeline needs beyond the request and the compiled policy: state shared
 * by all workers (the timed lists, CC and 404 counts), lookups that are slow or big (geo-IP, the
 * DNS check of claimed spiders), and the way out for events. The cluster implementation
 * (cluster-services.ts, with policy-hub.ts in the primary) keeps the shared parts in the primary
 * and tells every worker; `createLocalServices` below is the single-process one (tests, one worker).
 */
export interface WorkerServices {
  /** The interception and authorization lists as this worker knows them now. */
  timed(): TimedLists;
  /**
   * Puts an address on a list, here at once and in every other worker soon after; the entry is
   * also reported (an `intercept` / `authorize` event is the caller's to emit).
   */
  addTimed(list: 'intercepted', entry: WebsiteInterceptEntry): void;
  addTimed(list: 'authorized', entry: WebsiteAuthorEntry): void;
  /**
   * Counts one request (`cc`) or one 404 answer (`not_found`) of `ip` on a site and says whether
   * the address is now over `perMinute` in the last minute, counted across all workers (the
   * cluster version may lag the others' counts by a fraction of a second).
   */
  count(kind: 'cc' | 'not_found', siteId: string, ip: string, now: number, perMinute: number): boolean;
  /** Forgets an address's count (after it was blocked, so the block is not repeated every request). */
  resetCount(kind: 'cc' | 'not_found', siteId: string, ip: string): void;
  /** The areas of an address (country code, and CN-xx province when known); empty when unknown. */
  areasOf(ip: string): readonly string[];
  /**
   * The reverse-then-forward DNS verdict on an address whose user agent claims a spider: cached
   * answer, or undefined while the lookup runs (it is started by this call).
   */
  spiderDns(ip: string, spider: string): 'genuine' | 'fake' | undefined;
  /** Hands an event to the primary's buffer (the console drains it). */
  emit(event: GatewayEventRecord): void;
}

function prune<T extends { expires_at: number }>(map: Map<string, number>, entry: T & { ip: string }): void {
  map.set(entry.ip, entry.expires_at);
}

/** Everything in one process: plain maps, per-minute sliding counts, no geo-IP, no DNS. */
export function createLocalServices(options: { emit?: (event: GatewayEventRecord) => void; areasOf?: (ip: string) => readonly string[]; spiderDns?: WorkerServices['spiderDns'] } = {}): WorkerServices & { replaceTimed(lists: { intercepted: WebsiteInterceptEntry[]; authorized: WebsiteAuthorEntry[] }): void; removeTimed(list: 'intercepted' | 'authorized', ips: readonly string[]): void } {
  const intercepted = new Map<string, number>();
  const authorized = new Map<string, number>();
  const hits = new Map<string, number[]>();
  const key = (kind: string, siteId: string, ip: string) => `${kind}\u0000${siteId}\u0000${ip}`;
  return {
    timed: () => ({ intercepted, authorized }),
    addTimed(list: 'intercepted' | 'authorized', entry: WebsiteInterceptEntry | WebsiteAuthorEntry) {
      prune(list === 'intercepted' ? intercepted : authorized, entry);
    },
    replaceTimed(lists) {
      intercepted.clear();
      authorized.clear();
      for (const e of lists.intercepted) intercepted.set(e.ip, e.expires_at);
      for (const e of lists.authorized) authorized.set(e.ip, e.expires_at);
    },
    removeTimed(list, ips) {
      const map = list === 'intercepted' ? intercepted : authorized;
      for (const ip of ips) map.delete(ip);
    },
    count(kind, siteId, ip, now, perMinute) {
      const k = key(kind, siteId, ip);
      const times = (hits.get(k) ?? []).filter((t) => t > now - 60_000);
      times.push(now);
      hits.set(k, times);
      return times.length > perMinute;
    },
    resetCount(kind, siteId, ip) {
      hits.delete(key(kind, siteId, ip));
    },
    areasOf: options.areasOf ?? (() => []),
    spiderDns: options.spiderDns ?? (() => undefined),
    emit: options.emit ?? (() => {}),
  };
}
