import type { PhotoInput, PhotoPage, PhotoQuery, PhotoRecord } from '@rampart/contracts';
import { withTransaction, type Db } from '@rampart/sqlite';
import type { Counters } from './counters.ts';
import { addCond, addOlderThan, containsPattern, emptyWhere, likeSql, num, statementCache, str, whereSql, type Row } from './sql.ts';

export interface Photos {
  /** Writes the snapshots at once, in one transaction; returns how many. */
  append(inputs: readonly PhotoInput[]): number;
  query(q: PhotoQuery): PhotoPage;
  get(id: number): PhotoRecord | null;
  /** Removes every snapshot; returns how many. */
  clear(): number;
  count(): number;
}

const keywordColumns = ['url', 'post_data', 'headers'];
const columns = 'id, time, site, ip, method, url, headers, post_data, kind';

function toPhoto(row: Row): PhotoRecord {
  return {
    id: num(row['id']),
    time: num(row['time']),
    site: str(row['site']),
    ip: str(row['ip']),
    method: str(row['method']),
    url: str(row['url']),
    headers: str(row['headers']),
    post_data: str(row['post_data']),
    kind: str(row['kind']),
  };
}

export function photos(db: Db, counters: Counters, now: () => number): Photos {
  const prepared = statementCache(db);
  const insert = db.prepare(`INSERT INTO photos (time, site, ip, method, url, headers, post_data, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const byId = db.prepare(`SELECT ${columns} FROM photos WHERE id = ?`);
  const timeOf = db.prepare('SELECT time FROM photos WHERE id = ?');
  const deleteAll = db.prepare('DELETE FROM photos');

  return {
    append(inputs) {
      if (inputs.length === 0) return 0;
      const time = now();
      return withTransaction(db, () => {
        for (const p of inputs) {
          insert.run(p.time ?? time, p.site ?? '', p.ip, p.method, p.url, p.headers ?? '', p.post_data ?? '', p.kind ?? '');
        }
        counters.add('photos', inputs.length);
        return inputs.length;
      });
    },
    query(q) {
      const where = emptyWhere();
      if (q.from !== undefined) addCond(where, 'time >= ?', q.from);
      if (q.to !== undefined) addCond(where, 'time < ?', q.to);
      if (q.ip) addCond(where, 'ip = ?', q.ip);
      if (q.keyword) {
        const pattern = containsPattern(q.keyword);
        addCond(where, `(${keywordColumns.map(likeSql).join(' OR ')})`, ...keywordColumns.map(() => pattern));
      }
      if (q.before !== undefined) {
        const row = timeOf.get(q.before);
        if (!row) return { list: [], more: false };
        addOlderThan(where, num(row['time']), q.before);
      }
      // A list page cuts the large fields in SQL, so they never cross into JavaScript whole.
      const cut = q.preview === undefined ? columns : columns.replace('headers, post_data', 'substr(headers, 1, ?) AS headers, substr(post_data, 1, ?) AS post_data');
      const cutArgs = q.preview === undefined ? [] : [q.preview, q.preview];
      const sql = `SELECT ${cut} FROM photos ${whereSql(where)} ORDER BY time DESC, id DESC LIMIT ?`;
      const rows = prepared(sql).all(...cutArgs, ...where.args, q.limit + 1) as Row[];
      return { list: rows.slice(0, q.limit).map(toPhoto), more: rows.length > q.limit };
    },
    get(id) {
      const row = byId.get(id) as Row | undefined;
      return row ? toPhoto(row) : null;
    },
    clear() {
      return withTransaction(db, () => {
        const removed = Number(deleteAll.run().changes);
        counters.add('photos', -counters.get('photos'));
        return removed;
      });
    },
    count: () => counters.get('photos'),
  };
}
