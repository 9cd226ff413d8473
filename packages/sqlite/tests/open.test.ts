import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, schemaVersion, withTransaction } from '../src/index.ts';

let dir: string;
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'rampart-sqlite-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const v1 = 'CREATE TABLE a (x INTEGER);';
const v2 = 'ALTER TABLE a ADD COLUMN y TEXT;';

describe('openSqlite', () => {
  it('creates the folder, uses WAL and applies migrations once, in order', () => {
    const path = join(dir, 'nested', 'x.db');
    let db = openSqlite(path, [v1], 'test');
    expect(schemaVersion(db)).toBe(1);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    db.prepare('INSERT INTO a (x) VALUES (1)').run();
    db.close();
    db = openSqlite(path, [v1, v2], 'test');
    expect(schemaVersion(db)).toBe(2);
    expect(db.prepare('SELECT x, y FROM a').all()).toEqual([{ x: 1, y: null }]);
    db.close();
  });

  it('refuses a database newer than the program', () => {
    openSqlite(join(dir, 'x.db'), [v1, v2], 'test').close();
    expect(() => openSqlite(join(dir, 'x.db'), [v1], 'test')).toThrow(/newer than this program/);
  });

  it('leaves the schema as it was when a migration fails', () => {
    openSqlite(join(dir, 'x.db'), [v1], 'test').close();
    expect(() => openSqlite(join(dir, 'x.db'), [v1, 'ALTER TABLE nope ADD COLUMN z;'], 'test')).toThrow(/test database migration 2 failed/);
    const db = openSqlite(join(dir, 'x.db'), [v1], 'test');
    expect(schemaVersion(db)).toBe(1);
    db.close();
  });

  it('rolls a transaction back when its body throws', () => {
    const db = openSqlite(join(dir, 'x.db'), [v1], 'test');
    expect(() => withTransaction(db, () => {
      db.prepare('INSERT INTO a (x) VALUES (1)').run();
      throw new Error('stop');
    })).toThrow('stop');
    expect(db.prepare('SELECT COUNT(*) AS n FROM a').get()).toEqual({ n: 0 });
    db.close();
  });
});
