/**
 * What the guard's network programs (apps/guard/src/net.bpf.c: cgroup connect4/6, sendmsg4/6) cost
 * processes they do not deny, side by side in one run: loopback TCP connect+accept+close rounds
 * (tests/net/netprobe.c `rate`) by a process in one of two sibling test cgroups: one without programs
 * ("off") and one the helper's programs are attached to, with a deny-UDP rule for another executable
 * ("on"). The helper runs throughout; off and on alternate round by round, so the machine's changing
 * load hits both alike. Also timed: the executable under the deny-UDP rule itself making TCP
 * connections (its rule is looked up and tried on every connect, then allowed). With the kernel's
 * BPF statistics switched on for the run (kernel.bpf_stats_enabled, restored after), the programs'
 * own average run time per call is printed too: the figure the machine's load does not blur.
 * Run by hand as root after `make -C apps/guard`: `node_modules/.bin/node bench/guard/net-connect-rate.ts`
 * (ROUNDS, default 15; CONNECTS per round, default 5000). Medians printed, not asserted.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const rounds = Number(process.env.ROUNDS ?? 15);
const connects = Number(process.env.CONNECTS ?? 5000);
const guardDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/guard');
const helperBin = path.join(guardDir, 'build/rampart-guard');

const mount = readFileSync('/proc/self/mounts', 'utf8').split('\n').map((l) => l.split(' ')).find((f) => f[2] === 'cgroup2')?.[1];
if (!mount || process.getuid?.() !== 0) throw new Error('needs root and a cgroup v2 mount');
const dir = mkdtempSync(path.join(os.tmpdir(), 'rampart-bench-net-'));
const cg = path.join(mount, `rampart-net-bench-${process.pid}`);
const cgOff = path.join(mount, `rampart-net-bench-off-${process.pid}`);
mkdirSync(cg);
mkdirSync(cgOff);
for (const name of ['free', 'noudp']) copyFileSync(path.join(guardDir, 'build/netprobe'), path.join(dir, name));
spawnSync('chmod', ['755', path.join(dir, 'free'), path.join(dir, 'noudp')]);

const noudp = statSync(path.join(dir, 'noudp'));
const planFile = path.join(dir, 'plan.json');
writeFileSync(
  planFile,
  JSON.stringify({
    generation: 1,
    enforce: true,
    objects: [],
    sets: [],
    exes: [],
    trusted_pids: [],
    net: { rules: [{ rule: 'process:1', deny: 4 | 8, allow: ['10.0.0.0/8', '192.168.0.0/16', 'fd00::/8'] }], exes: [{ dev: noudp.dev, ino: noudp.ino, path: path.join(dir, 'noudp'), rules: [0] }] },
  }),
);

/** ns per connect+accept+close round of one netprobe copy, run inside the test cgroup. */
function rate(exe: string, family: 4 | 6, cgroup: string): number {
  const run = spawnSync('sh', ['-c', `echo $$ > ${cgroup}/cgroup.procs && exec "$0" rate ${family} ${connects}`, path.join(dir, exe)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`netprobe: ${run.stderr}`);
  return Number(run.stdout.trim());
}

async function startHelper(): Promise<ChildProcess> {
  const socket = path.join(dir, 'guard.sock');
  const helper = spawn(helperBin, ['--socket', socket, '--backend', 'fanotify', '--pin-dir', path.join(dir, 'pins'), '--cgroup', cg, '--plan-file', planFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  helper.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  // the helper opens its socket after applying the plan file; its stderr may arrive a moment later
  for (let i = 0; i < 100 && !(existsSync(socket) && err.includes('applied generation 1')); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!err.includes('network programs attached') || !err.includes('applied generation 1')) throw new Error(`helper: ${err}`);
  return helper;
}

async function stopHelper(helper: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => helper.once('exit', resolve));
  helper.kill('SIGTERM');
  await exited;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const samples: Record<string, number[]> = {};
const add = (key: string, v: number) => (samples[key] ??= []).push(v);

/** The ids of the programs attached to one cgroup. */
function attachedIds(cgroup: string): number[] {
  const out = spawnSync('bpftool', ['cgroup', 'show', cgroup, '--json'], { encoding: 'utf8' });
  return (JSON.parse(out.stdout.trim() || '[]') as { id: number }[]).map((p) => p.id);
}

/** Average ns per call of the programs attached to the bench's cgroup (kernel BPF statistics), by name. */
function programCosts(): Record<string, string> {
  const costs: Record<string, string> = {};
  for (const id of attachedIds(cg)) {
    const out = spawnSync('bpftool', ['prog', 'show', 'id', String(id), '--json'], { encoding: 'utf8' });
    const p = JSON.parse(out.stdout.trim() || '{}') as { name?: string; run_time_ns?: number; run_cnt?: number };
    if (p.name && p.run_cnt) costs[p.name] = `${((p.run_time_ns ?? 0) / p.run_cnt).toFixed(0)} ns x ${p.run_cnt}`;
  }
  return costs;
}

// Programs on the root cgroup (a running Rampart, another test) run for "off" as well: say so.
const onRoot = attachedIds(mount);
if (onRoot.length) console.log(`note: ${onRoot.length} programs are attached to the cgroup v2 root; both sides pay for them`);

const statsFile = '/proc/sys/kernel/bpf_stats_enabled';
const statsBefore = readFileSync(statsFile, 'utf8').trim();
writeFileSync(statsFile, '1');
const helper = await startHelper();
try {
  rate('free', 4, cgOff); // warm up
  for (let r = 0; r < rounds; r++)
    for (const family of [4, 6] as const) {
      // which of the three goes first rotates, so none always runs right after a spawn of the others
      const runs: [string, () => number][] = [
        [`off free tcp${family}`, () => rate('free', family, cgOff)],
        [`on free tcp${family}`, () => rate('free', family, cg)],
        [`on noudp tcp${family}`, () => rate('noudp', family, cg)],
      ];
      for (let i = 0; i < 3; i++) {
        const [key, run] = runs[(r + i) % 3]!;
        add(key, run());
      }
    }
  console.log(`loopback TCP connect+accept+close, ${connects} per round, median of ${rounds} rounds (ns per round; ratio = connect rate on / off)`);
  for (const family of [4, 6] as const) {
    const offs = samples[`off free tcp${family}`]!;
    const ons = samples[`on free tcp${family}`]!;
    const ruleds = samples[`on noudp tcp${family}`]!;
    // the median of each round's own ratio: a round's three runs share the machine's load of the moment
    const paired = (xs: number[]) => median(xs.map((x, i) => offs[i]! / x)).toFixed(3);
    console.log(
      `tcp${family}: off ${median(offs).toFixed(0)} ns | on, unrestricted process ${median(ons).toFixed(0)} ns (ratio ${paired(ons)}) | ` +
        `on, the deny-UDP process itself ${median(ruleds).toFixed(0)} ns (ratio ${paired(ruleds)})`,
    );
  }
  console.log('program run time per call:', programCosts());
} finally {
  writeFileSync(statsFile, statsBefore);
  await stopHelper(helper);
  // a cgroup whose last process has just exited can be busy for a moment
  for (const group of [cg, cgOff])
    for (let i = 0; existsSync(group); i++) {
      try {
        rmdirSync(group);
      } catch (error) {
        if (i >= 20) {
          console.error(`could not remove ${group}: ${String(error)}`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  rmSync(dir, { recursive: true, force: true });
}
