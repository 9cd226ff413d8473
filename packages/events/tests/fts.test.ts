import { afterEach, describe, expect, it } from 'vitest';
import type { EventInput, EventQuery } from '@rampart/contracts';
import { openSqlite, withTransaction, type Db } from '@rampart/sqlite';
import { eventReader } from '../src/event-query.ts';
import { ftsBackfill, ftsMatch } from '../src/fts.ts';
import { keywordSearch, type KeywordPath } from '../src/keyword-search.ts';
import { migrations } from '../src/migrations.ts';
import { num, statementCache, type Row } from '../src/sql.ts';
import { admin, day, hour, openTemp, T0, tempPath } from './helpers.ts';

const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});
function raw(path: string, steps: readonly string[] = migrations): Db {
  const db = openSqlite(path, steps, 'test');
  dbs.push(db);
  return db;
}

/** Mixed rows: English in any case, Chinese, addresses, paths, JSON params, LIKE's own wildcards. */
function mixed(n: number): EventInput[] {
  const details = [
    'sshd: Failed password for invalid user Oracle from 203.0.113.7 port 52211',
    'GET /wp-login.php?id=1%27%20OR%201=1 HTTP/1.1 User-Agent: sqlmap/1.7',
    '检测到暴力破解：来自 198.51.100.23 的 SSH 登录失败 12 次',
    '文件 /var/www/html/上传/shell.php 被隔离',
    'POST /api/v1/Users 100% cpu, rule_id 942100',
    'blocked 2001:db8::1 → port 22 (TCP)',
    '',
  ];
  const accounts = ['root', 'Admin', '管理员', 'bob_99', ''];
  const ips = ['10.0.0.1', '10.0.0.12', '192.168.1.10', '203.0.113.7', '2001:db8::1', ''];
  const modules = ['system', 'firewall', 'website', 'remote'] as const;
  const kinds = ['panel.action', 'module.switched', 'remote.brute_force', 'website.sql_injection'];
  return Array.from({ length: n }, (_, i) =>
    admin({
      time: T0 - (i % 97) * hour - Math.floor(i / 97) * day,
      module: modules[i % modules.length]!,
      level: i % 5 === 0 ? 'critical' : 'info',
      kind: kinds[(i * 7) % kinds.length]!,
      account: accounts[i % accounts.length]!,
      ip: ips[(i * 3) % ips.length]!,
      detail: details[i % details.length]!,
      params: i % 4 === 0 ? { path: '/etc/Passwd', note: '登录' } : { action: 'save_site', result: 'ok' },
    }),
  );
}

const keywords = [
  'oracle', 'ORACLE', 'SqlMap', 'wp-login.php', '/var/www/html/上传', '暴力破解', '登录失败', '管理员', '203.0.113', '0.0.1', '.0.1',
  '2001:db8', '100%', 'bob_9', 'b_9', 'passwd', '"path":"/etc', 'no such thing', '不存在的词', 'rule_id 942', 'ok"}',
];

