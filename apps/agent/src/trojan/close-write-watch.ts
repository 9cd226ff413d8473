import { spawn, type ChildProcess } from 'node:child_process';
import { lstat, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { bytesOfPath, openDirEntries, pathFromBytes } from '@rampart/webshell';
import { watchRefusal, writeWatchList } from './watch-list.ts';

/*
 * The real-time half of trojan protection: reports every file closed after writing (IN_CLOSE_WRITE)
 * or moved in (IN_MOVED_TO) anywhere under a set of directories, recursively, so the trojan service
 * can scan it within the spec's second.
 *
 * One `inotifywait` child (Debian's inotify-tools, 3.22) watches every directory:
 *   inotifywait -m -r -e close_write -e moved_to -e create --format '%e|%w%f%0' --no-newline --fromfile <list>
 * - `%0` with `--no-newline` makes every record end with a NUL: file names may hold newlines, spaces
 *   or `|` (the event list never does, so the first `|` splits a record). Verified on 3.22.6.
 * - `-r` adds a watch on every directory created or moved in while it runs (verified: a file written
 *   in a folder made after the start is reported). A folder that arrives with files already in it
 *   (`mv` of an unpacked tree, `mkdir -p a/b && cp ...` racing the new watch) is walked here and its
 *   files reported, because their writes were never seen: that is why `create` is watched
 *   (directories only; file creates are ignored, their close follows).
 * - inotifywait flushes each record on a pipe: a close is reported in a few milliseconds.
 * - The folders go in a root-only list file (watch-list.ts), one per line as raw bytes: a folder whose
 *   own name is not UTF-8 is watched too. A path holding a newline cannot be a line: it is left out.
 *
 * Restarts:
 * - update() starts the new child first and only stops the old one once the new one has its watches
 *   established, ignoring the old one's records from then on: no gap (a file closed in the instant
 *   of the handover may be reported twice, which a scan shrugs off).
 * - A child that dies by itself is restarted with backoff (0.5 s doubling to 30 s). Files closed
 *   while no child ran would be missed, so after such a restart the watched trees are walked once
 *   and files changed (mtime or ctime, which a rename also sets) since the child died are reported.
 * - A watched root deleted while the child runs stays unwatched (inotifywait keeps running on the
 *   others); directories missing at a (re)start are skipped and left out of status().watched. The
 *   service calls update() again when its directories change; an update with the same existing set
 *   and a healthy child is a no-op.
 * - Paths are read as bytes and reported as @rampart/webshell's encoded strings (pathFromBytes): a
 *   name that is not valid UTF-8 (a GBK name) is reported like any other, as `\xNN` escapes, and
 *   every fs call turns it back into its bytes.
 */

export interface CloseWriteWatch {
  /** The set of directories watched (recursive); [] stops watching. */
  update(dirs: readonly string[]): Promise<void>;
  status(): { state: 'watching' | 'off' | 'unavailable'; error: string; watched: readonly string[] };
  close(): Promise<void>;
}

export interface CloseWriteWatchOptions {
  onFile: (path: string) => void;
  log?: (line: string) => void;
  /** Where the folder list for `inotifywait --fromfile` is written (the agent's state dir: root only). */
  listFile: string;
  /** The inotifywait executable; tests pass a missing one or a stand-in. */
  command?: string;
  /** Restart backoff after the child dies by itself. */
  restartDelayMs?: { min: number; max: number };
  /** How long update() waits for "Watches established." (a huge tree takes a while). */
  establishTimeoutMs?: number;
  /** Where the inotify watch limit is read, for the error text. */
  maxUserWatchesPath?: string;
}

/** Files reported from one walk of a new folder or after a restart, at most (a bound, not a goal). */
const walkLimit = 200_000;

interface Child {
  proc: ChildProcess;
  dirs: readonly string[];
  established: boolean;
  /** Records from a retiring child are ignored: its successor already covers the same directories. */
  retired: boolean;
  exited: boolean;
  stderrTail: string[];
  spawnError: NodeJS.ErrnoException | null;
  waiters: ((ok: boolean) => void)[];
  exitWaiters: (() => void)[];
}

export function startCloseWriteWatch(options: CloseWriteWatchOptions): CloseWriteWatch {
  const command = options.command ?? 'inotifywait';
  const log = options.log ?? (() => {});
  const delays = options.restartDelayMs ?? { min: 500, max: 30_000 };
  const establishTimeoutMs = options.establishTimeoutMs ?? 120_000;
  const watchesPath = options.maxUserWatchesPath ?? '/proc/sys/fs/inotify/max_user_watches';

  let current: Child | null = null;
  let state: 'watching' | 'off' | 'unavailable' = 'off';
  let error = '';
  let desired: readonly string[] = [];
  let closed = false;
  let restartTimer: NodeJS.Timeout | null = null;
  let restartDelay = delays.min;
  /** When the last child died by itself (files changed since then are walked after the restart). */
  let diedAt: number | null = null;
  /** Serialises update(), restarts and close(). */
  let queue: Promise<void> = Promise.resolve();
  const serial = (task: () => Promise<void>): Promise<void> => {
    const run = queue.then(task, task);
    queue = run.catch(() => {});
    return run;
  };

  function report(file: string): void {
    try {
      options.onFile(file);
    } catch (err) {
      log(`trojan watch: onFile failed for ${file}: ${(err as Error).message}`);
    }
  }

  /** Spawns a child on the folders already written to the list file. */
  function spawnChild(dirs: readonly string[]): Child {
    const args = ['-m', '-r', '-e', 'close_write', '-e', 'moved_to', '-e', 'create', '--format', '%e|%w%f%0', '--no-newline', '--fromfile', options.listFile];
    const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const child: Child = { proc, dirs, established: false, retired: false, exited: false, stderrTail: [], spawnError: null, waiters: [], exitWaiters: [] };
    const settle = (ok: boolean) => {
      for (const waiter of child.waiters.splice(0)) waiter(ok);
    };
    let pending: Buffer = Buffer.alloc(0);
    proc.stdout!.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let start = 0;
      for (let nul = pending.indexOf(0, start); nul !== -1; nul = pending.indexOf(0, start)) {
        const record = pending.subarray(start, nul);
        start = nul + 1;
        if (!child.retired) onRecord(record);
      }
      pending = pending.subarray(start);
    });
    let errText = '';
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (text: string) => {
      errText += text;
      const lines = errText.split('\n');
      errText = lines.pop() ?? '';
      for (const raw of lines) {
        const line = raw.trim();
        if (!line) continue;
        if (line.startsWith('Setting up watches')) continue;
        if (line.startsWith('Watches established')) {
          child.established = true;
          settle(true);
          // Late (after update() gave up waiting) is still good news.
          if (child === current && state === 'unavailable') {
            state = 'watching';
            error = '';
          }
          continue;
        }
        child.stderrTail.push(line);
        if (child.stderrTail.length > 5) child.stderrTail.shift();
        log(`trojan watch: inotifywait: ${line}`);
      }
    });
    proc.on('error', (err: NodeJS.ErrnoException) => {
      child.spawnError = err;
    });
    proc.on('close', () => {
      child.exited = true;
      settle(false);
      for (const waiter of child.exitWaiters.splice(0)) waiter();
      onExit(child);
    });
    return child;
  }

  function onRecord(record: Buffer): void {
    const bar = record.indexOf(0x7c); // '|'
    if (bar === -1) return;
    const events = record.subarray(0, bar).toString('latin1').split(',');
    const file = pathFromBytes(record.subarray(bar + 1));
    if (events.includes('ISDIR')) {
      if (events.includes('CREATE') || events.includes('MOVED_TO')) void walk([file], null);
      return;
    }
    if (events.includes('CLOSE_WRITE') || events.includes('MOVED_TO')) report(file);
  }

  /** Reports the regular files under `roots` (changed since `sinceMs` when given), without following symlinks. */
  async function walk(roots: readonly string[], sinceMs: number | null): Promise<void> {
    let seen = 0;
    const stack = [...roots];
    while (stack.length && seen < walkLimit && !closed) {
      const dir = stack.pop()!;
      let handle;
      try {
        handle = await openDirEntries(dir);
      } catch {
        continue;
      }
      try {
        for await (const entry of handle) {
          if (++seen > walkLimit) break;
          const full = entry.path;
          if (entry.isDirectory) stack.push(full);
          else if (entry.isFile) {
            if (sinceMs !== null) {
              const info = await lstat(bytesOfPath(full)).catch(() => null);
              if (!info || Math.max(info.mtimeMs, info.ctimeMs) < sinceMs) continue;
            }
            report(full);
          }
        }
      } catch {
        // The folder went away while it was read.
      }
    }
  }

  async function limitText(): Promise<string> {
    const limit = (await readFile(watchesPath, 'utf8').catch(() => '?')).trim();
    return `the inotify watch limit is reached (fs.inotify.max_user_watches = ${limit}); raise it, e.g. sysctl -w fs.inotify.max_user_watches=524288`;
  }

  async function failureText(child: Child): Promise<string> {
    const err = child.spawnError;
    if (err?.code === 'ENOENT') return `inotifywait is not installed (Debian package inotify-tools): ${command} not found`;
    if (err) return `inotifywait could not start: ${err.message}`;
    const tail = child.stderrTail.join('; ');
    if (/upper limit on inotify watches/i.test(tail)) return await limitText();
    if (/upper limit on inotify instances|Couldn't initialize inotify/i.test(tail)) {
      const instances = (await readFile(path.join(path.dirname(watchesPath), 'max_user_instances'), 'utf8').catch(() => '?')).trim();
      return `no inotify instance is left (fs.inotify.max_user_instances = ${instances}): ${tail}`;
    }
    const code = child.proc.exitCode ?? child.proc.signalCode;
    return `inotifywait exited (${code ?? 'unknown'})${tail ? `: ${tail}` : ''}`;
  }

  function onExit(child: Child): void {
    if (child !== current || child.retired || closed) return;
    // Died by itself: say why, restart later.
    current = null;
    diedAt ??= Date.now();
    void failureText(child).then((text) => {
      if (closed || current) return;
      state = 'unavailable';
      error = text;
      log(`trojan watch: ${text}; restarting in ${Math.round(restartDelay / 100) / 10} s`);
      scheduleRestart();
    });
  }

  function scheduleRestart(): void {
    if (restartTimer || closed) return;
    const delay = restartDelay;
    restartDelay = Math.min(delays.max, restartDelay * 2);
    restartTimer = setTimeout(() => {
      restartTimer = null;
      void serial(() => apply(desired));
    }, delay);
    restartTimer.unref();
  }

  async function existingDirs(dirs: readonly string[]): Promise<string[]> {
    const wanted = [...new Set(dirs.filter((dir) => path.isAbsolute(dir)).map((dir) => path.resolve(dir)))].sort();
    // A folder inside another watched one is covered by -r.
    const roots = wanted.filter((dir) => !wanted.some((other) => other !== dir && (other === '/' || dir.startsWith(`${other}/`))));
    const out: string[] = [];
    for (const dir of roots) {
      if (watchRefusal(dir)) {
        log(`trojan watch: ${JSON.stringify(dir)} is not watched: its path holds a newline, which the folder list cannot carry`);
        continue;
      }
      const info = await stat(bytesOfPath(dir)).catch(() => null);
      if (info?.isDirectory()) out.push(dir);
    }
    return out;
  }

  function stopChild(child: Child): Promise<void> {
    child.retired = true;
    if (child.exited) return Promise.resolve();
    return new Promise((resolve) => {
      child.exitWaiters.push(resolve);
      child.proc.kill('SIGTERM');
      const force = setTimeout(() => child.proc.kill('SIGKILL'), 2000);
      child.exitWaiters.push(() => clearTimeout(force));
    });
  }

  /** Brings the child in line with `dirs` (from update() or a restart after a crash). */
  async function apply(dirs: readonly string[]): Promise<void> {
    if (closed) return;
    const wanted = await existingDirs(dirs);
    if (current && !current.exited && current.established && same(current.dirs, wanted)) return;
    if (wanted.length === 0) {
      if (restartTimer) clearTimeout(restartTimer);
      restartTimer = null;
      const old = current;
      current = null;
      if (old) await stopChild(old);
      state = 'off';
      error = '';
      diedAt = null;
      restartDelay = delays.min;
      return;
    }
    try {
      await writeWatchList(options.listFile, wanted);
    } catch (err) {
      // The running child (if any) keeps its old set; the retry comes with the restart backoff.
      state = 'unavailable';
      error = `the watch's folder list could not be written (${options.listFile}): ${(err as Error).message}`;
      scheduleRestart();
      return;
    }
    const old = current;
    const next = spawnChild(wanted);
    current = next;
    const ok = await new Promise<boolean>((resolve) => {
      if (next.established) return resolve(true);
      if (next.exited) return resolve(false);
      const timer = setTimeout(() => resolve(next.established), establishTimeoutMs);
      timer.unref();
      next.waiters.push((value) => {
        clearTimeout(timer);
        resolve(value);
      });
    });
    // The new child covers the set now (or failed): the old one goes either way.
    if (old) await stopChild(old);
    if (closed) return;
    if (ok) {
      state = 'watching';
      error = '';
      if (restartTimer) clearTimeout(restartTimer);
      restartTimer = null;
      // The backoff starts again from its minimum once a child has run for 10 s.
      const reset = setTimeout(() => {
        if (current === next && !next.exited) restartDelay = delays.min;
      }, 10_000);
      reset.unref();
      if (diedAt !== null) {
        const since = diedAt - 1000; // slack for timestamp granularity
        diedAt = null;
        void walk(wanted, since);
      }
      return;
    }
    if (next.exited) {
      // Failed at the start: say why now (update() resolves with it); onExit schedules the restart too.
      if (current === next) current = null;
      diedAt ??= Date.now();
      state = 'unavailable';
      error = await failureText(next);
      scheduleRestart();
      return;
    }
    state = 'unavailable';
    error = `inotifywait did not establish its watches within ${Math.round(establishTimeoutMs / 1000)} s`;
  }

  return {
    update(dirs) {
      desired = [...dirs];
      return serial(() => apply(desired));
    },
    status() {
      const watched = state === 'watching' && current ? current.dirs : [];
      return { state, error, watched };
    },
    close() {
      // Stop at once, even while an update waits for a slow start.
      closed = true;
      if (current) void stopChild(current);
      return serial(async () => {
        if (restartTimer) clearTimeout(restartTimer);
        restartTimer = null;
        const old = current;
        current = null;
        if (old) await stopChild(old);
        state = 'off';
        error = '';
      });
    },
  };
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
