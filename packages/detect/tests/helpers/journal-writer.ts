// Test helper: a real journal file, written by systemd-journal-remote from journal export format,
// that `journalctl --directory` can follow while entries are added.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const journalRemote = '/lib/systemd/systemd-journal-remote';
export const canWriteJournals = existsSync(journalRemote) && existsSync('/usr/bin/journalctl');

// journalctl --follow shows the current boot only, so entries carry this machine's boot id.
const bootId = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replaceAll('-', '');

export interface ExportEntry {
  message: string | Buffer;
  identifier?: string;
  pid?: number;
  /** ms; defaults to now. */
  time?: number;
}

/** One entry in export format. MESSAGE goes in the binary form (length-prefixed), which takes any bytes. */
export function exportEntry(entry: ExportEntry, boot: string, monotonic: number): Buffer {
  const time = BigInt(entry.time ?? Date.now()) * 1000n;
  const text = [`__REALTIME_TIMESTAMP=${time}`, `__MONOTONIC_TIMESTAMP=${monotonic}`, `_BOOT_ID=${boot}`, '_HOSTNAME=rampart-test', '_TRANSPORT=syslog'];
  if (entry.identifier !== undefined) text.push(`SYSLOG_IDENTIFIER=${entry.identifier}`, `_COMM=${entry.identifier}`);
  if (entry.pid !== undefined) text.push(`_PID=${entry.pid}`);
  const message = Buffer.isBuffer(entry.message) ? entry.message : Buffer.from(entry.message, 'utf8');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(message.length));
  return Buffer.concat([Buffer.from(`${text.join('\n')}\nMESSAGE\n`), length, message, Buffer.from('\n\n')]);
}

/** A systemd-journal-remote process writing `dir/<name>.journal` from what `write` sends it. */
export class JournalWriter {
  readonly file: string;
  readonly #proc: ChildProcess;
  readonly #boot = bootId();
  #monotonic = 1_000_000;

  constructor(dir: string, name = 'test') {
    this.file = path.join(dir, `${name}.journal`);
    this.#proc = spawn(journalRemote, [`--output=${this.file}`, '-'], { stdio: ['pipe', 'ignore', 'ignore'] });
  }

  /** Resolves once the journal file exists (journal-remote makes it when the first entry comes). */
  async created(): Promise<void> {
    const start = Date.now();
    while (!existsSync(this.file)) {
      if (Date.now() - start > 10_000) throw new Error(`${this.file} was never created`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  write(...entries: ExportEntry[]): void {
    for (const entry of entries) this.#proc.stdin!.write(exportEntry(entry, this.#boot, (this.#monotonic += 1000)));
  }

  /** Ends the input; journal-remote closes the file and exits. */
  async close(): Promise<void> {
    if (this.#proc.exitCode !== null) return;
    const exited = new Promise((resolve) => this.#proc.once('exit', resolve));
    this.#proc.stdin!.end();
    await exited;
  }
}

export const marker = 'marker: is the follower at the end yet?';

/**
 * Writes marker entries until `seen()` reports one arrived: then journalctl is running and at the
 * end of the journal, and what is written next is sure to be followed. (A fixed sleep is not: a
 * busy machine starts journalctl late, and --lines=0 skips what came before it.)
 */
export async function untilFollowing(writer: JournalWriter, seen: () => boolean, identifier = 'sshd'): Promise<void> {
  const start = Date.now();
  while (!seen()) {
    if (Date.now() - start > 20_000) throw new Error('the follower never saw a marker entry');
    writer.write({ message: marker, identifier });
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
