import type { RangeTable } from './range-table.ts';
import { readCachedTable, writeCachedTable } from './table-cache.ts';

export interface TableLoad {
  table: RangeTable;
  source: string;
  /** Where the table came from: the binary cache, or a parse of the source file. */
  from: 'cache' | 'source';
  /** For a parse with a cacheDir: whether the cache file could be written. */
  cacheWritten: boolean | null;
  ms: number;
}

/** Loads one source through the cache in `cacheDir` when given, else by parsing it. */
export function loadTable(kind: string, source: string, parse: (path: string) => RangeTable, cacheDir?: string): TableLoad {
  const began = performance.now();
  const key = { kind, source };
  const cached = cacheDir === undefined ? null : readCachedTable(cacheDir, key);
  if (cached) return { table: cached, source, from: 'cache', cacheWritten: null, ms: performance.now() - began };
  const table = parse(source);
  const cacheWritten = cacheDir === undefined ? null : writeCachedTable(cacheDir, key, table);
  return { table, source, from: 'source', cacheWritten, ms: performance.now() - began };
}
