import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { guardHelloSchema, type GuardPlan } from '@rampart/contracts';

/*
 * The helper on this machine's own kernel (6.18), which refuses BPF LSM programs: the lsm backend
 * must say so (lsm_refused), auto must fall back, and the socket protocol and plan checks must hold
 * whatever backend runs. Real process, real unix socket.
 */
const guardDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const helperBin = path.join(guardDir, 'build/rampart-guard');
const isRoot = process.getuid?.() === 0;
let dir = '';
let helper: ChildProcess | undefined;

beforeAll(() => {
  const make = spawnSync('make', ['-s', '-C', guardDir], { encoding: 'utf8' });
  if (make.status !== 0) throw new Error(`make failed:\n${make.stdout}${make.stderr}`);
  dir = mkdtempSync(path.join(os.tmpdir(), 'rampart-guard-host-'));
});

afterEach(async () => {
  if (helper && helper.exitCode === null) {
    const exited = new Promise((resolve) => helper?.once('exit', resolve));
    helper.kill('SIGTERM');
    await exited;
  }
  helper = undefined;
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the helper and resolves once its socket accepts connections. */
async function start(backend: string): Promise<string> {
  const socket = path.join(dir, `${backend}.sock`);
  // The pin dir is not on bpffs: nothing is pinned on this host, whatever happens.
  helper = spawn(helperBin, ['--socket', socket, '--backend', backend, '--pin-dir', path.join(dir, 'pins')], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (let i = 0; i < 100 && !existsSync(socket); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!existsSync(socket)) throw new Error('helper did not open its socket');
  return socket;
}

/** Sends request lines over one connection and collects one answer per request. */
async function ask(socket: string, requests: string[]): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const conn = net.createConnection(socket);
    const answers: Record<string, unknown>[] = [];
    let buffer = '';
    conn.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const msg = JSON.parse(line) as Record<string, unknown>;
        if ('id' in msg) answers.push(msg);
        if (answers.length === requests.length) {
          conn.end();
          resolve(answers);
        }
      }
    });
    conn.on('error', reject);
    conn.write(requests.map((r) => `${r}\n`).join(''));
  });
}

const plan = (overrides: Partial<GuardPlan> = {}): GuardPlan => ({
  generation: 3,
  enforce: true,
  objects: [{ dev: 2049, ino: 12, path: '/tmp/x', set: 1, dir: true }],
  sets: [{ id: 1, slots: [{ rule: 'tamper:1', covers: 127, deny: 36, proc: 0, exempt: -1, target: 'any', name: { kind: 'any', a: '', b: '' }, malformed: false, notify: true }] }],
  exes: [{ dev: 2049, ino: 99, path: '/usr/bin/php', classes: [0] }],
  trusted_pids: [1],
  ...overrides,
});

describe.skipIf(!isRoot)('rampart-guard on a kernel that refuses BPF LSM', () => {
  it('--backend lsm reports lsm_refused with the errno and no operations', async () => {
    const socket = await start('lsm');
    const [hello] = await ask(socket, ['{"id":1,"op":"hello"}']);
    expect(hello).toMatchObject({ id: 1, ok: true });
    const parsed = guardHelloSchema.parse(hello?.hello);
    expect(parsed).toMatchObject({ backend: 'none', cause: 'lsm_refused', ops: [], pinned: false, generation: 0, kernel: os.release() });
    expect(hello?.hello).toMatchObject({ causes: ['lsm_refused'], detail: expect.stringMatching(/errno \d+/) });
  });

  it('auto falls back past lsm and says why', async () => {
    const socket = await start('auto');
    const [hello] = await ask(socket, ['{"id":"a","op":"status"}']);
    const parsed = guardHelloSchema.parse(hello?.hello);
    expect(hello?.id).toBe('a'); // the id comes back as sent, whatever its type
    expect(parsed.cause).toBe('lsm_refused');
    if (existsSync(path.join(guardDir, 'src/fanotify.c'))) {
      expect(parsed.backend).toBe('fanotify');
    } else {
      expect(parsed).toMatchObject({ backend: 'none', ops: [] });
      expect(hello?.hello).toMatchObject({ causes: ['lsm_refused', 'fanotify_unavailable'] });
    }
  });

  it('checks plans as the schema does and answers each request on the same connection', async () => {
    const socket = await start('lsm');
    const answers = await ask(socket, [
      JSON.stringify({ id: 1, op: 'apply', plan: { ...plan(), extra: 1 } }),
      JSON.stringify({ id: 2, op: 'apply', plan: plan({ sets: [{ id: 1, slots: [{ ...plan().sets[0]!.slots[0]!, covers: 128 }] }] }) }),
      JSON.stringify({ id: 3, op: 'apply', plan: plan({ objects: [{ dev: 1, ino: 2, path: '/a', set: 9, dir: false }] }) }),
      JSON.stringify({ id: 4, op: 'apply', plan: plan({ sets: [{ id: 1, slots: [{ ...plan().sets[0]!.slots[0]!, name: { kind: 'suffix', a: '好'.repeat(22), b: '' } }] }] }) }),
      JSON.stringify({ id: 5, op: 'apply', plan: plan() }),
      '{"id":6,"op":"launch"}',
      'not json',
    ]);
    expect(answers.map((a) => a.ok)).toEqual([false, false, false, false, false, false, false]);
    expect(answers[0]?.error).toContain('unknown key "extra"');
    expect(answers[1]?.error).toContain('covers');
    expect(answers[2]?.error).toContain('no set 9');
    expect(answers[3]?.error).toContain('longer than 63 bytes'); // 22 CJK characters: 66 bytes
    expect(answers[4]?.error).toContain('no backend is running (lsm_refused)'); // a valid plan, nothing to enforce it
    expect(answers[5]?.error).toContain('unknown op');
    expect(answers[6]).toMatchObject({ id: null, ok: false });
  });

  it('creates its socket for root only', async () => {
    const socket = await start('lsm');
    const mode = spawnSync('stat', ['-c', '%a', socket], { encoding: 'utf8' }).stdout.trim();
    expect(mode).toBe('600');
  });
});
