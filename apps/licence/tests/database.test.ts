import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { licenceCodeAlphabet, licenceCodePattern } from '@rampart/contracts';
import { ensureTrialLicence, findLicence, issueLicence, listLicences, openLicenceDb } from '../src/index.ts';
import { tempDb, tempDir } from './support/temp-db.ts';
import { nodeBin, repoRoot } from './support/processes.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});
function fresh(): ReturnType<typeof tempDb> {
  const t = tempDb();
  cleanups.push(t.cleanup);
  return t;
}

describe('openLicenceDb', () => {
  it('creates the folder, migrates to the latest version and uses WAL', () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'nested', 'deeper', 'licence.db');
    const db = openLicenceDb(path);
    cleanups.push(() => db.close());
    expect(existsSync(path)).toBe(true);
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 1 });
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((r) => r['name']);
    expect(tables).toEqual(['activation_log', 'licences', 'meta']);
  });

  it('reopens an existing database without re-running migrations or losing data', () => {
    const { db, path } = fresh();
    const { code } = issueLicence(db, { days: 1, transfers: 0 });
    db.close();
    const again = openLicenceDb(path);
    cleanups.push(() => again.close());
    expect(findLicence(again, code)?.code).toBe(code);
  });

  it('waits for another process that holds a fresh file instead of failing (two processes starting at once)', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'licence.db');
    const holder = new DatabaseSync(path);
    cleanups.push(() => holder.close());
    holder.exec('BEGIN IMMEDIATE; CREATE TABLE held (x)');

    const script = `import { openLicenceDb } from ${JSON.stringify(join(repoRoot, 'apps/licence/src/index.ts'))};
      openLicenceDb(process.argv[1]).close();`;
    const child = spawn(nodeBin, ['--input-type=module', '-e', script, path], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = once(child, 'close');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(child.exitCode, stderr).toBeNull();
    holder.exec('COMMIT');

    const [code] = await closed;
    expect(code, stderr).toBe(0);
    const check = new DatabaseSync(path);
    cleanups.push(() => check.close());
    expect(check.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: 1 });
  });

  it('refuses a database written by a newer schema', () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'future.db');
    const raw = new DatabaseSync(path);
    raw.exec('PRAGMA user_version = 99');
    raw.close();
    expect(() => openLicenceDb(path)).toThrow(/schema version 99 is newer/);
  });
});

describe('issueLicence', () => {
  it('issues an unbound AAA-BBB code from the unambiguous alphabet', () => {
    const { db } = fresh();
    const issued = issueLicence(db, { days: 30, transfers: 2, now: 1_000 });
    expect(issued.code).toMatch(licenceCodePattern);
    for (const ch of issued.code.replace('-', '')) expect(licenceCodeAlphabet).toContain(ch);
    expect(issued.product_id).toMatch(/^RP-[0-9A-F]{12}$/);
    expect(issued.expires_at).toBe(1_000 + 30 * 86_400_000);
    expect(findLicence(db, issued.code)).toEqual({
      code: issued.code,
      product_id: issued.product_id,
      created_at: 1_000,
      expires_at: issued.expires_at,
      transfers_total: 2,
      transfers_left: 2,
      device_id: null,
      activated_at: null,
      moved_at: null,
    });
  });

  it('days 0 expires at the moment of issue', () => {
    const { db } = fresh();
    expect(issueLicence(db, { days: 0, transfers: 0, now: 5_000 }).expires_at).toBe(5_000);
  });

  it('draws again when a code is already taken', () => {
    const { db } = fresh();
    const draws = ['AAA-AAA', 'AAA-AAA', 'bbb-bbb'];
    const first = issueLicence(db, { days: 1, transfers: 0, drawCode: () => draws.shift() ?? 'ZZZ-ZZZ' });
    const second = issueLicence(db, { days: 1, transfers: 0, drawCode: () => draws.shift() ?? 'ZZZ-ZZZ' });
    expect([first.code, second.code]).toEqual(['AAA-AAA', 'BBB-BBB']);
    expect(listLicences(db).map((l) => l.code)).toEqual(['AAA-AAA', 'BBB-BBB']);
  });

  it('gives up with a clear error when every draw collides', () => {
    const { db } = fresh();
    issueLicence(db, { days: 1, transfers: 0, drawCode: () => 'CCC-CCC' });
    expect(() => issueLicence(db, { days: 1, transfers: 0, drawCode: () => 'CCC-CCC' })).toThrow(/could not find a free licence code/);
  });

  it.each([
    { days: -1, transfers: 0, message: /days must be a whole number/ },
    { days: 1.5, transfers: 0, message: /days must be a whole number/ },
    { days: Number.NaN, transfers: 0, message: /days must be a whole number/ },
    { days: 1e9, transfers: 0, message: /days must be a whole number/ },
    { days: 1, transfers: -1, message: /transfers must be a whole number/ },
    { days: 1, transfers: 0.5, message: /transfers must be a whole number/ },
  ])('rejects days=$days transfers=$transfers', ({ days, transfers, message }) => {
    const { db } = fresh();
    expect(() => issueLicence(db, { days, transfers })).toThrow(message);
    expect(listLicences(db)).toEqual([]);
  });
});

describe('ensureTrialLicence', () => {
  it('issues a trial code once and returns the same code afterwards, also after reopening', () => {
    const { db, path } = fresh();
    const first = ensureTrialLicence(db, { now: 0 });
    expect(first.created).toBe(true);
    expect(first.code).toMatch(licenceCodePattern);
    const licence = findLicence(db, first.code);
    expect(licence?.expires_at).toBe(30 * 86_400_000);
    expect(licence?.transfers_total).toBe(1);

    expect(ensureTrialLicence(db)).toEqual({ code: first.code, created: false });
    db.close();
    const again = openLicenceDb(path);
    cleanups.push(() => again.close());
    expect(ensureTrialLicence(again)).toEqual({ code: first.code, created: false });
    expect(listLicences(again)).toHaveLength(1);
  });

  it('honours custom days and transfers', () => {
    const { db } = fresh();
    const { code } = ensureTrialLicence(db, { days: 7, transfers: 3, now: 0 });
    expect(findLicence(db, code)).toMatchObject({ expires_at: 7 * 86_400_000, transfers_total: 3, transfers_left: 3 });
  });
});
