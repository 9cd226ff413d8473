import path from 'node:path';
import type { Db } from '@rampart/sqlite';
import { withTransaction } from '@rampart/sqlite';
import { parseNetset, type CloudChange, type CloudFeed, type CloudSettings, type CloudStatus, type EventInput } from '@rampart/contracts';
import { alwaysSubtracted, feedHitsOf, feedRanges, feedTableName, planFeeds, planFeedsRemoval, type NftExecutor, type PlannedFeed } from '@rampart/firewall';
import { checkBundle, isUsablePublicKey, keyIdOf } from './bundle.ts';
import { openCloudDb } from './cloud-db.ts';
import { CloudRepo, type StoredFeed } from './cloud-repo.ts';
import { fetchBundle } from './feed-fetch.ts';

type EventSink = (input: EventInput) => void;

export interface CloudOptions {
  /** The nft runner (tests bind it to a network namespace); null: feeds are stored but not enforced. */
  nft?: NftExecutor | null;
  now?: () => number;
  /** The minute timer that fetches due URL feeds; tests call tick(). */
  timers?: boolean;
  fetchTimeoutMs?: number;
}

/** Addresses the administrator keeps reachable elsewhere (the firewall's super whitelist). */
export type ExemptSource = () => string[];

const none = (refused: string | null = null, detail = ''): CloudChange => ({ changed: 0, ids: [], refused, detail });
const done = (ids: number[], detail = ''): CloudChange => ({ changed: ids.length, ids, refused: null, detail });
/** How many of the administrator's recent addresses are kept out of the feeds. */
const adminIpsKept = 10;

/**
 * Cloud protection: pinned keys, installed feeds, their kernel sets (packages/firewall
 * plan-feeds.ts), scheduled URL updates. Every change runs one at a time; a change that the
 * kernel refuses is still stored and reported (`cloud_kernel_failed`), and applied again at the
 * next change or tick.
 */
export class CloudService {
  readonly db: Db;
  readonly repo: CloudRepo;
  readonly #event: EventSink;
  readonly #log: (line: string) => void;
  readonly #nft: NftExecutor | null;
  readonly #now: () => number;
  readonly #exempt: ExemptSource;
  readonly #fetchTimeoutMs: number;
  #enabled: boolean;
  #queue: Promise<unknown> = Promise.resolve();
  #timer: NodeJS.Timeout | null = null;
  /** What the kernel holds, for the page's range counts and to skip a re-apply that changes nothing. */
  #planned = new Map<number, { v4: number; v6: number }>();
  #appliedKey = '';
  #tableLive = false;

  constructor(stateDir: string, enabled: boolean, event: EventSink, log: (line: string) => void, exempt: ExemptSource, options: CloudOptions = {}) {
    this.db = openCloudDb(path.join(stateDir, 'cloud.db'));
    this.repo = new CloudRepo(this.db);
    this.#enabled = enabled;
    this.#event = event;
    this.#log = log;
    this.#nft = options.nft ?? null;
    this.#now = options.now ?? Date.now;
    this.#exempt = exempt;
    this.#fetchTimeoutMs = options.fetchTimeoutMs ?? 30_000;
    if (options.timers !== false) {
      this.#timer = setInterval(() => void this.tick().catch((error: unknown) => this.#log(`cloud: ${String(error)}`)), 60_000);
      this.#timer.unref();
    }
  }

