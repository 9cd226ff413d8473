export { openSqlite, withTransaction, schemaVersion, type Db } from './open.ts';
