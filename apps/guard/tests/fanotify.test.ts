import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { guardOpBits, guardPlanSchema, type GuardPlan, type GuardSlot } from '@rampart/contracts';

/*
 * The fanotify backend (src/fanotify.c) on this machine's real kernel, through its test driver
 * (tests/fanotify-driver.c): real permission events, real files under a /tmp test folder, real
 * processes. Restricted and exempt processes are copies of system binaries at their own inodes, so
 * the plan can give them classes without touching the system's own binaries.
 */
const guardDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const driverBin = path.join(guardDir, 'build/fanotify-driver');
const isRoot = process.getuid?.() === 0;
const { r, w, x } = guardOpBits;

let root = '';
let driver: ChildProcess | undefined;
let lines: string[] = [];

interface Denial {
  event: 'denied';
  op: string;
  rule: string;
  pid: number;
  uid: number;
  comm: string;
  exe: string;
  path: string;
}

const p = (...parts: string[]) => path.join(root, ...parts);

function slot(rule: string, deny: number, proc: number, exempt: number): GuardSlot {
  return { rule, covers: 127, deny, proc, exempt, target: 'any', name: { kind: 'any', a: '', b: '' }, malformed: false, notify: true };
}

function inode(file: string) {
  const st = statSync(file);
  return { dev: st.dev, ino: st.ino };
}

/**
 * Class 0: restricted (rsh, rcp, rtruncate). Class 1: exempt (esh carries 0 and 1).
 * tree/: restricted processes may not write or exec, may read. secret/: they may not read or write.
 */
function plan(enforce: boolean): GuardPlan {
  return guardPlanSchema.parse({
    generation: 1,
    enforce,
    objects: [
      { ...inode(p('tree')), path: p('tree'), set: 1, dir: true },
      { ...inode(p('secret')), path: p('secret'), set: 2, dir: true },
    ],
    sets: [
      { id: 1, slots: [slot('tamper:1', w | x, 0, 1)] },
      { id: 2, slots: [slot('tamper:2', r | w, 0, 1)] },
    ],
    exes: [
      ...['rsh', 'rcp', 'rtruncate'].map((name) => ({ ...inode(p(name)), path: p(name), classes: [0] })),
      { ...inode(p('esh')), path: p('esh'), classes: [0, 1] },
    ],
    trusted_pids: [],
  });
}

/** Runs a program and returns its status and stderr; a stuck open fails the test by timeout. */
function run(program: string, args: string[]) {
  const result = spawnSync(p(program), args, { encoding: 'utf8', timeout: 10_000 });
  if (result.error) throw result.error;
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}
const sh = (program: 'rsh' | 'esh', script: string) => run(program, ['-c', script]);

