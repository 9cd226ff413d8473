import { spawn, type ChildProcess } from 'node:child_process';
import { parseJournalJson, type JournalEntry } from './journal-entry.ts';
import { LineSplitter } from './line-splitter.ts';

/** sshd's entries whatever the OpenSSH version calls its processes (same field: journalctl ORs them). */
export const sshdJournalMatches: readonly string[] = ['SYSLOG_IDENTIFIER=sshd', 'SYSLOG_IDENTIFIER=sshd-session', 'SYSLOG_IDENTIFIER=sshd-auth'];

export interface JournalOptions {
  onEntry: (entry: JournalEntry) => void;
  /** Read the journal files in this folder instead of the system journal (`--directory`). */
  directory?: string;
  /** journalctl matches such as `_COMM=sshd`; same-field matches are ORed, different fields ANDed, `+` ORs groups. */
  matches?: readonly string[];
  /** A cursor saved earlier: read on from just after it instead of from now. */
  afterCursor?: string;
  journalctl?: string;
  /** Delay before restarting a journalctl that exited: doubles from `initialMs` up to `maxMs`. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** journalctl failing to start or exiting, and errors thrown by `onEntry`. Defaults to console.error. */
  onError?: (error: unknown) => void;
}

export interface JournalStats {
  entries: number;
  malformed: number;
  starts: number;
}

export interface JournalHandle {
  /** The cursor of the last entry handed out: save it to resume after a restart. */
  cursor(): string | undefined;
  stats(): JournalStats;
  close(): Promise<void>;
}

// A journalctl that ran this long was healthy: the next failure starts the back-off afresh.
const healthyRunMs = 10_000;

/**
 * Follows the journal through `journalctl --follow --output=json`, one JSON object per line, so no
 * libsystemd binding is needed. When journalctl exits (journald restarted, files vacuumed, a bad
 * directory) it is started again after a growing delay, from the last cursor seen, so entries in
 * between are neither lost nor repeated.
 */
export function followJournal(options: JournalOptions): JournalHandle {
  const onError = options.onError ?? ((error: unknown) => console.error('journal:', error));
  const initialMs = options.backoff?.initialMs ?? 1000;
  const maxMs = options.backoff?.maxMs ?? 30_000;
  const counts: JournalStats = { entries: 0, malformed: 0, starts: 0 };
  let cursor = options.afterCursor;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let delay = initialMs;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const args = (): string[] => {
    const list = ['--follow', '--output=json', '--all', '--no-pager', '--quiet'];
    // --lines=0: from now on; a saved cursor instead reads what came after it.
    list.push(cursor === undefined ? '--lines=0' : `--after-cursor=${cursor}`);
    if (options.directory !== undefined) list.push(`--directory=${options.directory}`);
    list.push(...(options.matches ?? []));
    return list;
  };

  const handleLine = (line: string) => {
    if (line === '') return;
    const entry = parseJournalJson(line);
    if (!entry) {
      counts.malformed++;
      return;
    }
    counts.entries++;
    if (entry.cursor !== undefined) cursor = entry.cursor;
    try {
      options.onEntry(entry);
    } catch (error) {
      onError(error);
    }
  };

  const start = () => {
    timer = undefined;
    if (closed) return;
    counts.starts++;
    const startedAt = Date.now();
    const splitter = new LineSplitter(1024 * 1024);
    let stderr = '';
    const proc = spawn(options.journalctl ?? 'journalctl', args(), { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    proc.stdout.on('data', (chunk: Buffer) => {
      for (const line of splitter.push(chunk)) handleLine(line);
    });
    proc.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    exited = new Promise((resolve) => {
      let done = false;
      const finish = (reason: string) => {
        if (done) return;
        done = true;
        child = undefined;
        resolve();
        if (closed) return;
        onError(new Error(`journalctl ${reason}${stderr.trim() ? `: ${stderr.trim()}` : ''}`));
        delay = Date.now() - startedAt >= healthyRunMs ? initialMs : delay;
        timer = setTimeout(start, delay);
        delay = Math.min(delay * 2, maxMs);
      };
      // 'error' alone when it could not be started; 'close' (after the output is drained) otherwise.
      proc.on('error', (error) => finish(`could not start (${error.message})`));
      proc.on('close', (code, signal) => finish(`exited (${signal ?? `code ${code}`})`));
    });
  };

  start();

  return {
    cursor: () => cursor,
    stats: () => ({ ...counts }),
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      child?.kill('SIGTERM');
      await exited;
    },
  };
}
