import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable, Transform, pipeline } from 'node:stream';
import { BackupError, errorMessage } from './errors.ts';

export interface LocalArchive {
  path: string;
  /** The remote file name. */
  name: string;
  /** Fixed when the upload starts: this many bytes are sent and expected on the server. */
  size: number;
}

export async function statArchive(path: string): Promise<LocalArchive> {
  let size: number;
  try {
    const stats = await stat(path);
    if (!stats.isFile()) throw new Error('not a regular file');
    size = stats.size;
  } catch (err) {
    throw new BackupError('local', `Reading the local archive ${path} failed: ${errorMessage(err)}`, { cause: err });
  }
  return { path, name: basename(path), size };
}

export interface ArchiveStream {
  stream: Readable;
  /** Hex MD5 of what the stream delivered, once it has ended. */
  md5(): string;
}

/**
 * Exactly `archive.size` bytes, even if the file grew since it was measured, hashed on the way
 * (S3 compares the hash with the ETag) and reporting each chunk, which keeps the step timer alive.
 */
export function readArchive(archive: LocalArchive, onProgress: () => void): ArchiveStream {
  const hash = createHash('md5');
  const source = archive.size > 0 ? createReadStream(archive.path, { start: 0, end: archive.size - 1 }) : Readable.from([]);
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      onProgress();
      callback(null, chunk);
    },
  });
  // pipeline destroys `counter` with the read error, so the consumer sees it; nothing to do here.
  pipeline(source, counter, () => {});
  let digest: string | undefined;
  return { stream: counter, md5: () => (digest ??= hash.digest('hex')) };
}
