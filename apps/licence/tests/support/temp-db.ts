import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openLicenceDb, type LicenceDb } from '../../src/index.ts';

/** A fresh directory under the system temp dir, removed by the returned cleanup. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-licence-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A licence database in a file of its own. */
export function tempDb(): { db: LicenceDb; path: string; cleanup: () => void } {
  const { dir, cleanup } = tempDir();
  const path = join(dir, 'licence.db');
  const db = openLicenceDb(path);
  return {
    db,
    path,
    cleanup: () => {
      if (db.isOpen) db.close();
      cleanup();
    },
  };
}

/** A valid random device ID (32 lower-case hex digits). */
export function deviceId(): string {
  return randomBytes(16).toString('hex');
}
