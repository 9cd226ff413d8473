import type { Db } from '@rampart/sqlite';
import { cloudSettingsSchema, parseNetset, type CloudKey, type CloudSettings, type FeedManifest } from '@rampart/contracts';

type Row = Record<string, unknown>;

/** A stored feed: its row as the page shows it (hits without the live counter) and its netsets. */
export interface StoredFeed {
  id: number;
  feed_id: string;
  name: string;
  source: string;
  licence: string;
  version: number;
  date: string;
  expires: string;
  key_id: string;
  url: string | null;
  interval_minutes: number | null;
  enabled: boolean;
  netset_v4: string;
  netset_v6: string;
  entries_v4: number;
  entries_v6: number;
  hits: number;
  last_update: number;
  last_check: number | null;
  last_error: string | null;
  last_detail: string;
}

const toFeed = (row: Row): StoredFeed => ({
  id: Number(row['id']),
  feed_id: String(row['feed_id']),
  name: String(row['name']),
  source: String(row['source']),
  licence: String(row['licence']),
  version: Number(row['version']),
  date: String(row['date']),
  expires: String(row['expires']),
  key_id: String(row['key_id']),
  url: row['url'] === null ? null : String(row['url']),
  interval_minutes: row['interval_minutes'] === null ? null : Number(row['interval_minutes']),
  enabled: Number(row['enabled']) === 1,
  netset_v4: String(row['netset_v4']),
  netset_v6: String(row['netset_v6']),
  entries_v4: Number(row['entries_v4']),
  entries_v6: Number(row['entries_v6']),
  hits: Number(row['hits']),
  last_update: Number(row['last_update']),
  last_check: row['last_check'] === null ? null : Number(row['last_check']),
  last_error: row['last_error'] === null ? null : String(row['last_error']),
  last_detail: String(row['last_detail']),
});

const toKey = (row: Row): CloudKey => ({
  id: Number(row['id']),
  name: String(row['name']),
  public_key: String(row['public_key']),
  key_id: String(row['key_id']),
  created_at: Number(row['created_at']),
});

/** The settings row also keeps the addresses the administrator made changes from (never blocked). */
interface StoredSettings extends CloudSettings {
  admin_ips: string[];
}

export class CloudRepo {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  keys(): CloudKey[] {
    return this.#db.prepare('SELECT * FROM cloud_keys ORDER BY id').all().map(toKey);
  }
  addKey(name: string, publicKey: string, keyId: string, now: number): number {
    return Number(this.#db.prepare('INSERT INTO cloud_keys (name, public_key, key_id, created_at) VALUES (?, ?, ?, ?)').run(name, publicKey, keyId, now).lastInsertRowid);
  }
  deleteKey(id: number): void {
    this.#db.prepare('DELETE FROM cloud_keys WHERE id = ?').run(id);
  }

  feeds(): StoredFeed[] {
    return this.#db.prepare('SELECT * FROM cloud_feeds ORDER BY id').all().map(toFeed);
  }
  feed(id: number): StoredFeed | null {
    const row = this.#db.prepare('SELECT * FROM cloud_feeds WHERE id = ?').get(id);
    return row ? toFeed(row) : null;
  }
  feedByFeedId(feedId: string): StoredFeed | null {
    const row = this.#db.prepare('SELECT * FROM cloud_feeds WHERE feed_id = ?').get(feedId);
    return row ? toFeed(row) : null;
  }

  /** Installs a checked bundle: a new row, or the same feed's row replaced (its hits, URL and switch kept). */
  install(manifest: FeedManifest, netsets: { v4: string; v6: string }, keyId: string, source: { url: string; interval_minutes: number } | null, now: number): number {
    const known = this.feedByFeedId(manifest.feed_id);
    const v4 = parseNetset(netsets.v4, 4).entries.length;
    const v6 = parseNetset(netsets.v6, 6).entries.length;
    if (known) {
      this.#db.prepare(`UPDATE cloud_feeds SET name = ?, source = ?, licence = ?, version = ?, date = ?, expires = ?, key_id = ?, netset_v4 = ?, netset_v6 = ?,
        entries_v4 = ?, entries_v6 = ?, last_update = ?, last_check = ?, last_error = NULL, last_detail = '' ${source ? ', url = ?, interval_minutes = ?' : ''} WHERE id = ?`)
        .run(manifest.name, manifest.source, manifest.licence, manifest.version, manifest.date, manifest.expires, keyId, netsets.v4, netsets.v6, v4, v6, now, now, ...(source ? [source.url, source.interval_minutes] : []), known.id);
      return known.id;
    }
    return Number(this.#db.prepare(`INSERT INTO cloud_feeds (feed_id, name, source, licence, version, date, expires, key_id, url, interval_minutes, enabled, netset_v4, netset_v6, entries_v4, entries_v6, hits, last_update, last_check, last_error, last_detail)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, 0, ?, ?, NULL, '')`)
      .run(manifest.feed_id, manifest.name, manifest.source, manifest.licence, manifest.version, manifest.date, manifest.expires, keyId, source?.url ?? null, source?.interval_minutes ?? null, netsets.v4, netsets.v6, v4, v6, now, now).lastInsertRowid);
  }
  setEnabled(id: number, enabled: boolean): void {
    this.#db.prepare('UPDATE cloud_feeds SET enabled = ? WHERE id = ?').run(enabled ? 1 : 0, id);
  }
  setInterval(id: number, minutes: number): void {
    this.#db.prepare('UPDATE cloud_feeds SET interval_minutes = ? WHERE id = ?').run(minutes, id);
  }
  deleteFeed(id: number): void {
    this.#db.prepare('DELETE FROM cloud_feeds WHERE id = ?').run(id);
  }
  /** A fetch or check ended: when, and how (null error: fine). */
  checked(id: number, now: number, error: string | null, detail: string): void {
    this.#db.prepare('UPDATE cloud_feeds SET last_check = ?, last_error = ?, last_detail = ? WHERE id = ?').run(now, error, detail.slice(0, 500), id);
  }
  addHits(id: number, packets: number): void {
    if (packets > 0) this.#db.prepare('UPDATE cloud_feeds SET hits = hits + ? WHERE id = ?').run(packets, id);
  }

  settings(): StoredSettings {
    const row = this.#db.prepare('SELECT body FROM cloud_settings WHERE id = 1').get();
    const body = row ? (JSON.parse(String(row['body'])) as Partial<StoredSettings>) : {};
    const parsed = cloudSettingsSchema.safeParse({ own_ranges: body.own_ranges ?? [] });
    return { own_ranges: parsed.success ? parsed.data.own_ranges : [], admin_ips: Array.isArray(body.admin_ips) ? body.admin_ips.map(String) : [] };
  }
  saveSettings(settings: StoredSettings): void {
    this.#db.prepare('INSERT INTO cloud_settings (id, body) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body').run(JSON.stringify(settings));
  }
}
