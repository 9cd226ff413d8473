import type { WebsiteListenInput, WebsiteSiteInput, WebsiteSiteView } from '@rampart/contracts';
import type { Db } from '../db/database.ts';
import type { SecretBox } from '../security/secret-box.ts';

/** A protected site as stored, with its private key opened (only the gateway config sees it). */
export interface StoredSite extends Omit<WebsiteSiteView, 'tls_key_set'> {
  tls_key: string;
}

interface SiteRow {
  id: number;
  name: string;
  status: 'on' | 'off';
  running: number;
  listen: string;
  server_names: string;
  upstreams: string;
  tls_cert: string;
  tls_key: string;
  trusted_proxies: string;
  created_at: number;
  updated_at: number;
}

function fromRow(row: SiteRow, box: SecretBox): StoredSite {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    running: row.running === 1,
    listen: JSON.parse(row.listen) as WebsiteListenInput[],
    server_names: JSON.parse(row.server_names) as string[],
    upstreams: JSON.parse(row.upstreams) as string[],
    tls_cert: row.tls_cert,
    tls_key: box.open(row.tls_key),
    trusted_proxies: JSON.parse(row.trusted_proxies) as string[],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What the server tab shows: the key is reduced to "one is stored". */
export function siteView(site: StoredSite): WebsiteSiteView {
  const { tls_key: key, ...rest } = site;
  return { ...rest, tls_key_set: key !== '' };
}

export function listSites(db: Db, box: SecretBox): StoredSite[] {
  return (db.prepare('SELECT * FROM website_sites ORDER BY id').all() as unknown as SiteRow[]).map((row) => fromRow(row, box));
}

export function getSite(db: Db, box: SecretBox, id: number): StoredSite | undefined {
  const row = db.prepare('SELECT * FROM website_sites WHERE id = ?').get(id) as unknown as SiteRow | undefined;
  return row ? fromRow(row, box) : undefined;
}

/** Adds (no id) or replaces a site; a null key keeps the stored one. Returns the id. */
export function saveSite(db: Db, box: SecretBox, input: WebsiteSiteInput, now: number): number {
  const columns = {
    name: input.name,
    status: input.status,
    running: input.running ? 1 : 0,
    listen: JSON.stringify(input.listen),
    server_names: JSON.stringify([...new Set(input.server_names)]),
    upstreams: JSON.stringify([...new Set(input.upstreams)]),
    tls_cert: input.tls_cert,
    trusted_proxies: JSON.stringify([...new Set(input.trusted_proxies)]),
  };
  if (input.id === undefined) {
    const result = db
      .prepare(
        `INSERT INTO website_sites (name, status, running, listen, server_names, upstreams, tls_cert, tls_key, trusted_proxies, created_at, updated_at)
         VALUES (:name, :status, :running, :listen, :server_names, :upstreams, :tls_cert, :tls_key, :trusted_proxies, :now, :now)`,
      )
      .run({ ...columns, tls_key: box.seal(input.tls_key ?? ''), now });
    return Number(result.lastInsertRowid);
  }
  db.prepare(
    `UPDATE website_sites SET name = :name, status = :status, running = :running, listen = :listen, server_names = :server_names,
       upstreams = :upstreams, tls_cert = :tls_cert, trusted_proxies = :trusted_proxies, updated_at = :now WHERE id = :id`,
  ).run({ ...columns, id: input.id, now });
  if (input.tls_key !== null) db.prepare('UPDATE website_sites SET tls_key = ? WHERE id = ?').run(box.seal(input.tls_key), input.id);
  return input.id;
}

export function deleteSites(db: Db, ids: readonly number[]): number {
  const remove = db.prepare('DELETE FROM website_sites WHERE id = ?');
  return ids.reduce((count, id) => count + Number(remove.run(id).changes), 0);
}

export function setSitesColumn(db: Db, ids: readonly number[], column: 'status' | 'running', value: string | number, now: number): number {
  const update = db.prepare(`UPDATE website_sites SET ${column} = ?, updated_at = ? WHERE id = ?`);
  return ids.reduce((count, id) => count + Number(update.run(value, now, id).changes), 0);
}

/** Sites the gateway proxies and inspects: switched on and running. */
export function countProtectedSites(db: Db): number {
  const row = db.prepare("SELECT COUNT(*) AS n FROM website_sites WHERE status = 'on' AND running = 1").get() as { n: number } | undefined;
  return Number(row?.n ?? 0);
}
