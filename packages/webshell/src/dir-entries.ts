/**
 * A directory's entries as encoded path strings (path-bytes.ts): names are read as bytes, so a name
 * that is not valid UTF-8 still names its file. Streamed (opendir), so a huge folder is never one
 * array; throws only when the folder cannot be opened, the caller's to decide.
 */
import { opendir } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { bytesOfPath, pathFromBytes } from './path-bytes.ts';

export interface DirEntry {
  /** The full path, encoded. */
  path: string;
  isDirectory: boolean;
  isFile: boolean;
}

export async function openDirEntries(dir: string): Promise<AsyncGenerator<DirEntry>> {
  // The types give Dir string names; with encoding 'buffer' (supported at run time) they are Buffers.
  const handle = await opendir(bytesOfPath(dir), { encoding: 'buffer' as BufferEncoding });
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  return (async function* entries(): AsyncGenerator<DirEntry> {
    for await (const entry of handle as AsyncIterable<Dirent<string> | Dirent<Buffer>>) {
      const name = typeof entry.name === 'string' ? entry.name : pathFromBytes(entry.name);
      yield { path: prefix + name, isDirectory: entry.isDirectory(), isFile: entry.isFile() };
    }
  })();
}
