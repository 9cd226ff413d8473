/**
 * Time from saving a tamper rule to its enforcement (issue 20's goal: <= 1 s), on this host's
 * fanotify backend: the agent runs in this process (as its tests start it) with the real helper
 * (apps/guard/build/rampart-guard, or GUARD_BIN) in a private mount namespace whose test tree is a
 * bind mount of itself, as apps/agent/tests/tamper-guard.test.ts does, so no mark reaches the
 * host's own filesystems. A restricted copy of /bin/sh inside that namespace tries to append to a
 * file of the protected tree every POLL_MS (default 5) and prints each change between allowed and
 * denied; each transition is timed from the agent call that causes it to that line:
 *   add      tamper.rules.add           -> denied
 *   disable  tamper.rules.set_enabled   -> allowed
 *   enable   tamper.rules.set_enabled   -> denied
 *   delete   tamper.rules.delete        -> allowed
 * OTHER_RULES (default 99) rules on other directories are saved first, so each change is planned and
 * applied over a plan of 100. ROUNDS (default 20) rounds; p50 / p95 / max of each transition are
 * printed next to the goal.
 * Run by hand as root after `make -C apps/guard`: `node_modules/.bin/node bench/guard/time-to-enforce.ts`.
 * Printed, not asserted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { AgentClient } from '@rampart/agent-client';
import { startTestAgent } from '../../apps/agent/tests/helpers.ts';

const rounds = Number(process.env['ROUNDS'] ?? 20);
const otherRules = Number(process.env['OTHER_RULES'] ?? 99);
const pollMs = Number(process.env['POLL_MS'] ?? 5);
const goalMs = 1000;
const helperBin = process.env['GUARD_BIN'] ?? path.resolve(import.meta.dirname, '../../apps/guard/build/rampart-guard');
if (process.geteuid?.() !== 0) throw new Error('run as root: the helper needs fanotify permission events');
if (!existsSync(helperBin)) throw new Error(`${helperBin} is not built (make -C apps/guard)`);

const tree = await mkdtemp(path.join(os.tmpdir(), 'rampart-bench-enforce-'));
const site = path.join(tree, 'site');
const target = path.join(site, 'index.html');
await mkdir(site);
await mkdir(path.join(tree, 'bin'));
await writeFile(target, 'original\n');
// Copies, not links: each has its own inode, so the rule restricts exactly these.
for (const name of ['sh', 'deploy']) {
  await copyFile('/bin/sh', path.join(tree, 'bin', name));
  await chmod(path.join(tree, 'bin', name), 0o755);
}
const wrapper = path.join(tree, 'guard-ns.sh');
await writeFile(wrapper, `#!/bin/sh\nexec unshare -m --propagation private /bin/sh -c 'mount --bind "$0" "$0" && exec "$@"' '${tree}' '${helperBin}' "$@" --pin-dir '${path.join(tree, 'pins')}'\n`);
await chmod(wrapper, 0o755);

const agent = await startTestAgent({
  guard: {
    spawn: true,
    background: false,
    binary: wrapper,
    args: ['--backend', 'fanotify'],
    roots: { binDirs: [path.join(tree, 'bin')], trees: [], proc: null, packageFiles: [], maxDepth: 1, maxEntries: 1000 },
    client: { backoff: { minMs: 50, maxMs: 500 } },
  },
});
const client = new AgentClient(agent.socketPath, { timeoutMs: 20_000 });
let writer: ChildProcess | undefined;

try {
  await client.call('module.switch', { modules: ['tamper'], status: 1 });
  for (let i = 0; i < 200; i += 1) {
    const status = await client.call('tamper.status', {});
    if (status.running && status.backend === 'fanotify') break;
    if (i === 199) throw new Error(`the guard is not running on fanotify: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  // The restricted writer, inside the helper's mount namespace: an open for appending is the write
  // (`true`, not `:` — a failed redirection of a special builtin ends a POSIX shell).
  const pollS = (pollMs / 1000).toFixed(3);
  const script = `prev=; while :; do if { true >> '${target}'; } 2>/dev/null; then s=allowed; else s=denied; fi; if [ "$s" != "$prev" ]; then echo $s; prev=$s; fi; sleep ${pollS}; done`;
  writer = spawn('nsenter', ['-t', String(agent.guard.helperPid), '-m', '--', path.join(tree, 'bin/sh'), '-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const waiters: { want: string; resolve: (at: number) => void }[] = [];
  let last = '';
  let buffer = '';
  writer.stdout!.on('data', (chunk: Buffer) => {
    const at = performance.now();
    buffer += chunk.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      last = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      for (const w of waiters.splice(0)) if (w.want === last) w.resolve(at); else waiters.push(w);
    }
  });
  const seen = (want: string) => new Promise<number>((resolve, reject) => {
    if (last === want) return resolve(performance.now());
    const timer = setTimeout(() => reject(new Error(`no "${want}" after 10 s`)), 10_000);
    waiters.push({ want, resolve: (at) => (clearTimeout(timer), resolve(at)) });
  });
  await seen('allowed');

  const times: Record<string, { enforce: number[]; answer: number[] }> = {};
  /** Times one agent call until the writer reports `want`; also the call's own round trip. */
  async function transition(name: string, want: 'allowed' | 'denied', call: () => Promise<unknown>) {
    const start = performance.now();
    const reached = seen(want);
    await call();
    const answered = performance.now();
    const at = await reached;
    (times[name] ??= { enforce: [], answer: [] }).enforce.push(at - start);
    times[name].answer.push(answered - start);
  }

  const rule = { path: site, process: `${tree}/bin/*`, exempt: [`${tree}/bin/deploy`], level: 10, ops: ['w' as const] };
  const others = await Promise.all(Array.from({ length: otherRules }, async (_, i) => {
    const dir = path.join(tree, 'other', `d${i}`);
    await mkdir(dir, { recursive: true });
    return { ...rule, path: dir };
  }));
  for (let i = 0; i < others.length; i += 100) await client.call('tamper.rules.add', { rules: others.slice(i, i + 100) });
  for (let round = 0; round < rounds; round += 1) {
    let ids: number[] = [];
    await transition('add', 'denied', async () => {
      ids = (await client.call('tamper.rules.add', { rules: [rule] })).ids;
    });
    await transition('disable', 'allowed', () => client.call('tamper.rules.set_enabled', { ids, enabled: false }));
    await transition('enable', 'denied', () => client.call('tamper.rules.set_enabled', { ids, enabled: true }));
    await transition('delete', 'allowed', () => client.call('tamper.rules.delete', { ids }));
  }

  const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? Number.NaN;
  const f = (ms: number) => `${ms.toFixed(0).padStart(5)} ms`;
  const status = await client.call('tamper.status', {});
  console.log(`time to enforce, fanotify backend: ${rounds} rounds, the measured rule and ${status.rules} others (${status.objects} objects), writer polls every ${pollMs} ms, goal <= ${goalMs} ms; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const [name, { enforce, answer }] of Object.entries(times)) {
    const worst = Math.max(...enforce);
    console.log(`${name.padEnd(8)} to effect p50 ${f(pct(enforce, 50))} p95 ${f(pct(enforce, 95))} max ${f(worst)}   (agent call answered p50 ${f(pct(answer, 50))})   ${worst <= goalMs ? 'within' : 'OVER'} the goal`);
  }
} finally {
  writer?.kill('SIGKILL');
  client.close();
  await agent.dispose();
  await rm(tree, { recursive: true, force: true });
}