async function waitFor<T>(what: string, probe: () => T | undefined, ms = 5000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 20))) {
    const value = probe();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting for ${what}; driver said:\n${lines.join('\n')}`);
}

const applied = () => lines.filter((line) => line.includes('"event":"applied"')).length;
const denials = (): Denial[] => lines.filter((line) => line.includes('"event":"denied"')).map((line) => JSON.parse(line) as Denial);

async function startDriver(enforce = true): Promise<ChildProcess> {
  writeFileSync(p('plan.json'), JSON.stringify(plan(enforce)));
  lines = [];
  const child = spawn(driverBin, [p('plan.json')], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
  });
  driver = child;
  await waitFor('the plan to be applied', () => (applied() > 0 ? true : undefined));
  expect(lines[0]).toContain('"result":0');
  return child;
}

async function reload(enforce: boolean) {
  const before = applied();
  writeFileSync(p('plan.json'), JSON.stringify(plan(enforce)));
  driver?.stdin?.write('reload\n');
  await waitFor('the new plan', () => (applied() > before ? true : undefined));
}

async function stopDriver(signal?: NodeJS.Signals) {
  const child = driver;
  driver = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  if (signal) child.kill(signal);
  else child.stdin?.end();
  await exited;
}

/** The marks a fanotify group of pid holds, by kind, from /proc/<pid>/fdinfo. */
function marksOf(pid: number) {
  const marks = { inode: 0, mount: 0, filesystem: 0 };
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target = '';
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    if (!target.includes('fanotify')) continue;
    for (const line of readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8').split('\n')) {
      if (line.startsWith('fanotify ino:')) marks.inode++;
      if (line.startsWith('fanotify mnt_id:')) marks.mount++;
      if (line.startsWith('fanotify sdev:')) marks.filesystem++;
    }
  }
  return marks;
}

function seed() {
  writeFileSync(p('tree/a.txt'), 'original\n');
  writeFileSync(p('tree/sub/deeper/b.txt'), 'deep\n');
  writeFileSync(p('secret/s.txt'), 'secret\n');
  writeFileSync(p('outside/o.txt'), 'outside\n');
}

const denied = (result: { status: number | null; stderr: string }) => result.status !== 0 && /Operation not permitted/.test(result.stderr);

describe.skipIf(!isRoot)('fanotify backend on this kernel (needs root: fanotify permission events)', () => {
  beforeAll(() => {
    const make = spawnSync('make', ['-s', '-f', 'tests/Makefile.fanotify'], { cwd: guardDir, encoding: 'utf8' });
    if (make.status !== 0) throw new Error(`make failed:\n${make.stdout}${make.stderr}`);
    root = mkdtempSync(path.join(os.tmpdir(), 'rampart-fanotify-'));
    for (const dir of ['tree/sub/deeper', 'tree/bin', 'secret', 'outside']) mkdirSync(p(dir), { recursive: true });
    // Copies at their own inodes, so their classes are theirs alone.
    copyFileSync('/bin/dash', p('rsh'));
    copyFileSync('/bin/dash', p('esh'));
    copyFileSync('/usr/bin/cp', p('rcp'));
    copyFileSync('/usr/bin/truncate', p('rtruncate'));
    copyFileSync('/usr/bin/true', p('tree/bin/tool'));
    for (const name of ['rsh', 'esh', 'rcp', 'rtruncate', 'tree/bin/tool']) spawnSync('chmod', ['755', p(name)]);
    seed();
  });

  afterEach(async () => {
    await stopDriver('SIGKILL');
    seed();
  });

  afterAll(async () => {
    await stopDriver('SIGKILL');
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('denies a restricted process every kind of write open, and allows its reads in the tree', async () => {
    await startDriver();
    expect(denied(sh('rsh', `echo new > ${p('tree/a.txt')}`))).toBe(true);
    expect(denied(sh('rsh', `echo more >> ${p('tree/sub/deeper/b.txt')}`))).toBe(true);
    expect(denied(sh('rsh', `: > ${p('tree/a.txt')}`))).toBe(true); // O_TRUNC
    expect(denied(run('rtruncate', ['-s', '0', p('tree/a.txt')]))).toBe(true);
    expect(denied(run('rcp', ['/etc/hostname', p('tree/a.txt')]))).toBe(true);
    expect(readFileSync(p('tree/a.txt'), 'utf8')).toBe('original\n');
    expect(readFileSync(p('tree/sub/deeper/b.txt'), 'utf8')).toBe('deep\n');
    // Reads are not denied here: the open's flags tell a read from a write.
    const read = sh('rsh', `read line < ${p('tree/sub/deeper/b.txt')}; echo "$line"`);
    expect(read.status).toBe(0);
    expect(read.stdout).toBe('deep\n');
  });

  it('denies reads where r is denied, and exec of a protected binary (x)', async () => {
    await startDriver();
    expect(denied(sh('rsh', `read line < ${p('secret/s.txt')}`))).toBe(true);
    expect(denied(sh('rsh', `ls ${p('secret')}`))).toBe(false); // ls is /usr/bin/ls: not restricted
    expect(denied(sh('rsh', p('tree/bin/tool')))).toBe(true);
    expect(sh('esh', p('tree/bin/tool')).status).toBe(0);
  });

  it('leaves the exempt process, other processes and paths outside the tree alone', async () => {
    await startDriver();
    expect(sh('esh', `echo exempt > ${p('tree/a.txt')}`).status).toBe(0);
    expect(readFileSync(p('tree/a.txt'), 'utf8')).toBe('exempt\n');
    expect(sh('esh', `read line < ${p('secret/s.txt')}; echo "$line"`).stdout).toBe('secret\n');
    writeFileSync(p('tree/a.txt'), 'vitest\n'); // this process is in no class
    expect(sh('rsh', `echo fine > ${p('outside/o.txt')}`).status).toBe(0);
    expect(readFileSync(p('outside/o.txt'), 'utf8')).toBe('fine\n');
  });

  it('covers a directory made after the plan was applied', async () => {
    const child = await startDriver();
    const before = marksOf(child.pid ?? 0).inode;
    const fresh = `fresh-${Date.now()}`;
    expect(sh('rsh', `mkdir -p ${p('tree', fresh, 'inner')}`).status).toBe(0);
    mkdirSync(p('tree', `${fresh}-node`));
    // The watcher marks new directories asynchronously: 3 directories, each in both groups.
    await waitFor('the new directories to be marked', () => (marksOf(child.pid ?? 0).inode >= before + 6 ? true : undefined));
    expect(denied(sh('rsh', `echo x > ${p('tree', fresh, 'inner', 'f')}`))).toBe(true);
    expect(denied(sh('rsh', `echo x > ${p('tree', `${fresh}-node`, 'f')}`))).toBe(true);
  });

  it('reports each denial with its op, rule, path, pid and exe', async () => {
    await startDriver();
    const result = sh('rsh', `echo new > ${p('tree/a.txt')}; read line < ${p('secret/s.txt')}`);
    expect(denied(result)).toBe(true);
    const write = await waitFor('the write denial', () => denials().find((d) => d.op === 'w'));
    expect(write).toMatchObject({ rule: 'tamper:1', path: p('tree/a.txt'), exe: p('rsh'), comm: 'rsh', uid: 0 });
    expect(write.pid).toBeGreaterThan(1);
    const read = await waitFor('the read denial', () => denials().find((d) => d.op === 'r'));
    expect(read).toMatchObject({ rule: 'tamper:2', path: p('secret/s.txt'), exe: p('rsh') });
    const exec = sh('rsh', p('tree/bin/tool'));
    expect(denied(exec)).toBe(true);
    expect(await waitFor('the exec denial', () => denials().find((d) => d.op === 'x'))).toMatchObject({ rule: 'tamper:1', path: p('tree/bin/tool') });
  });

  it('allows everything with enforce false, and enforces again on the next plan', async () => {
    await startDriver(false);
    expect(sh('rsh', `echo paused > ${p('tree/a.txt')}`).status).toBe(0);
    expect(sh('rsh', `read line < ${p('secret/s.txt')}`).status).toBe(0);
    expect(marksOf(driver?.pid ?? 0).inode).toBe(0); // paused: nothing marked, nothing waits on us
    await reload(true);
    expect(denied(sh('rsh', `echo again > ${p('tree/a.txt')}`))).toBe(true);
    await reload(false);
    expect(sh('rsh', `echo resumed > ${p('tree/a.txt')}`).status).toBe(0);
  });

  it('marks inodes only, answers allowed opens promptly, and releases everything when killed', async () => {
    const child = await startDriver();
    const marks = marksOf(child.pid ?? 0);
    expect(marks.mount).toBe(0);
    expect(marks.filesystem).toBe(0);
    expect(marks.inode).toBeGreaterThanOrEqual(5); // tree, sub, deeper, bin, secret (twice: permission and new-directory groups)
    // 200 allowed opens under the marked tree, each answered by the helper.
    const started = Date.now();
    const loop = sh('rsh', `i=0; while [ $i -lt 200 ]; do read line < ${p('tree/sub/deeper/b.txt')}; i=$((i+1)); done; echo done`);
    expect(loop.stdout).toBe('done\n');
    expect(Date.now() - started).toBeLessThan(5000);
    await stopDriver('SIGKILL');
    expect(sh('rsh', `echo free > ${p('tree/a.txt')}`).status).toBe(0);
    expect(sh('rsh', `read line < ${p('secret/s.txt')}`).status).toBe(0);
  });

  it('stops cleanly at the end of its input and leaves no marks behind', async () => {
    await startDriver();
    expect(denied(sh('rsh', `echo no > ${p('tree/a.txt')}`))).toBe(true);
    const child = driver;
    await stopDriver();
    expect(child?.exitCode).toBe(0);
    expect(sh('rsh', `echo yes > ${p('tree/a.txt')}`).status).toBe(0);
  });
});
