import cluster, { type Worker } from 'node:cluster';
import {
  gatewayTimedCommandSchema,
  parseAddressEntry,
  websiteAuthorEntrySchema,
  websiteAuthorReasons,
  websiteInterceptEntrySchema,
  websiteInterceptReasons,
  type GatewayConfig,
  type GatewayEventDrain,
  type GatewayTimedLists,
  type WebsiteAuthorEntry,
  type WebsiteInterceptEntry,
} from '@rampart/contracts';
import { CountAggregator } from './count-aggregator.ts';
import type { FromWorker, TimedChange, ToWorker } from './cluster-messages.ts';
import { EventBuffer } from './event-buffer.ts';
import { TimedMaster } from './timed-master.ts';

export type TimedBase = ReturnType<typeof TimedMaster.fileLists>;

export interface PolicyHubOptions {
  log: (message: string) => void;
  /** Fills in the area of events that come without one (geo-areas.ts); none: left null. */
  areaOf?: (ip: string) => string | null;
  maxEvents?: number;
  /** Addresses the count sum tracks per (kind, site). */
  maxCountedPerSite?: number;
}

/**
 * The primary's half of the policy's shared state: the timed lists' master copy, the cluster-wide
 * CC / 404 counts, and the event buffer the console drains. Workers talk to it with the messages
 * of cluster-messages.ts; the admin socket with `events` and `timed <json>`.
 */
export class PolicyHub {
  readonly timed = new TimedMaster();
  readonly counts: CountAggregator;
  readonly events: EventBuffer;
  private readonly log: (message: string) => void;
  private readonly pruneTimer: NodeJS.Timeout;
  /** Events received since start, for the periodic stdout summary (losses: events.droppedTotal). */
  readonly totals = { events: 0 };

  constructor(options: PolicyHubOptions) {
    this.log = options.log;
    this.counts = new CountAggregator({ ...(options.maxCountedPerSite ? { maxPerSite: options.maxCountedPerSite } : {}) });
    this.events = new EventBuffer({ ...(options.maxEvents !== undefined ? { maxEvents: options.maxEvents } : {}), ...(options.areaOf ? { areaOf: options.areaOf } : {}) });
    this.pruneTimer = setInterval(() => {
      const now = Date.now();
      this.counts.prune(now);
      this.timed.prune(now);
    }, 10_000);
    this.pruneTimer.unref();
  }

  /** What a starting worker gets: the merged timed lists, also as the configuration's `policy.timed`. */
  workerStart(config: GatewayConfig, base: TimedBase): { config: GatewayConfig; timed: GatewayTimedLists } {
    const timed = this.timed.effective(base, Date.now());
    return { config: config.policy ? { ...config, policy: { ...config.policy, timed } } : config, timed };
  }

  /** Handles a worker's policy message; false when the message is not one of these. */
  handle(from: Worker, message: FromWorker): boolean {
    switch (message.type) {
      case 'sync': {
        this.events.lost(message.dropped);
        this.events.push(message.events);
        this.totals.events += message.events.length;
        const marks = this.counts.add(message.counts, Date.now());
        if (marks.length > 0) this.broadcast({ type: 'over', marks });
        return true;
      }
      case 'timed': {
        // A worker's own additions only: removal is the console's (admin socket), and a worker
        // parsing the internet's bytes must not be able to lift an interception.
        const change = workerAddition(message.change);
        if (!change) return true;
        this.timed.apply(change, Date.now());
        this.broadcast({ type: 'timed', change }, from);
        return true;
      }
      case 'count-reset':
        if (typeof message.ip !== 'string' || typeof message.siteId !== 'string') return true;
        this.counts.reset(message.kind, message.siteId, message.ip);
        this.broadcast({ type: 'count-reset', kind: message.kind, siteId: message.siteId, ip: message.ip }, from);
        return true;
      case 'spider':
        if (typeof message.ip !== 'string' || message.ip.length > 64 || typeof message.spider !== 'string' || message.spider.length > 32) return true;
        if ((message.verdict !== 'genuine' && message.verdict !== 'fake') || !Number.isFinite(message.until)) return true;
        this.broadcast({ type: 'spider', ip: message.ip, spider: message.spider, verdict: message.verdict, until: message.until }, from);
        return true;
      default:
        return false;
    }
  }

  /** Admin `events`. */
  drainEvents(): GatewayEventDrain {
    return this.events.drain();
  }

  /** Admin `timed <json>`: validated, applied to the master copy, sent to every worker. */
  applyTimedCommand(json: string): { ok: true } | { ok: false; reason: string } {
    let raw: unknown;
    try {
      raw = JSON.parse(json);
    } catch {
      return { ok: false, reason: 'timed: not JSON' };
    }
    const parsed = gatewayTimedCommandSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, reason: `timed: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
    const command = parsed.data;
    const ips = command.op === 'add' ? command.entries.map((e) => e.ip) : command.ips;
    // The entry schema takes any string as `ip`; the lists hold single addresses.
    const bad = ips.find((ip) => parseAddressEntry(ip)?.kind !== 'host');
    if (bad !== undefined) return { ok: false, reason: `timed: not an address: ${bad.slice(0, 64)}` };
    let change: TimedChange;
    if (command.op === 'remove') change = { op: 'remove', list: command.list, ips: command.ips };
    else if (command.list === 'intercepted') {
      const entries = command.entries.filter((e) => (websiteInterceptReasons as readonly string[]).includes(e.reason));
      if (entries.length !== command.entries.length) return { ok: false, reason: 'timed: an interception entry has an authorization reason' };
      change = { op: 'add', list: 'intercepted', entries: entries as Extract<TimedChange, { list: 'intercepted'; op: 'add' }>['entries'] };
    } else {
      const entries = command.entries.filter((e) => (websiteAuthorReasons as readonly string[]).includes(e.reason));
      if (entries.length !== command.entries.length) return { ok: false, reason: 'timed: an authorization entry has an interception reason' };
      change = { op: 'add', list: 'authorized', entries: entries as Extract<TimedChange, { list: 'authorized'; op: 'add' }>['entries'] };
    }
    this.timed.apply(change, Date.now());
    this.broadcast({ type: 'timed', change });
    return { ok: true };
  }

  /** Sends to every connected worker (both generations during a reload), but `except`. */
  broadcast(message: ToWorker, except?: Worker): void {
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (!worker || worker === except || !worker.isConnected()) continue;
      try {
        worker.send(message);
      } catch (err) {
        this.log(`message to worker ${worker.process.pid} lost: ${(err as Error).message}`);
      }
    }
  }

  stop(): void {
    clearInterval(this.pruneTimer);
  }
}

/** A worker's timed-list message checked like anything else from the internet-facing side: one well-formed addition. */
function workerAddition(change: TimedChange | undefined): TimedChange | null {
  if (!change || change.op !== 'add' || !Array.isArray(change.entries) || change.entries.length !== 1) return null;
  const schema = change.list === 'intercepted' ? websiteInterceptEntrySchema : change.list === 'authorized' ? websiteAuthorEntrySchema : null;
  const parsed = schema?.safeParse(change.entries[0]);
  if (!parsed?.success || parseAddressEntry(parsed.data.ip)?.kind !== 'host' || parsed.data.detail.length > 500) return null;
  return change.list === 'intercepted' ? { op: 'add', list: 'intercepted', entries: [parsed.data as WebsiteInterceptEntry] } : { op: 'add', list: 'authorized', entries: [parsed.data as WebsiteAuthorEntry] };
}
