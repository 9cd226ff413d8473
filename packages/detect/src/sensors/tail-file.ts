import { watch, type FSWatcher } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { LineSplitter } from './line-splitter.ts';

/** Where a tail stands: save it, and pass it back as `resume` after a restart to read on from there. */
export interface TailPosition {
  path: string;
  inode: number;
  dev: number;
  /** Bytes up to the end of the last whole line handed out. */
  offset: number;
}

export interface TailOptions {
  /** A position saved earlier. Used when the file is still the same one (inode) and not shorter. */
  resume?: TailPosition;
  /** With no usable resume position: read what the file already holds instead of starting at its end. */
  fromStart?: boolean;
  /** fs.watch misses events on some file systems (NFS, overlay, some containers): look this often anyway. */
  pollMs?: number;
  /** false: rely on polling alone (where inotify is unavailable or exhausted). */
  watch?: boolean;
  maxLineBytes?: number;
  /** Errors reading the file and errors thrown by `onLine`. Defaults to console.error. */
  onError?: (error: unknown) => void;
}

export interface TailStats {
  lines: number;
  rotations: number;
  truncations: number;
  overlong: number;
}

export interface TailHandle {
  /** Settles once the file's state at start is known (and anything to read from it is read). */
  ready: Promise<void>;
  position(): TailPosition | undefined;
  stats(): TailStats;
  close(): Promise<void>;
}

const chunkBytes = 64 * 1024;

async function statOrNothing(file: string) {
  try {
    return await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Follows a growing log file line by line, the way logrotate leaves it:
 * - rename rotation (`auth.log` → `auth.log.1`, new `auth.log`): the rest of the old file is read
 *   through the handle still open on it, then the new file from its start;
 * - copytruncate (the file shrinks under us): read again from the start;
 * - a file that does not exist yet: picked up, from its start, when it appears;
 * - an unfinished last line: held until its newline arrives.
 * Starts at the end of the file (a log's past is not news) unless told otherwise.
 * Known gap: a copytruncate that is refilled past the old size between two looks is not noticed.
 */
export function tailFile(file: string, onLine: (line: string) => void, options: TailOptions = {}): TailHandle {
  const onError = options.onError ?? ((error: unknown) => console.error(`tail ${file}:`, error));
  const splitter = new LineSplitter(options.maxLineBytes);
  const counts: TailStats = { lines: 0, rotations: 0, truncations: 0, overlong: 0 };
  let handle: FileHandle | undefined;
  let inode = 0;
  let dev = 0;
  let offset = 0;
  let closed = false;
  // Watch events before the start position is settled must not open the file at 0.
  let started = false;
  let running: Promise<void> | undefined;
  let again = false;

  const emit = (line: string) => {
    counts.lines++;
    try {
      onLine(line);
    } catch (error) {
      onError(error);
    }
  };

  const readToEnd = async (fh: FileHandle) => {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const { bytesRead } = await fh.read(buffer, 0, chunkBytes, offset);
      if (bytesRead === 0 || closed) return;
      offset += bytesRead;
      for (const line of splitter.push(buffer.subarray(0, bytesRead))) emit(line);
    }
  };

  // "The end" is the end of the last whole line: a line being written as we start is read whole.
  const endOfLastLine = async (fh: FileHandle, size: number): Promise<number> => {
    const length = Math.min(size, chunkBytes);
    const buffer = Buffer.alloc(length);
    await fh.read(buffer, 0, length, size - length);
    const newline = buffer.lastIndexOf(0x0a);
    // No newline at all: the file is one line in the making (or one too long to keep anyway).
    if (newline < 0) return length === size ? 0 : size;
    return size - length + newline + 1;
  };

  /** Opens the file at `start`, or at its end for -1. */
  const openAt = async (start: number) => {
    const fh = await open(file, 'r');
    const s = await fh.stat();
    handle = fh;
    inode = s.ino;
    dev = s.dev;
    offset = start === -1 ? await endOfLastLine(fh, s.size) : Math.min(start, s.size);
    splitter.reset();
  };

  const step = async () => {
    const current = await statOrNothing(file);
    if (handle) {
      if (!current || current.ino !== inode || current.dev !== dev) {
        // Renamed away or deleted: what was written to it before the switch is still ours.
        const old = handle;
        await readToEnd(old);
        const last = splitter.flush();
        if (last !== undefined) emit(last);
        handle = undefined;
        await old.close();
        counts.rotations++;
        if (!current) return;
        await openAt(0);
      } else if (current.size < offset) {
        counts.truncations++;
        offset = 0;
        splitter.reset();
      }
    } else if (current) {
      await openAt(0);
    }
    if (handle) await readToEnd(handle);
  };

  // One look at a time; a request during a look asks for one more after it.
  const check = (): Promise<void> => {
    if (closed || !started) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await step();
        } catch (error) {
          if (!closed) onError(error);
        }
      } while (again && !closed);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const start = async () => {
    const current = await statOrNothing(file);
    if (current) {
      const r = options.resume;
      const resumable = r && r.inode === current.ino && r.dev === current.dev && r.offset <= current.size;
      // A saved position for another file means it was rotated while we were away: all of this one is new.
      await openAt(resumable ? r.offset : r || options.fromStart ? 0 : -1);
    }
    started = true;
    await check();
  };

  let watcher: FSWatcher | undefined;
  const base = path.basename(file);
  try {
    if (options.watch !== false) {
      watcher = watch(path.dirname(file), (_event, name) => {
        if (name === null || name === base) void check();
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined;
      });
    }
  } catch {
    // No directory yet, or no inotify: the interval alone will do.
  }
  const timer = setInterval(() => void check(), options.pollMs ?? 1000);

  const ready = start().catch((error: unknown) => onError(error));

  return {
    ready,
    position: () => (handle ? { path: file, inode, dev, offset: offset - splitter.pendingBytes } : undefined),
    stats: () => ({ ...counts, overlong: splitter.overlong }),
    async close() {
      closed = true;
      clearInterval(timer);
      watcher?.close();
      await ready;
      await running;
      await handle?.close();
      handle = undefined;
    },
  };
}
