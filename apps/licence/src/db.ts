import { openSqlite, withTransaction, type Db } from '@rampart/sqlite';
import { migrations } from './migrations.ts';

export type LicenceDb = Db;
export { withTransaction };

/** Opens (creating if needed) the licence database at `path` and brings its schema up to date. */
export function openLicenceDb(path: string): LicenceDb {
  return openSqlite(path, migrations, 'licence');
}
