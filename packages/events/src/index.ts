export { openEventStore, type EventStore, type EventStoreOptions, type ExportFilter } from './store.ts';
export type { LogMode } from './event-writer.ts';
export type { EventFilter } from './event-query.ts';
export type { NoticeList } from './notices.ts';
export { migrations as eventStoreMigrations } from './migrations.ts';
export type { RollupReader } from './rollup-query.ts';
export type { AreaOf } from './rollups.ts';
