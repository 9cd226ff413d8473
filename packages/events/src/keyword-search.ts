import type { EventQuery } from '@rampart/contracts';
import type { StatementSync } from 'node:sqlite';
import { eventColumns } from './event-rows.ts';
import { filterWhere, keywordCond } from './event-filter.ts';
import { ftsMatch } from './fts.ts';
import { addOlderThan, num, whereSql, type Row, type Where } from './sql.ts';

/**
 * How a keyword page is found, fastest first; every path tests rows with the same LIKE condition,
 * so all give the rows the plain scan gives:
 * 1. `probe`: the newest `probeRows` rows of the other filters, tested one by one: enough when
 *    matches are common (a frequent word, a common kind).
 * 2. `index`: when the full-text index proposes at most `maxHits` candidate rows: those rows,
 *    filtered and sorted (cost follows the number of matches, not of rows).
 * 3. `scan`: the whole filtered range, newest first (a keyword too short for the index, the index
 *    still being back-filled, or a word common overall but rare under the other filters).
 */
export type KeywordPath = 'probe' | 'index' | 'scan';

// At 10 M rows a word in more than 50 000 of them (0.5 %) shows 21 times in about 4 200 rows:
// the probe and the index between them cover every density of a word spread over time.
const defaultProbeRows = 5_000;
const defaultMaxHits = 50_000;

export interface KeywordSearch {
  /** Rows of the page (up to limit + 1) and the path that found them; null when the `before` row is gone. */
  run(q: EventQuery, indexReady: boolean): { rows: Row[]; path: KeywordPath } | null;
}

/** The probe's size and the index's candidate cap (smaller in tests, to reach every path on little data). */
export interface KeywordLimits {
  probeRows: number;
  maxHits: number;
}

export function keywordSearch(
  prepared: (sql: string) => StatementSync,
  timeOf: (id: number) => number | null,
  { probeRows, maxHits }: KeywordLimits = { probeRows: defaultProbeRows, maxHits: defaultMaxHits },
): KeywordSearch {
  return {
    run(q, indexReady) {
      const keyword = q.keyword;
      if (!keyword) throw new Error('keywordSearch needs a keyword');
      const base = filterWhere(q, false);
      if (q.before !== undefined) {
        const time = timeOf(q.before);
        // The previous page's last row is gone (purged): so is everything older than it.
        if (time === null) return null;
        addOlderThan(base, time, q.before);
      }
      const cond = keywordCond(keyword);
      const order = 'ORDER BY time DESC, id DESC';
      const want = q.limit + 1;
      const all = (sql: string, args: Where['args']) => prepared(sql).all(...args) as Row[];

      const match = indexReady ? ftsMatch(keyword) : null;
      if (match !== null) {
        const probe = all(
          `SELECT * FROM (SELECT ${eventColumns} FROM events ${whereSql(base)} ${order} LIMIT ${probeRows}) WHERE ${cond.sql} ${order} LIMIT ?`,
          [...base.args, ...cond.args, want],
        );
        if (probe.length === want) return { rows: probe, path: 'probe' };
        // The probe saw the whole filtered range: its answer is complete.
        const seen = num(all(`SELECT count(*) AS n FROM (SELECT 1 FROM events ${whereSql(base)} LIMIT ${probeRows})`, base.args)[0]?.['n']);
        if (seen < probeRows) return { rows: probe, path: 'probe' };

        // The candidates are read once (not counted and then read again): the index's work is the cost.
        const hits = all(`SELECT rowid AS hid FROM events_fts WHERE events_fts MATCH ? LIMIT ${maxHits + 1}`, [match]);
        if (hits.length <= maxHits) {
          const where = whereSql({ conds: [...base.conds, cond.sql], args: [] });
          const rows = all(
            `WITH hits(hid) AS (SELECT value FROM json_each(?)) SELECT ${eventColumns} FROM hits CROSS JOIN events ON events.id = hits.hid ${where} ${order} LIMIT ?`,
            [JSON.stringify(hits.map((h) => num(h['hid']))), ...base.args, ...cond.args, want],
          );
          return { rows, path: 'index' };
        }
      }
      const where = whereSql({ conds: [...base.conds, cond.sql], args: [] });
      return { rows: all(`SELECT ${eventColumns} FROM events ${where} ${order} LIMIT ?`, [...base.args, ...cond.args, want]), path: 'scan' };
    },
  };
}
