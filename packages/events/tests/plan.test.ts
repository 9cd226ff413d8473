import { afterEach, describe, expect, it } from 'vitest';
import type { EventQuery } from '@rampart/contracts';
import { openSqlite, type Db } from '@rampart/sqlite';
import { eventReader } from '../src/event-query.ts';
import { migrations } from '../src/migrations.ts';
import { T0, tempPath } from './helpers.ts';

let db: Db | null = null;
afterEach(() => {
  db?.close();
  db = null;
});

/** EXPLAIN QUERY PLAN of the SQL that `query(q)` runs. */
function plan(q: EventQuery): string {
  db ??= openSqlite(tempPath(), migrations, 'test');
  db.prepare('INSERT INTO events (time, kind, module, level, source, account, ip, params, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(T0, 'panel.action', 'system', 'info', 'panel', '', '1.1.1.1', '{}', '');
  const built = eventReader(db).querySql(q);
  if (!built) throw new Error('no SQL');
  return db.prepare(`EXPLAIN QUERY PLAN ${built.sql}`).all(...built.args).map((row) => String(row['detail'])).join(' | ');
}

const day = 86_400_000;
const from = T0 - 7 * day;
const shapes: [string, EventQuery, RegExp][] = [
  ['no filter', { limit: 20 }, /events USING INDEX events_time\b/],
  ['period', { from, to: T0, limit: 20 }, /SEARCH events USING INDEX events_time \(time>\? AND time<\?\)/],
  ['module', { from, module: 'firewall', limit: 20 }, /SEARCH events USING INDEX events_module_time \(module=\? AND time>\?\)/],
  ['level', { from, level: 'critical', limit: 20 }, /SEARCH events USING INDEX events_level_time \(level=\? AND time>\?\)/],
  ['ip', { from, ip: '1.1.1.1', limit: 20 }, /SEARCH events USING INDEX events_ip_time \(ip=\? AND time>\?\)/],
  ['module + level', { from, module: 'firewall', level: 'critical', limit: 20 }, /SEARCH events USING INDEX events_(module|level)_time/],
  ['ip + module + level', { from, ip: '1.1.1.1', module: 'firewall', level: 'info', limit: 20 }, /SEARCH events USING INDEX events_ip_time/],
  ['keyword', { from, keyword: { text: 'root', kinds: ['panel.login_failed'] }, limit: 20 }, /SEARCH events USING INDEX events_time \(time>\?\)/],
  ['module + keyword', { from, module: 'website', keyword: { text: 'root', kinds: [] }, limit: 20 }, /SEARCH events USING INDEX events_module_time/],
  ['deep page', { from, module: 'firewall', before: 1, limit: 20 }, /SEARCH events USING INDEX events_module_time \(module=\? AND time>\? AND time<\?\)/],
];

describe('query plans', () => {
  it.each(shapes)('%s uses an index and needs no sort', (_name, q, expected) => {
    const detail = plan(q);
    expect(detail).toMatch(expected);
    expect(detail).not.toMatch(/TEMP B-TREE/);
    expect(detail).not.toMatch(/SCAN events(?! USING)/);
  });
});
