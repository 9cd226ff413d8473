import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Writes a gzip archive of about `size` bytes (random content does not compress) and returns its path and bytes. */
export function writeArchive(dir: string, name: string, size: number): { path: string; bytes: Buffer } {
  const bytes = gzipSync(randomBytes(size));
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { path, bytes };
}