describe('keyword search with the full-text index', () => {
  function seededDb(rows: number): { db: Db; path: string } {
    const { store, path } = openTemp({ mode: 'full', maxBatch: 100_000 });
    store.append(mixed(rows));
    store.close();
    return { db: raw(path), path };
  }

  it('gives exactly the rows of the LIKE scan on every path, with filters, kinds and paging', () => {
    const { db } = seededDb(1_500);
    const prepared = statementCache(db);
    const timeOf = (id: number) => {
      const row = db.prepare('SELECT time FROM events WHERE id = ?').get(id);
      return row ? num(row['time']) : null;
    };
    const scanSql = eventReader(db);
    const paths: Record<string, KeywordPath[]> = {};
    const searches = {
      // Tiny probe: common words still page by probe, rare ones by the index.
      index: keywordSearch(prepared, timeOf, { probeRows: 10, maxHits: 100_000 }),
      // Tiny probe and cap: every rare word falls to the scan.
      scan: keywordSearch(prepared, timeOf, { probeRows: 10, maxHits: 5 }),
    };
    const byDefault = keywordSearch(prepared, timeOf);
    const filters: Omit<EventQuery, 'keyword' | 'limit'>[] = [
      {}, { level: 'critical', from: T0 - 5 * day, module: 'website' }, { from: T0 - 3 * day, to: T0 - day, ip: '10.0.0.12' },
    ];
    let compared = 0;
    for (const text of keywords) {
      for (const kinds of [[], ['module.switched']]) {
        for (const params of [undefined, ['save_site']]) {
          for (const filter of filters) {
            const q: EventQuery = { ...filter, keyword: { text, kinds, ...(params ? { params } : {}) }, limit: 15 };
            const built = scanSql.querySql(q)!;
            const expected = (prepared(built.sql).all(...built.args) as Row[]).map((r) => r['id']);
            for (const [name, search] of Object.entries(searches)) {
              const found = search.run(q, true)!;
              (paths[name] ??= []).push(found.path);
              expect(found.rows.map((r) => r['id']), `${name} ${JSON.stringify(q)}`).toEqual(expected);
              // The next page, from the last row shown.
              const last = expected[q.limit - 1];
              if (last !== undefined) {
                const next = { ...q, before: Number(last) };
                const nextBuilt = scanSql.querySql(next)!;
                expect(search.run(next, true)!.rows.map((r) => r['id'])).toEqual((prepared(nextBuilt.sql).all(...nextBuilt.args) as Row[]).map((r) => r['id']));
              }
              compared++;
            }
          }
        }
      }
    }
    expect(compared).toBe(keywords.length * 2 * 2 * filters.length * 2);
    // Every path was really taken.
    expect(new Set(paths['index'])).toEqual(new Set(['probe', 'index']));
    expect(paths['scan']).toContain('scan');
    // Too short for the trigram index: the scan.
    expect(byDefault.run({ keyword: { text: '登录', kinds: [] }, limit: 5 }, true)!.path).toBe('scan');
    expect(searches.index.run({ keyword: { text: 'ok', kinds: [] }, limit: 5 }, true)!.path).not.toBe('index');
  });

  it('keeps the index in step with the flush, folding and retention (FTS5 integrity check)', () => {
    const { store, path } = openTemp({ mode: 'simple' });
    store.append(mixed(500));
    // Folded repeats update only `repeats`: the index is untouched.
    store.append(Array.from({ length: 50 }, () => ({ kind: 'panel.login_failed', module: 'system', level: 'warning', source: 'panel', ip: '203.0.113.99', time: T0 }) as EventInput));
    expect(store.query({ keyword: { text: '113.99', kinds: [] }, limit: 10 }).list).toHaveLength(1);
    store.purgeBefore(T0 - 2 * day);
    expect(store.query({ keyword: { text: 'oracle', kinds: [] }, limit: 1000 }).list.every((r) => r.time >= T0 - 2 * day)).toBe(true);
    store.close();
    const db = raw(path);
    const ids = (sql: string, ...args: string[]) => db.prepare(sql).all(...args).map((r) => Number(r['id']));
    const hits = ids('SELECT rowid AS id FROM events_fts WHERE events_fts MATCH ?', ftsMatch({ text: 'oracle', kinds: [] })!);
    const liked = ids("SELECT id FROM events WHERE detail LIKE '%oracle%'");
    expect(liked.length).toBeGreaterThan(10);
    // Every row the word is in, and no row that retention removed.
    expect(hits.filter((id) => liked.includes(id))).toEqual(liked);
    expect(ids('SELECT id FROM events WHERE id IN (SELECT value FROM json_each(?))', JSON.stringify(hits))).toEqual(hits);
    expect(() => db.exec("INSERT INTO events_fts (events_fts, rank) VALUES ('integrity-check', 1)")).not.toThrow();
  });
});

describe('back-fill of rows stored before the index', () => {
  it('indexes old rows in batches while writes and retention go on, and the search waits for it', () => {
    const path = tempPath();
    // The schema just before the keyword index's migration.
    const before = migrations.findIndex((step) => step.includes('CREATE VIRTUAL TABLE events_fts'));
    {
      const db = raw(path, migrations.slice(0, before));
      const insert = db.prepare('INSERT INTO events (time, kind, module, level, source, account, ip, params, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
      withTransaction(db, () => {
        for (const e of mixed(1_200)) insert.run(e.time!, e.kind, e.module, e.level, e.source, e.account ?? '', e.ip ?? '', JSON.stringify(e.params ?? {}), e.detail ?? '');
      });
      dbs.splice(dbs.indexOf(db), 1);
      db.close();
    }
    const { store } = openTemp({ mode: 'full', ftsBackfill: false }, path);
    const db = raw(path);
    const backfill = ftsBackfill(db);
    expect(backfill.pending()).toBe(1_200);
    const q: EventQuery = { keyword: { text: '暴力破解', kinds: [] }, limit: 1000 };
    const total = store.query(q).list.length;
    expect(total).toBeGreaterThan(100);
    // Until the index is whole the scan answers, so nothing is missing meanwhile.
    store.append(mixed(20).map((e) => ({ ...e, time: T0 + hour })));
    expect(backfill.step(500)).toBe(700);
    expect(store.query(q).list.length).toBe(total + 3);
    store.purgeBefore(T0 - 8 * day); // deletes rows on both sides of the watermark
    while (backfill.step(500) > 0);
    const after = store.query(q).list;
    const built = eventReader(db).querySql(q)!;
    expect(after.map((r) => r.id)).toEqual((db.prepare(built.sql).all(...built.args) as Row[]).map((r) => r['id']));
    expect(after.length).toBeGreaterThan(0);
    expect(() => db.exec("INSERT INTO events_fts (events_fts, rank) VALUES ('integrity-check', 1)")).not.toThrow();
  });
});
