import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { endianness } from 'node:os';
import { join, resolve } from 'node:path';
import type { RangeTable } from './range-table.ts';

/**
 * A range table saved as its raw typed arrays, so a start reads it back in milliseconds instead of
 * re-parsing tens of MB of CSV. One file per source, named after the source's path, size and
 * mtime: a changed source simply misses, and the stale file is removed when the new one is written.
 *
 * File: MAGIC, then uint32 header length, JSON header { key, width, rows, labels }, zero padding
 * to 4 bytes, starts, ends (Uint32, native byte order), labelIndex (Uint16).
 */
const MAGIC = Buffer.from('RAMPGEO1');
const FORMAT = 1;

export interface CacheKey {
  /** File name prefix, e.g. 'country-v4'; stale files with the same prefix are swept. */
  kind: string;
  source: string;
}

function keyText(key: CacheKey): string {
  const path = resolve(key.source);
  const stat = statSync(path);
  return JSON.stringify([FORMAT, endianness(), path, stat.size, stat.mtimeMs]);
}

function fileName(key: CacheKey, text: string): string {
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 20);
  return `${key.kind}-${hash}.bin`;
}

interface Header {
  key: string;
  width: 1 | 4;
  rows: number;
  labels: string[];
}

/** The cached table for this source as it is now, or null (missing, stale or unreadable). */
export function readCachedTable(dir: string, key: CacheKey): RangeTable | null {
  const text = keyText(key);
  let file: Buffer;
  try {
    file = readFileSync(join(dir, fileName(key, text)));
  } catch {
    return null;
  }
  try {
    if (!file.subarray(0, MAGIC.length).equals(MAGIC)) return null;
    const headerLength = file.readUInt32LE(MAGIC.length);
    const headerStart = MAGIC.length + 4;
    const header = JSON.parse(file.toString('utf8', headerStart, headerStart + headerLength)) as Header;
    if (header.key !== text || (header.width !== 1 && header.width !== 4)) return null;
    const words = header.rows * header.width;
    let at = align4(headerStart + headerLength);
    const expected = at + words * 8 + header.rows * 2;
    if (file.length !== expected) return null;
    const starts = copyUint32(file, at, words);
    at += words * 4;
    const ends = copyUint32(file, at, words);
    at += words * 4;
    const labelIndex = new Uint16Array(header.rows);
    new Uint8Array(labelIndex.buffer).set(file.subarray(at, at + header.rows * 2));
    return { width: header.width, rows: header.rows, starts, ends, labelIndex, labels: header.labels };
  } catch {
    return null;
  }
}

/** Saves the table; best effort: a read-only or full disk only costs the next start a re-parse. */
export function writeCachedTable(dir: string, key: CacheKey, table: RangeTable): boolean {
  try {
    const text = keyText(key);
    const name = fileName(key, text);
    const header: Header = { key: text, width: table.width, rows: table.rows, labels: table.labels };
    const headerBytes = Buffer.from(JSON.stringify(header));
    const start = MAGIC.length + 4;
    const headerEnd = align4(start + headerBytes.length);
    const prefix = Buffer.alloc(headerEnd);
    MAGIC.copy(prefix, 0);
    prefix.writeUInt32LE(headerBytes.length, MAGIC.length);
    headerBytes.copy(prefix, start);
    const bytes = (view: ArrayBufferView) => Buffer.from(view.buffer, view.byteOffset, view.byteLength);
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    const temp = join(dir, `.${name}.${process.pid}.tmp`);
    writeFileSync(temp, Buffer.concat([prefix, bytes(table.starts), bytes(table.ends), bytes(table.labelIndex)]), { mode: 0o644 });
    renameSync(temp, join(dir, name)); // atomic: a reader sees the old file or the whole new one
    sweepStale(dir, key.kind, name);
    return true;
  } catch {
    return false;
  }
}

function sweepStale(dir: string, kind: string, keep: string): void {
  for (const entry of readdirSync(dir)) {
    if (entry !== keep && entry.startsWith(`${kind}-`) && entry.endsWith('.bin')) rmSync(join(dir, entry), { force: true });
  }
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

/** Copies out of the file buffer: its offset need not be 4-aligned, and we keep no view into it. */
function copyUint32(file: Buffer, at: number, length: number): Uint32Array {
  const out = new Uint32Array(length);
  new Uint8Array(out.buffer).set(file.subarray(at, at + length * 4));
  return out;
}
