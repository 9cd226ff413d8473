import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { bytesOfPath } from '@rampart/webshell';

export type FileCheck = { ok: true } | { ok: false; key: 'trojan_file_gone' | 'trojan_file_changed' };

/** The file's SHA-256, read as a stream (a large file never sits in memory whole). Paths here are
 * @rampart/webshell's encoded strings: opened by their bytes, so a non-UTF-8 name works too. */
export function sha256OfFile(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(bytesOfPath(path)).on('error', reject).on('data', (chunk) => hash.update(chunk)).on('end', () => resolve(hash.digest('hex')));
  });
}

/**
 * Before a file is acted on: it is still there, a regular file, and the same bytes as when it was
 * scanned (`sha256` empty: an unscanned file, nothing to compare).
 */
export async function checkSameFile(path: string, sha256: string): Promise<FileCheck> {
  try {
    if (!(await lstat(bytesOfPath(path))).isFile()) return { ok: false, key: 'trojan_file_gone' };
  } catch {
    return { ok: false, key: 'trojan_file_gone' };
  }
  if (!sha256) return { ok: true };
  try {
    return (await sha256OfFile(path)) === sha256 ? { ok: true } : { ok: false, key: 'trojan_file_changed' };
  } catch {
    return { ok: false, key: 'trojan_file_gone' };
  }
}
