import type { CountKind, CountReport, OverMark } from './cluster-messages.ts';
import { CappedMap } from './capped-map.ts';
import { MinuteSlots } from './minute-slots.ts';

/**
 * The primary's sum of every worker's CC and 404 counts per (kind, site, address), over the same
 * sliding minute of one-second buckets the engine's counters use (minute-slots.ts). When an
 * address's sum passes the threshold the reporting worker used, it yields an "over" mark with the
 * moment the sum will fall back to the threshold if nothing more comes; the primary sends it to
 * every worker. A mark is sent again only when that moment moves by a second or more, so an
 * ongoing flood costs one small broadcast a second per address, not one per report.
 */
export interface CountAggregatorOptions {
  /** Addresses tracked per (kind, site); past it the oldest-seen go (a botnet can't grow memory). */
  maxPerSite?: number;
}

interface SiteCounts {
  slots: MinuteSlots;
  /** The `until` of the last mark sent per address. */
  marked: CappedMap<string, number>;
}

export class CountAggregator {
  private readonly sites = new Map<string, SiteCounts>();
  private readonly maxPerSite: number;

  constructor(options: CountAggregatorOptions = {}) {
    this.maxPerSite = options.maxPerSite ?? 100_000;
  }

  /** Adds a worker's report; returns the marks to broadcast. */
  add(reports: readonly CountReport[], now: number): OverMark[] {
    const marks: OverMark[] = [];
    for (const report of reports) {
      const [kind, siteId, ip, n, perMinute] = report;
      // Checked: a worker is the internet-facing side, and (kind, site) pairs each get their own table.
      if ((kind !== 'cc' && kind !== 'not_found') || typeof siteId !== 'string' || siteId.length > 64 || typeof ip !== 'string' || ip.length > 64) continue;
      if (!(n > 0) || !Number.isFinite(perMinute)) continue;
      const site = this.site(kind, siteId);
      if (site.slots.add(ip, now, n) <= perMinute) continue;
      const until = site.slots.overUntil(ip, now, perMinute);
      if (until > now && until >= (site.marked.get(ip) ?? 0) + 1000) {
        site.marked.set(ip, until);
        marks.push([kind, siteId, ip, until]);
      }
    }
    return marks;
  }

  /** The address's sum over the minute ending now (tests, status). */
  total(kind: CountKind, siteId: string, ip: string, now: number): number {
    return this.sites.get(`${kind}\u0000${siteId}`)?.slots.count(ip, now) ?? 0;
  }

  reset(kind: CountKind, siteId: string, ip: string): void {
    const site = this.sites.get(`${kind}\u0000${siteId}`);
    site?.slots.delete(ip);
    site?.marked.delete(ip);
  }

  /** Forgets addresses silent for a minute and marks that ran out (called every few seconds). */
  prune(now: number): void {
    for (const [key, site] of this.sites) {
      site.slots.prune(now);
      for (const [ip, until] of site.marked) if (until <= now) site.marked.delete(ip);
      if (site.slots.size === 0 && site.marked.size === 0) this.sites.delete(key);
    }
  }

  size(): number {
    let n = 0;
    for (const site of this.sites.values()) n += site.slots.size;
    return n;
  }

  private site(kind: CountKind, siteId: string): SiteCounts {
    const key = `${kind}\u0000${siteId}`;
    let site = this.sites.get(key);
    if (!site) this.sites.set(key, (site = { slots: new MinuteSlots(this.maxPerSite), marked: new CappedMap(this.maxPerSite) }));
    return site;
  }
}
