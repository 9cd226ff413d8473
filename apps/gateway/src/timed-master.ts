import type { GatewayTimedLists, WebsiteAuthorEntry, WebsiteInterceptEntry } from '@rampart/contracts';
import { CappedMap } from './capped-map.ts';
import type { TimedChange, TimedListName } from './cluster-messages.ts';

type Entry = WebsiteInterceptEntry | WebsiteAuthorEntry;
/** A change made while running (by a worker, or by the console over the admin socket). */
type RuntimeOp = { at: number; entry: Entry } | { at: number; entry: null };

const maxOps = 200_000;

/**
 * The primary's master copy of the interception and authorization lists. The lists are the
 * configuration file's (`policy.timed`, written by the console) plus the changes made since the
 * gateway started: workers intercept by themselves (CC, 404 scan, fake spider), the authorization
 * password lets addresses in, and the console adds and removes by hand without a reload. A reload
 * must not forget the runtime changes the file does not know yet, so the effective list is:
 *
 *   the file's entry, unless a runtime change of that address is newer than the entry's created_at
 *   (then the change: its entry, or no entry for a removal); expired entries dropped.
 *
 * A runtime change is forgotten once the file has caught up with it (same entry, or the address
 * gone after a removal) or once its entry has expired, so the change log stays small.
 */
export class TimedMaster {
  private base: Record<TimedListName, Map<string, Entry>> = { intercepted: new Map(), authorized: new Map() };
  private readonly ops: Record<TimedListName, CappedMap<string, RuntimeOp>> = { intercepted: new CappedMap(maxOps), authorized: new CappedMap(maxOps) };

  /** The file's lists of a configuration about to run. */
  static fileLists(timed: GatewayTimedLists | undefined): Record<TimedListName, Map<string, Entry>> {
    return {
      intercepted: new Map((timed?.intercepted ?? []).map((e) => [e.ip, e])),
      authorized: new Map((timed?.authorized ?? []).map((e) => [e.ip, e])),
    };
  }

  /** Records a runtime change, dated `now` (the primary's clock). */
  apply(change: TimedChange, now: number): void {
    const ops = this.ops[change.list];
    // A new change of an address replaces its older one (and takes its place as the newest).
    const record = (ip: string, op: RuntimeOp) => {
      ops.delete(ip);
      ops.set(ip, op);
    };
    if (change.op === 'add') for (const entry of change.entries) record(entry.ip, { at: now, entry });
    else for (const ip of change.ips) record(ip, { at: now, entry: null });
  }

  /** The lists as a starting worker must see them: `base` (a configuration's file lists) merged with the runtime changes. */
  effective(base: Record<TimedListName, Map<string, Entry>>, now: number): GatewayTimedLists {
    return {
      intercepted: this.merge(base.intercepted, this.ops.intercepted, now) as WebsiteInterceptEntry[],
      authorized: this.merge(base.authorized, this.ops.authorized, now) as WebsiteAuthorEntry[],
    };
  }

  /** A configuration now runs: its file lists become the base, and the changes it caught up with are forgotten. */
  commit(base: Record<TimedListName, Map<string, Entry>>, now: number): void {
    this.base = base;
    for (const list of ['intercepted', 'authorized'] as const) {
      for (const [ip, op] of this.ops[list]) {
        const file = base[list].get(ip);
        const caughtUp = op.entry === null ? file === undefined : file !== undefined && file.created_at === op.entry.created_at && file.expires_at === op.entry.expires_at;
        const overtaken = file !== undefined && op.at <= file.created_at;
        if (caughtUp || overtaken || (op.entry !== null && op.entry.expires_at <= now)) this.ops[list].delete(ip);
      }
    }
  }

  /** The running lists (status, tests). */
  current(now: number): GatewayTimedLists {
    return this.effective(this.base, now);
  }

  /** Drops expired runtime additions (called every minute). */
  prune(now: number): void {
    for (const list of ['intercepted', 'authorized'] as const) for (const [ip, op] of this.ops[list]) if (op.entry !== null && op.entry.expires_at <= now) this.ops[list].delete(ip);
  }

  private merge(base: Map<string, Entry>, ops: CappedMap<string, RuntimeOp>, now: number): Entry[] {
    const out: Entry[] = [];
    for (const [ip, entry] of base) {
      const op = ops.get(ip);
      if (op && op.at > entry.created_at) continue;
      if (entry.expires_at > now) out.push(entry);
    }
    for (const [ip, op] of ops) {
      if (op.entry === null || op.entry.expires_at <= now) continue;
      const file = base.get(ip);
      if (file && op.at <= file.created_at) continue;
      out.push(op.entry);
    }
    return out;
  }
}
