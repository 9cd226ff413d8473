/**
 * What the guard's fanotify backend costs a file-heavy workload that it allows: a tree of 20,000
 * small files (100 protected directories, each its own rule, 2 subdirectories of 100 files each),
 * then the same workloads with the guard off and on, side by side in one run:
 *   - cat: `find -type f -exec cat {} +` over the tree (every file opened and read);
 *   - node: readFileSync + statSync of every file from this process;
 *   - untar: unpacking a tarball of the tree into a protected directory (opens for writing, new
 *     directories the watcher has to mark as they appear); removing it again is not timed.
 * The rules restrict a class of executables the workload is not in: every open still waits for the
 * helper's decision, which is the cost measured. Run by hand as root after building the driver
 * (`make -C apps/guard -f tests/Makefile.fanotify`): `node_modules/.bin/node bench/guard/fanotify-overhead.ts`
 * (ROUNDS, default 3: the median of the rounds is printed). Printed, not asserted.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const rounds = Number(process.env.ROUNDS ?? 3);
const driverBin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/guard/build/fanotify-driver');
const root = mkdtempSync(path.join(os.tmpdir(), 'rampart-bench-fanotify-'));
const tree = path.join(root, 'tree');
const files: string[] = [];

for (let d = 0; d < 100; d++)
  for (let s = 0; s < 2; s++) {
    const dir = path.join(tree, `d${String(d).padStart(3, '0')}`, `s${s}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) {
      const file = path.join(dir, `f${f}.txt`);
      writeFileSync(file, `file ${d}/${s}/${f}\n`.repeat(8));
      files.push(file);
    }
  }
spawnSync('tar', ['-cf', path.join(root, 'tree.tar'), '-C', root, 'tree']);
// A restricted executable the workload never runs: rules apply to it, every access is still judged.
spawnSync('cp', ['/bin/dash', path.join(root, 'restricted')]);

function plan() {
  const top = readdirSync(tree).map((name) => path.join(tree, name));
  const restricted = statSync(path.join(root, 'restricted'));
  return {
    generation: 1,
    enforce: true,
    objects: top.map((dir, i) => ({ dev: statSync(dir).dev, ino: statSync(dir).ino, path: dir, set: i + 1, dir: true })),
    sets: top.map((_, i) => ({
      id: i + 1,
      slots: [{ rule: `tamper:${i + 1}`, covers: 127, deny: 1 | 2 | 32, proc: 0, exempt: -1, target: 'any', name: { kind: 'any', a: '', b: '' }, malformed: false, notify: true }],
    })),
    exes: [{ dev: restricted.dev, ino: restricted.ino, path: path.join(root, 'restricted'), classes: [0] }],
    trusted_pids: [],
  };
}

const untarInto = path.join(tree, 'd000', 'untar');
const workloads: Record<string, () => void> = {
  cat: () => {
    const result = spawnSync('sh', ['-c', `find ${tree} -type f -name '*.txt' -exec cat {} + > /dev/null`]);
    if (result.status !== 0) throw new Error(`cat failed: ${result.stderr.toString()}`);
  },
  node: () => {
    let bytes = 0;
    for (const file of files) bytes += readFileSync(file).length + (statSync(file).size > 0 ? 0 : 1);
    if (bytes === 0) throw new Error('read nothing');
  },
  untar: () => {
    const result = spawnSync('tar', ['-xf', path.join(root, 'tree.tar'), '-C', untarInto]);
    if (result.status !== 0) throw new Error(`tar failed: ${result.stderr.toString()}`);
  },
};

/** Times one workload; the untar target is made before and removed after, outside the timing. */
function time(name: string, run: () => void): number {
  if (name === 'untar') mkdirSync(untarInto, { recursive: true });
  const start = process.hrtime.bigint();
  run();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (name === 'untar') rmSync(untarInto, { recursive: true, force: true });
  return ms;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function withGuard<T>(run: () => T): Promise<T> {
  writeFileSync(path.join(root, 'plan.json'), JSON.stringify(plan()));
  const driver = spawn(driverBin, [path.join(root, 'plan.json')], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    driver.stdout.on('data', (chunk: Buffer) => (chunk.toString().includes('"applied"') ? resolve() : undefined));
    driver.once('exit', () => reject(new Error('the driver exited')));
  });
  try {
    return run();
  } finally {
    const exited = new Promise((resolve) => driver.once('exit', resolve));
    driver.stdin.end();
    await exited;
  }
}

const times = new Map(Object.keys(workloads).map((name) => [name, { off: [] as number[], on: [] as number[] }]));
for (const [name, run] of Object.entries(workloads)) time(name, run); // warm the page cache
for (let round = 0; round < rounds; round++) {
  for (const [name, run] of Object.entries(workloads)) times.get(name)?.off.push(time(name, run));
  await withGuard(() => {
    for (const [name, run] of Object.entries(workloads)) times.get(name)?.on.push(time(name, run));
  });
}

console.log(`fanotify guard overhead: ${files.length} files, 100 protected directories (one rule each), median of ${rounds} rounds`);
for (const [name, { off, on }] of times) {
  const a = median(off);
  const b = median(on);
  console.log(`${name.padEnd(6)} off ${a.toFixed(0).padStart(6)} ms   on ${b.toFixed(0).padStart(6)} ms   ratio ${(b / a).toFixed(2)}`);
}
rmSync(root, { recursive: true, force: true });
