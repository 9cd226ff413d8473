/**
 * Stage 1, read: the file's bytes, bounded by the caller's size threshold. Never throws: a file that
 * is too big, not a regular file or unreadable comes back as the reason it was not scanned, so one
 * odd file never stops a tree scan. Memory per file is bounded by the threshold. The path is an
 * encoded string (path-bytes.ts): opened by its bytes, so a name that is not UTF-8 is read too.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { WebshellUnscannedReason } from '@rampart/contracts';
import { bytesOfPath } from './path-bytes.ts';

export interface ReadOk { ok: true; bytes: Buffer; size: number; mtimeMs: number }
export interface ReadSkipped { ok: false; reason: WebshellUnscannedReason; size: number; mtimeMs: number; detail: string }
export type ReadResult = ReadOk | ReadSkipped;

export async function readBounded(path: string, sizeLimitKb: number): Promise<ReadResult> {
  const limit = sizeLimitKb * 1024;
  let handle;
  try {
    // O_NOFOLLOW is not used: the walker already refuses symlinks; a caller scanning one named file
    // means that file, wherever its link points.
    handle = await open(bytesOfPath(path), 'r');
  } catch (error) {
    return { ok: false, reason: 'unscanned_unreadable', size: 0, mtimeMs: 0, detail: String((error as Error).message) };
  }
  try {
    const stat = await handle.stat();
    const base = { size: stat.size, mtimeMs: stat.mtimeMs };
    if (!stat.isFile()) return { ok: false, reason: 'unscanned_not_regular', detail: 'not a regular file', ...base };
    if (stat.size > limit) return { ok: false, reason: 'unscanned_too_big', detail: `${stat.size} > ${limit} bytes`, ...base };
    // Read at most limit + 1 bytes: a file that grew after the stat is still bounded and still skipped.
    const buffer = Buffer.allocUnsafe(Math.min(stat.size, limit) + 1);
    let filled = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled === buffer.length) break;
    }
    if (filled > limit) return { ok: false, reason: 'unscanned_too_big', detail: `grew past ${limit} bytes while read`, ...base };
    return { ok: true, bytes: buffer.subarray(0, filled), ...base };
  } catch (error) {
    return { ok: false, reason: 'unscanned_unreadable', size: 0, mtimeMs: 0, detail: String((error as Error).message) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * The same bounds, synchronous: what a scan worker uses. A worker thread does nothing else while
 * it reads, and the async path costs a thread-pool round trip per open, stat, read and close.
 */
export function readBoundedSync(path: string, sizeLimitKb: number): ReadResult {
  const limit = sizeLimitKb * 1024;
  let fd: number;
  try {
    fd = openSync(bytesOfPath(path), 'r');
  } catch (error) {
    return { ok: false, reason: 'unscanned_unreadable', size: 0, mtimeMs: 0, detail: String((error as Error).message) };
  }
  try {
    const stat = fstatSync(fd);
    const base = { size: stat.size, mtimeMs: stat.mtimeMs };
    if (!stat.isFile()) return { ok: false, reason: 'unscanned_not_regular', detail: 'not a regular file', ...base };
    if (stat.size > limit) return { ok: false, reason: 'unscanned_too_big', detail: `${stat.size} > ${limit} bytes`, ...base };
    const buffer = Buffer.allocUnsafe(Math.min(stat.size, limit) + 1);
    let filled = 0;
    for (;;) {
      const bytesRead = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled === buffer.length) break;
    }
    if (filled > limit) return { ok: false, reason: 'unscanned_too_big', detail: `grew past ${limit} bytes while read`, ...base };
    return { ok: true, bytes: buffer.subarray(0, filled), ...base };
  } catch (error) {
    return { ok: false, reason: 'unscanned_unreadable', size: 0, mtimeMs: 0, detail: String((error as Error).message) };
  } finally {
    try { closeSync(fd); } catch { /* already closed */ }
  }
}
