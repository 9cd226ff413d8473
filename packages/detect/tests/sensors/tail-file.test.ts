import { appendFileSync, closeSync, mkdirSync, openSync, renameSync, truncateSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tailFile, type TailOptions } from '../../src/index.ts';
import { useCleanups } from '../helpers/temp-dir.ts';
import { sleep, waitFor } from '../helpers/wait.ts';

const { cleanups, tempDir } = useCleanups();

async function tail(file: string, options: TailOptions = {}) {
  const lines: string[] = [];
  const errors: unknown[] = [];
  const handle = tailFile(file, (line) => lines.push(line), { pollMs: 100, onError: (e) => errors.push(e), ...options });
  cleanups.push(() => handle.close());
  await handle.ready;
  return { handle, lines, errors };
}

/** A log file in a fresh folder; `null` leaves it uncreated. */
async function logFile(name = 'auth.log', content: string | null = ''): Promise<string> {
  const file = path.join(await tempDir(), name);
  if (content !== null) writeFileSync(file, content);
  return file;
}

describe('tailFile', () => {
  it('starts at the end: what the file held is not news, what is appended is', async () => {
    const file = await logFile('auth.log', 'old 1\nold 2\n');
    const { lines } = await tail(file);
    appendFileSync(file, 'new 1\nnew 2\n');
    await waitFor(() => lines.length >= 2);
    await sleep(150);
    expect(lines).toEqual(['new 1', 'new 2']);
  });

  it('starting at the end, reads a line being written at that moment whole', async () => {
    const file = await logFile('auth.log', 'old 1\nhalf of a li');
    const { lines } = await tail(file);
    appendFileSync(file, 'ne\nnext\n');
    await waitFor(() => lines.length >= 2);
    expect(lines).toEqual(['half of a line', 'next']);
  });

  it('reads what is there first with fromStart', async () => {
    const file = await logFile('auth.log', 'old 1\nold 2\n');
    const { lines } = await tail(file, { fromStart: true });
    expect(lines).toEqual(['old 1', 'old 2']);
  });

  it('holds an unfinished last line until its newline, also across a split UTF-8 character', async () => {
    const file = await logFile();
    const { lines, handle } = await tail(file);
    const bytes = Buffer.from('用户 root\r\n', 'utf8');
    appendFileSync(file, bytes.subarray(0, 2)); // half of 用
    await sleep(250);
    expect(lines).toEqual([]);
    expect(handle.position()!.offset).toBe(0);
    appendFileSync(file, bytes.subarray(2));
    await waitFor(() => lines.length === 1);
    expect(lines).toEqual(['用户 root']);
    expect(handle.position()!.offset).toBe(bytes.length);
  });

  it('follows a rename rotation: the rest of the old file first, then the new file from its start', async () => {
    const file = await logFile('auth.log', '');
    const { lines, handle } = await tail(file);
    // The writer keeps its descriptor on the old file until it is told to reopen (rsyslog's HUP).
    const writer = openSync(file, 'a');
    writeSync(writer, 'before 1\n');
    await waitFor(() => lines.length === 1);
    renameSync(file, `${file}.1`);
    writeSync(writer, 'after rename, to the old file\nunfinished');
    closeSync(writer);
    writeFileSync(file, 'new file 1\nnew file 2\n');
    await waitFor(() => lines.length >= 5, 3000, 'five lines');
    expect(lines).toEqual(['before 1', 'after rename, to the old file', 'unfinished', 'new file 1', 'new file 2']);
    expect(handle.stats().rotations).toBe(1);
    appendFileSync(file, 'new file 3\n');
    await waitFor(() => lines.length === 6);
    expect(lines[5]).toBe('new file 3');
  });

  it('follows copytruncate: a file that shrinks is read again from its start', async () => {
    const file = await logFile('access.log', 'a\n');
    const { lines, handle } = await tail(file);
    appendFileSync(file, 'line one is long enough\n');
    await waitFor(() => lines.length === 1);
    truncateSync(file, 0);
    appendFileSync(file, 'x\n');
    await waitFor(() => lines.length === 2, 3000, 'the line after truncation');
    expect(lines).toEqual(['line one is long enough', 'x']);
    expect(handle.stats().truncations).toBe(1);
  });

  it('waits for a file that does not exist yet and reads it whole when it appears (and again after deletion)', async () => {
    const file = await logFile('later.log', null);
    const { lines, handle } = await tail(file);
    expect(handle.position()).toBeUndefined();
    writeFileSync(file, 'first\nsecond\n');
    await waitFor(() => lines.length === 2);
    unlinkSync(file);
    await sleep(250);
    writeFileSync(file, 'third\n');
    await waitFor(() => lines.length === 3);
    expect(lines).toEqual(['first', 'second', 'third']);
  });

  it('waits for a folder that does not exist yet (polling alone)', async () => {
    const dir = path.join(await tempDir(), 'nginx');
    const file = path.join(dir, 'access.log');
    const { lines } = await tail(file);
    mkdirSync(dir);
    writeFileSync(file, 'hello\n');
    await waitFor(() => lines.length === 1);
    expect(lines).toEqual(['hello']);
  });

  it('works by polling alone when watching is off', async () => {
    const file = await logFile();
    const { lines } = await tail(file, { watch: false, pollMs: 50 });
    appendFileSync(file, 'polled\n');
    await waitFor(() => lines.length === 1, 2000);
    expect(lines).toEqual(['polled']);
  });

  it('resumes after a restart from the saved position, without re-reading or losing lines', async () => {
    const file = await logFile('auth.log', 'old\n');
    const first = await tail(file);
    appendFileSync(file, 'one\n');
    await waitFor(() => first.lines.length === 1);
    const saved = first.handle.position()!;
    await first.handle.close();
    appendFileSync(file, 'two\nthree\n'); // written while the agent was down
    const second = await tail(file, { resume: saved });
    expect(second.lines).toEqual(['two', 'three']);
  });

  it('reads a file rotated while it was down from its start', async () => {
    const file = await logFile('auth.log', 'old\n');
    const first = await tail(file);
    const saved = first.handle.position()!;
    await first.handle.close();
    renameSync(file, `${file}.1`);
    writeFileSync(file, 'in the new file\n');
    const second = await tail(file, { resume: saved });
    expect(second.lines).toEqual(['in the new file']);
  });

  it('drops overlong lines, keeps going, and survives a throwing onLine', async () => {
    const file = await logFile();
    const seen: string[] = [];
    const errors: unknown[] = [];
    const handle = tailFile(
      file,
      (line) => {
        if (line === 'boom') throw new Error('consumer failed');
        seen.push(line);
      },
      { pollMs: 100, maxLineBytes: 16, onError: (e) => errors.push(e) },
    );
    cleanups.push(() => handle.close());
    await handle.ready;
    appendFileSync(file, `${'x'.repeat(40)}\nboom\nshort\n`);
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual(['short']);
    expect(handle.stats()).toMatchObject({ lines: 2, overlong: 1 });
    expect(String(errors[0])).toMatch(/consumer failed/);
  });
});