  static async open(stateDir: string, enabled: boolean, event: EventSink, log: (line: string) => void, exempt: ExemptSource, options: CloudOptions = {}): Promise<CloudService> {
    const service = new CloudService(stateDir, enabled, event, log, exempt, options);
    await service.serial(() => service.#apply(true));
    return service;
  }

  serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#queue;
    this.db.close();
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  /** Off: the feed table goes (nothing blocked); on: it comes back from the stored feeds. */
  async setEnabled(enabled: boolean): Promise<void> {
    await this.serial(async () => {
      this.#enabled = enabled;
      await this.#apply(true);
    });
  }

  /** Everything the kernel may never get from a feed, besides `alwaysSubtracted`. */
  #exemptions(): string[] {
    const settings = this.repo.settings();
    return [...this.#exempt(), ...settings.own_ranges, ...settings.admin_ips];
  }

  /** Adds the kernel's counters to the stored hits (the table is about to be replaced, its counters reset). */
  async #foldHits(): Promise<void> {
    if (!this.#nft || !this.#tableLive) return;
    try {
      const hits = feedHitsOf(await this.#nft.read(['list', 'counters', 'table', 'inet', feedTableName]));
      withTransaction(this.db, () => {
        for (const [id, packets] of hits) this.repo.addHits(id, packets);
      });
    } catch (error) {
      this.#log(`cloud: reading feed counters failed: ${(error as Error).message}`);
    }
  }

  /** The kernel made to match. Returns the kernel's error text, or '' when all went in. */
  async #apply(force = false): Promise<string> {
    const feeds = this.repo.feeds().filter((feed) => feed.enabled);
    const exempt = this.#exemptions();
    // The minute tick only re-plans when something changed: parsing big netsets is not free.
    const key = JSON.stringify([this.#enabled, feeds.map((feed) => [feed.id, feed.version]), exempt]);
    if (!force && key === this.#appliedKey) return '';
    const planned: PlannedFeed[] = feeds.map((feed) => ({ id: feed.id, ...feedRanges([...parseNetset(feed.netset_v4, 4).entries, ...parseNetset(feed.netset_v6, 6).entries], exempt) }));
    this.#planned = new Map(planned.map((feed) => [feed.id, { v4: feed.v4.length, v6: feed.v6.length }]));
    if (!this.#nft) {
      this.#appliedKey = key;
      return '';
    }
    try {
      await this.#foldHits();
      if (this.#enabled) await this.#nft.apply(planFeeds(planned));
      else await this.#nft.apply(planFeedsRemoval());
      this.#tableLive = this.#enabled;
      this.#appliedKey = key;
      return '';
    } catch (error) {
      const message = (error as Error).message.slice(0, 300);
      this.#log(`cloud: applying feeds failed: ${message}`);
      this.#appliedKey = '';
      return message;
    }
  }

  async #applied(change: CloudChange): Promise<CloudChange> {
    const error = await this.#apply(true);
    return error && change.refused === null ? { ...change, refused: 'cloud_kernel_failed', detail: error } : change;
  }

  /** Remembers the address a change came from, so no feed can cut the administrator off. */
  #rememberAdmin(ip: string): void {
    if (!ip || ip === '127.0.0.1' || ip === '::1') return;
    const settings = this.repo.settings();
    if (settings.admin_ips[0] === ip) return;
    this.repo.saveSettings({ ...settings, admin_ips: [ip, ...settings.admin_ips.filter((known) => known !== ip)].slice(0, adminIpsKept) });
  }

  async status(): Promise<CloudStatus> {
    return this.serial(async () => {
      let live = new Map<number, number>();
      if (this.#nft && this.#tableLive) {
        try {
          live = feedHitsOf(await this.#nft.read(['list', 'counters', 'table', 'inet', feedTableName]));
        } catch {
          live = new Map();
        }
      }
      const settings = this.repo.settings();
      return {
        enabled: this.#enabled,
        kernel: this.#nft !== null,
        keys: this.repo.keys(),
        feeds: this.repo.feeds().map((feed) => this.#row(feed, live.get(feed.id) ?? 0)),
        settings: { own_ranges: settings.own_ranges },
        always_subtracted: [...alwaysSubtracted],
      };
    });
  }

  #row(feed: StoredFeed, livePackets: number): CloudFeed {
    const ranges = this.#planned.get(feed.id) ?? { v4: 0, v6: 0 };
    const expired = Date.parse(feed.expires) <= this.#now();
    return {
      id: feed.id, feed_id: feed.feed_id, name: feed.name, source: feed.source, licence: feed.licence, version: feed.version, date: feed.date, expires: feed.expires,
      key_id: feed.key_id, url: feed.url, interval_minutes: feed.interval_minutes, enabled: feed.enabled,
      entries_v4: feed.entries_v4, entries_v6: feed.entries_v6, ranges_v4: ranges.v4, ranges_v6: ranges.v6,
      hits: feed.hits + livePackets, last_update: feed.last_update, last_check: feed.last_check,
      state: feed.last_error ? 'failed' : expired ? 'expired' : 'ok', last_error: feed.last_error, last_detail: feed.last_detail,
    };
  }

  addKey(name: string, publicKey: string, account: string, ip: string): Promise<CloudChange> {
    return this.serial(async () => {
      if (!isUsablePublicKey(publicKey)) return none('cloud_key_invalid');
      if (this.repo.keys().some((key) => key.public_key === publicKey)) return none('cloud_key_duplicate');
      this.#rememberAdmin(ip);
      const id = this.repo.addKey(name, publicKey, keyIdOf(publicKey), this.#now());
      this.#event({ kind: 'cloud.keys_changed', module: 'cloud', level: 'info', source: 'agent', account, ip, params: { account, action: 'add', what: `${name} (${keyIdOf(publicKey)})` } });
      return done([id]);
    });
  }

  /** A key still signing an installed feed stays: its feed could no longer update. */
  deleteKeys(ids: readonly number[], account: string, ip: string): Promise<CloudChange> {
    return this.serial(async () => {
      const keys = this.repo.keys().filter((key) => ids.includes(key.id));
      if (keys.length === 0) return none('cloud_feed_not_found');
      const users = this.repo.feeds().filter((feed) => keys.some((key) => key.key_id === feed.key_id));
      if (users.length > 0) return none('cloud_key_in_use', users.map((feed) => feed.name).join(', ').slice(0, 200));
      for (const key of keys) this.repo.deleteKey(key.id);
      this.#event({ kind: 'cloud.keys_changed', module: 'cloud', level: 'info', source: 'agent', account, ip, params: { account, action: 'delete', what: keys.map((key) => key.name).join(', ').slice(0, 900) } });
      return done(keys.map((key) => key.id));
    });
  }

  /** Checks and installs a bundle's text; nothing changes when any check fails. */
  #install(text: string, source: { url: string; interval_minutes: number } | null, expectFeedId?: string): CloudChange & { name?: string } {
    const checked = checkBundle(text, this.repo.keys().map((key) => key.public_key), this.#now(), (feedId) => this.repo.feedByFeedId(feedId)?.version ?? null);
    if ('refused' in checked) return none(checked.refused, checked.detail);
    // A URL that now serves another feed must not overwrite that feed (or any other).
    if (expectFeedId !== undefined && checked.bundle.manifest.feed_id !== expectFeedId) return none('cloud_bundle_invalid', `feed_id ${checked.bundle.manifest.feed_id} is not ${expectFeedId}`);
    const id = this.repo.install(checked.bundle.manifest, checked.bundle.netsets, checked.keyId, source, this.#now());
    return { ...done([id], checked.bundle.manifest.name), name: checked.bundle.manifest.name };
  }

  #updatedEvent(id: number): void {
    const feed = this.repo.feed(id);
    const ranges = this.#planned.get(id) ?? { v4: 0, v6: 0 };
    if (feed) this.#event({ kind: 'cloud.feed_updated', module: 'cloud', level: 'info', source: 'agent', params: { name: feed.name, version: feed.version, v4: ranges.v4, v6: ranges.v6 } });
  }

  importBundle(text: string, account: string, ip: string): Promise<CloudChange> {
    return this.serial(async () => {
      this.#rememberAdmin(ip);
      const installed = this.#install(text, null);
      if (installed.refused) return installed;
      const answer = await this.#applied(installed);
      this.#event({ kind: 'cloud.feeds_changed', module: 'cloud', level: 'info', source: 'agent', account, ip, params: { account, action: 'add', what: installed.name ?? '' } });
      this.#updatedEvent(installed.ids[0]!);
      return answer;
    });
  }

  /** Adds a feed by its URL: the first fetch must succeed, or nothing is stored. */
  addUrl(url: string, intervalMinutes: number, account: string, ip: string): Promise<CloudChange> {
    return this.serial(async () => {
      if (this.repo.feeds().some((feed) => feed.url === url)) return none('cloud_url_duplicate');
      this.#rememberAdmin(ip);
      let text: string;
      try {
        text = await fetchBundle(url, this.#fetchTimeoutMs);
      } catch (error) {
        return none('cloud_fetch_failed', (error as Error).message.slice(0, 200));
      }
      const installed = this.#install(text, { url, interval_minutes: intervalMinutes });
      if (installed.refused) return installed;
      const answer = await this.#applied(installed);
      this.#event({ kind: 'cloud.feeds_changed', module: 'cloud', level: 'info', source: 'agent', account, ip, params: { account, action: 'add', what: `${installed.name ?? ''} (${url})`.slice(0, 900) } });
      this.#updatedEvent(installed.ids[0]!);
      return answer;
    });
  }

  /**
   * Fetches a URL feed and installs a newer version. The same version is no change; any failure
   * is kept on the row and raises `cloud.update_failed`, and the installed list keeps blocking.
   */
  async #update(feed: StoredFeed): Promise<CloudChange> {
    if (!feed.url) return none('cloud_feed_not_url');
    let text: string;
    try {
      text = await fetchBundle(feed.url, this.#fetchTimeoutMs);
    } catch (error) {
      return this.#failed(feed, 'cloud_fetch_failed', (error as Error).message.slice(0, 200));
    }
    const installed = this.#install(text, null, feed.feed_id);
    if (installed.refused === 'cloud_bundle_not_newer') {
      this.repo.checked(feed.id, this.#now(), null, '');
      return done([]);
    }
    if (installed.refused) return this.#failed(feed, installed.refused, installed.detail);
    const answer = await this.#applied(installed);
    this.#updatedEvent(feed.id);
    return answer;
  }

  #failed(feed: StoredFeed, refused: string, detail: string): CloudChange {
    this.repo.checked(feed.id, this.#now(), refused, detail);
    this.#event({ kind: 'cloud.update_failed', module: 'cloud', level: 'warning', source: 'agent', params: { name: feed.name, error: refused, detail: detail.slice(0, 300) } });
    return none(refused, detail);
  }

  updateNow(id: number, ip: string): Promise<CloudChange> {
    return this.serial(async () => {
      this.#rememberAdmin(ip);
      const feed = this.repo.feed(id);
      return feed ? this.#update(feed) : none('cloud_feed_not_found');
    });
  }

  editInterval(id: number, minutes: number, account: string, ip: string): Promise<CloudChange> {
    return this.serial(async () => {
      const feed = this.repo.feed(id);
      if (!feed) return none('cloud_feed_not_found');
      if (!feed.url) return none('cloud_feed_not_url');
      this.#rememberAdmin(ip);
      this.repo.setInterval(id, minutes);
      this.#event({ kind: 'cloud.feeds_changed', module: 'cloud', level: 'info', source: 'agent', account, ip, params: { account, action: 'edit', what: `${feed.name}: ${minutes} min` } });
      return done([id]);
    });
  }

  setFeedsEnabled(ids: readonly number[], enabled: boolean, account: string, ip: string): Promise<CloudChange> {
    return this.serial(async () => {
      const feeds = this.repo.feeds().filter((feed) => ids.includes(feed.id));
      if (feeds.length === 0) return none('cloud_feed_not_found');
      this.#rememberAdmin(ip);
      await this.#foldHits();
      for (const feed of feeds) this.repo.setEnabled(feed.id, enabled);
      this.#event({ kind: 'cloud.feeds_changed', module: 'cloud', level: 'info', source: 'agent', account, ip, params: { account, action: enabled ? 'enable' : 'disable', what: feeds.map((feed) => feed.name).join(', ').slice(0, 900) } });
      return this.#applied(done(feeds.map((feed) => feed.id)));
    });
  }

  deleteFeeds(ids: readonly number[], account: string, ip: string): Promise<CloudChange> {
    return this.serial(async () => {
      const feeds = this.repo.feeds().filter((feed) => ids.includes(feed.id));
      if (feeds.length === 0) return none('cloud_feed_not_found');
      this.#rememberAdmin(ip);
      for (const feed of feeds) this.repo.deleteFeed(feed.id);
      this.#event({ kind: 'cloud.feeds_changed', module: 'cloud', level: 'info', source: 'agent', account, ip, params: { account, action: 'delete', what: feeds.map((feed) => feed.name).join(', ').slice(0, 900) } });
      return this.#applied(done(feeds.map((feed) => feed.id)));
    });
  }

  setSettings(settings: CloudSettings, account: string, ip: string): Promise<CloudChange> {
    return this.serial(async () => {
      this.#rememberAdmin(ip);
      this.repo.saveSettings({ ...this.repo.settings(), own_ranges: settings.own_ranges });
      this.#event({ kind: 'cloud.settings_changed', module: 'cloud', level: 'info', source: 'agent', account, ip, params: { account, count: settings.own_ranges.length } });
      return this.#applied(done([]));
    });
  }

  /** Fetches the URL feeds that are due, and re-applies when the exemptions changed (a super whitelist edit). */
  tick(): Promise<void> {
    return this.serial(async () => {
      const now = this.#now();
      for (const feed of this.repo.feeds()) {
        if (!feed.url || feed.interval_minutes === null) continue;
        if ((feed.last_check ?? feed.last_update) + feed.interval_minutes * 60_000 > now) continue;
        await this.#update(feed);
      }
      await this.#apply(false);
    });
  }
}
