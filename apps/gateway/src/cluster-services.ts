import type { GatewayEventRecord, GatewayTimedLists, WebsiteAuthorEntry, WebsiteInterceptEntry } from '@rampart/contracts';
import { CappedMap } from './capped-map.ts';
import { syncEveryMs, type CountKind, type CountReport, type FromWorker, type TimedChange, type ToWorker, type WorkerStart } from './cluster-messages.ts';
import { createAreaLookup, policyNeedsAreas } from './geo-areas.ts';
import { MinuteSlots } from './minute-slots.ts';
import type { WorkerServices } from './services.ts';
import { createSpiderDns, type SpiderDnsOptions } from './spider-dns.ts';

/*
 * WorkerServices in a cluster worker. Nothing here waits for IPC on a request's path:
 *
 *  - Timed lists: this worker's own maps, replaced by the primary's merged copy at start and kept
 *    current by the primary's relays; an address this worker adds is in its maps at once.
 *  - Counts: each worker counts locally over a sliding minute (minute-slots.ts) and
 *    reports its increments every `syncEveryMs` (200 ms) in one message; the primary sums them and
 *    sends "over" marks (count-aggregator.ts). count() is true when this worker's own count is over,
 *    or when the primary's mark says the cluster's is. So a flood spread over N workers is caught
 *    about a sync interval after the cluster-wide count passes the threshold. Considered instead:
 *    one IPC round trip per request (simple and exact, but it puts the primary on every request's
 *    path), and sharding addresses to workers (node:cluster hands connections out round-robin, not
 *    by address). Memory is bounded: at most `maxTracked` addresses per (kind, site) (the oldest
 *    go; measured ~0.4 KB each), and likewise for pending reports and marks.
 *  - Events: queued and sent with the counts (at most `maxEventsPerSync` and ~16 MiB per interval;
 *    more are counted as dropped and the count travels too).
 */
export interface ClusterServicesOptions {
  send: (message: FromWorker) => void;
  log?: (message: string) => void;
  syncEveryMs?: number;
  /** Addresses counted per (kind, site) in this worker. */
  maxTracked?: number;
  maxEventsPerSync?: number;
  /** And about this many bytes of events per sync (snapshots can be 1 MB each): one IPC message stays sane. */
  maxEventBytesPerSync?: number;
  dns?: SpiderDnsOptions;
}

export type ClusterServices = WorkerServices & {
  /** The primary's start message: timed lists and whether (and from where) to look up areas. */
  configure(start: WorkerStart): void;
  /** Handles a message from the primary; false when it is not one of the services'. */
  receive(message: ToWorker): boolean;
  /** Sends what is pending now (before a draining worker exits). */
  flush(): void;
  stop(): void;
};

const key = (kind: string, siteId: string, ip: string) => `${kind}\u0000${siteId}\u0000${ip}`;

export function createClusterServices(options: ClusterServicesOptions): ClusterServices {
  const { send } = options;
  const log = options.log ?? (() => {});
  const maxTracked = options.maxTracked ?? 100_000;
  const maxEventsPerSync = options.maxEventsPerSync ?? 1000;
  const maxEventBytesPerSync = options.maxEventBytesPerSync ?? 16 * 2 ** 20;
  let eventBytes = 0;
  const intercepted = new Map<string, number>();
  const authorized = new Map<string, number>();
  const counters = new Map<string, MinuteSlots>();
  const pending = new CappedMap<string, CountReport>(maxTracked);
  const marks = new CappedMap<string, number>(maxTracked);
  let events: GatewayEventRecord[] = [];
  let dropped = 0;
  let areasOf: (ip: string) => readonly string[] = () => [];
  const spiderDns = (servers?: readonly string[]) =>
    createSpiderDns({
      ...options.dns,
      ...(servers ? { servers } : {}),
      // One worker's verdict serves all: the primary relays it.
      onVerdict: (ip, spider, verdict, until) => send({ type: 'spider', ip, spider, verdict, until }),
    });
  let dns = spiderDns();

  const replaceTimed = (lists: GatewayTimedLists | undefined) => {
    intercepted.clear();
    authorized.clear();
    for (const e of lists?.intercepted ?? []) intercepted.set(e.ip, e.expires_at);
    for (const e of lists?.authorized ?? []) authorized.set(e.ip, e.expires_at);
  };
  const applyTimed = (change: TimedChange) => {
    const map = change.list === 'intercepted' ? intercepted : authorized;
    if (change.op === 'add') for (const e of change.entries) map.set(e.ip, e.expires_at);
    else for (const ip of change.ips) map.delete(ip);
  };
  const forgetCount = (kind: string, siteId: string, ip: string) => {
    counters.get(`${kind}\u0000${siteId}`)?.delete(ip);
    pending.delete(key(kind, siteId, ip));
    marks.delete(key(kind, siteId, ip));
  };

  const flush = () => {
    if (pending.size === 0 && events.length === 0 && dropped === 0) return;
    const message: FromWorker = { type: 'sync', counts: [...pending.values()], events, dropped };
    pending.clear();
    events = [];
    eventBytes = 0;
    dropped = 0;
    send(message);
  };
  const syncTimer = setInterval(flush, options.syncEveryMs ?? syncEveryMs);
  syncTimer.unref();
  const pruneTimer = setInterval(() => {
    const now = Date.now();
    for (const counter of counters.values()) counter.prune(now);
    for (const [k, until] of marks) if (until <= now) marks.delete(k);
    for (const map of [intercepted, authorized]) for (const [ip, expires] of map) if (expires <= now) map.delete(ip);
  }, 10_000);
  pruneTimer.unref();

  function addTimed(list: 'intercepted', entry: WebsiteInterceptEntry): void;
  function addTimed(list: 'authorized', entry: WebsiteAuthorEntry): void;
  function addTimed(list: 'intercepted' | 'authorized', entry: WebsiteInterceptEntry | WebsiteAuthorEntry): void {
    (list === 'intercepted' ? intercepted : authorized).set(entry.ip, entry.expires_at);
    const change = list === 'intercepted' ? { op: 'add' as const, list, entries: [entry as WebsiteInterceptEntry] } : { op: 'add' as const, list, entries: [entry as WebsiteAuthorEntry] };
    send({ type: 'timed', change });
  }

  return {
    timed: () => ({ intercepted, authorized }),
    addTimed,

    count(kind, siteId, ip, now, perMinute) {
      const counterKey = `${kind}\u0000${siteId}`;
      let counter = counters.get(counterKey);
      if (!counter) counters.set(counterKey, (counter = new MinuteSlots(maxTracked)));
      const localOver = counter.add(ip, now) > perMinute;
      const k = key(kind, siteId, ip);
      const report = pending.get(k);
      if (report) report[3] += 1;
      else pending.set(k, [kind, siteId, ip, 1, perMinute]);
      if (report) report[4] = perMinute;
      const until = marks.get(k);
      if (until !== undefined) {
        if (until > now) return true;
        marks.delete(k);
      }
      return localOver;
    },

    resetCount(kind, siteId, ip) {
      forgetCount(kind, siteId, ip);
      send({ type: 'count-reset', kind, siteId, ip });
    },

    areasOf: (ip) => areasOf(ip),
    spiderDns: (ip, spider) => dns.verdict(ip, spider),

    emit(event) {
      const bytes = 1024 + event.target.length + (event.snapshot ? event.snapshot.headers.length + event.snapshot.body.length : 0);
      if (events.length >= maxEventsPerSync || (events.length > 0 && eventBytes + bytes > maxEventBytesPerSync)) dropped++;
      else {
        events.push(event);
        eventBytes += bytes;
      }
    },

    configure(start) {
      replaceTimed(start.timed ?? start.config.policy?.timed);
      if (start.dnsServers) dns = spiderDns(start.dnsServers);
      areasOf = policyNeedsAreas(start.config.policy) ? createAreaLookup(start.geo, log) : () => [];
    },

    receive(message) {
      switch (message.type) {
        case 'timed':
          applyTimed(message.change);
          return true;
        case 'over':
          for (const [kind, siteId, ip, until] of message.marks) marks.set(key(kind, siteId, ip), until);
          return true;
        case 'count-reset':
          forgetCount(message.kind, message.siteId, message.ip);
          return true;
        case 'spider':
          dns.learn(message.ip, message.spider, message.verdict, message.until);
          return true;
        default:
          return false;
      }
    },

    flush,
    stop() {
      clearInterval(syncTimer);
      clearInterval(pruneTimer);
    },
  };
}

export type { CountKind };
