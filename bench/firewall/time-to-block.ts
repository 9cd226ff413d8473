/**
 * Time-to-block benchmark, run by hand as root:
 *   node bench/firewall/time-to-block.ts [--runs 5] [--watch 2000,500] [--probe-ms 10]
 *
 * A real agent runs in the host namespace with its nft bound to the test lab's server namespace,
 * background upkeep on (`watchIntervalMs` from --watch, one agent per value) and attack protection
 * at its defaults. For each scenario, --runs times, from the attacker's first attack packet:
 *  - kernel: until the attacker's packets are dropped in the kernel. A prober in the attacker
 *    namespace opens a connection to the same open port every --probe-ms (the same port each time,
 *    so it counts as one port for the port-scan check); the first probe that goes unanswered, with
 *    the following ones, marks the block (resolution: --probe-ms).
 *  - listed: until `firewall.intercept.list` shows the attacker (polled every --probe-ms).
 * Time zero is read from the kernel, not guessed from a process start: an nft egress hook on the
 * attacker's veth records `meta time` (wall clock, ns) of the first TCP SYN towards server to any
 * port but the prober's. Between runs the block is lifted with `firewall.intercept.delete {target:'all'}`,
 * then a random pause (0 to one watch interval) puts the next attack at a random point of the agent's
 * upkeep cycle.
 *
 * Scenarios are functions of the same shape (see `Scenario`); each gets its own table rows. The
 * port scan is the first; more (SSH brute force) are appended to `scenarios` at the bottom.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AgentClient } from '@rampart/agent-client';
import { startAgent, type RunningAgent } from '@rampart/agent';
import { defaultAttackSettings, type InterceptReason } from '@rampart/contracts';
import { createNftExecutor } from '@rampart/firewall';
import { LAB_IP, createLab, type Lab } from '../../packages/firewall/tests/support/lab.ts';
import { portScan } from '../../packages/firewall/tests/support/nmap.ts';
import { failedLogins, startSshd } from '../../packages/firewall/tests/support/ssh.ts';
import { assertSucceeded } from '../../packages/firewall/tests/support/run.ts';
import { fixed, log, main, median, numberArg, numberListArg, onCleanup, printTable, randomSource, sleep } from './support.ts';

const runs = numberArg('runs', 5);
const watchIntervals = numberListArg('watch', [2000, 500]);
const probeMs = numberArg('probe-ms', 10);

const TCP_LOAD = fileURLToPath(new URL('./tcp-load.ts', import.meta.url));
/** The open port the prober keeps connecting to. */
const PROBE_PORT = 8080;
const PROBE_TIMEOUT_MS = 250;
const server = LAB_IP.server.toAttacker.v4;
const attackerIp = LAB_IP.attacker.v4;
/** How long one run may take before it counts as "not blocked". */
const RUN_LIMIT_MS = 30_000;

const wallNow = () => performance.timeOrigin + performance.now();
const pause = randomSource(7);

/* The attacker's side: first-packet marker and prober. */

const MARK_TABLE = 'rampart_bench';
const MARK_MAP = 'first_syn';

/** nft egress hook on attacker's veth: records the wall-clock time of the first SYN to server (not to the prober's port). */
async function installMarker(lab: Lab): Promise<void> {
  const ruleset = `table netdev ${MARK_TABLE} {
  map ${MARK_MAP} { typeof ip daddr : meta time; size 16; flags dynamic; }
  chain egress {
    type filter hook egress device "${lab.ifname('attacker', 'server')}" priority -500; policy accept;
    ip daddr ${server} tcp dport != ${PROBE_PORT} tcp flags syn add @${MARK_MAP} { ip daddr : meta time }
  }
}
`;
  assertSucceeded(await lab.exec('attacker', ['nft', '-f', '-'], { input: ruleset }), 'installing the first-SYN marker');
}

async function resetMarker(lab: Lab): Promise<void> {
  assertSucceeded(await lab.exec('attacker', ['nft', 'flush', 'map', 'netdev', MARK_TABLE, MARK_MAP]), 'flushing the first-SYN marker');
}

/**
 * The recorded time, in wall-clock ms. nft prints `meta time` values as dates to the second, so the
 * raw element is read from its netlink debug dump: `element 0101 4d0a  : <low 32 bits> <high 32 bits> 0 [end]`.
 */
async function readMarker(lab: Lab): Promise<number | null> {
  const result = await lab.exec('attacker', ['nft', '--debug=netlink', 'list', 'map', 'netdev', MARK_TABLE, MARK_MAP]);
  const match = /element\s+[0-9a-f]+\s+:\s+([0-9a-f]{8})\s+([0-9a-f]{8})\s/.exec(result.stdout + result.stderr);
  if (!match) return null;
  const ns = (BigInt(`0x${match[2]}`) << 32n) | BigInt(`0x${match[1]}`);
  return Number(ns / 1000n) / 1000;
}

interface ProbeRecord {
  sentAt: number;
  state: 'open' | 'timeout' | 'refused' | 'error';
  ms: number;
}

/** tcp-load.ts probe in the attacker namespace; its records accumulate in `records`. */
function startProber(lab: Lab): { records: ProbeRecord[] } {
  const child = lab.spawn('attacker', [process.execPath, TCP_LOAD, 'probe', server, String(PROBE_PORT), String(probeMs), String(PROBE_TIMEOUT_MS)]);
  const records: ProbeRecord[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => records.push(JSON.parse(line) as ProbeRecord));
  onCleanup('prober', () => void child.kill('SIGKILL'));
  return { records };
}

/* One measured block. */

interface Context {
  lab: Lab;
  agent: RunningAgent;
  client: AgentClient;
  watchMs: number;
  prober: { records: ProbeRecord[] };
}

interface Sample {
  /** First attack packet → first probe the kernel dropped (ms). */
  kernelMs: number;
  /** First attack packet → the interception list shows the attacker (ms). */
  listedMs: number;
  /** Attack command started → its first packet (ms): how long the tool took to get going. */
  startupMs: number;
}

const sortedBySend = (records: readonly ProbeRecord[]) => [...records].sort((a, b) => a.sentAt - b.sentAt);

/** Waits until the last `count` probes sent after `since` were answered. */
async function waitUntilOpen(ctx: Context, since: number, count = 5): Promise<void> {
  const deadline = Date.now() + RUN_LIMIT_MS;
  for (;;) {
    const recent = sortedBySend(ctx.prober.records.filter((r) => r.sentAt >= since)).slice(-count);
    if (recent.length === count && recent.every((r) => r.state === 'open')) return;
    if (Date.now() > deadline) throw new Error(`attacker still cannot reach port ${PROBE_PORT}: ${JSON.stringify(recent)}`);
    await sleep(20);
  }
}

/** The send time of the first probe after `since` left unanswered, with the next `confirm` ones unanswered too. */
function firstDropped(records: readonly ProbeRecord[], since: number, confirm = 3): number | null {
  const sorted = sortedBySend(records.filter((r) => r.sentAt >= since));
  for (let i = 0; i + confirm < sorted.length; i++) {
    if (sorted.slice(i, i + confirm + 1).every((r) => r.state === 'timeout')) return sorted[i]!.sentAt;
  }
  return null;
}

/**
 * Runs `attack` (it resolves when the attack is over) and measures from its first packet to the kernel
 * drop and to the interception-list entry with `reason`; then lifts the block.
 */
async function measureBlock(ctx: Context, reason: InterceptReason, attack: () => Promise<void>): Promise<Sample> {
  await waitUntilOpen(ctx, wallNow());
  // A run takes about as long as one upkeep cycle; without a random pause every attack would land at
  // the same point of the cycle (just after a tick), and the list latency would always be its worst.
  await sleep(pause() * ctx.watchMs);
  await resetMarker(ctx.lab);
  const start = wallNow();
  let listedAt: number | null = null;
  let listReason = '';
  const listWatch = (async () => {
    while (listedAt === null && wallNow() - start < RUN_LIMIT_MS) {
      const page = await ctx.client.call('firewall.intercept.list', { offset: 0, limit: 10 });
      const entry = page.list.find((e) => e.ip === attackerIp);
      if (entry) {
        listedAt = wallNow();
        listReason = entry.reason;
      } else await sleep(probeMs);
    }
  })();
  const attackDone = attack();
  let droppedAt: number | null = null;
  while (droppedAt === null && wallNow() - start < RUN_LIMIT_MS) {
    await sleep(20);
    droppedAt = firstDropped(ctx.prober.records, start);
  }
  await Promise.all([attackDone, listWatch]);
  const firstPacket = await readMarker(ctx.lab);
  try {
    if (firstPacket === null || firstPacket < start - 5 || firstPacket > start + RUN_LIMIT_MS) {
      throw new Error(`no first attack packet recorded by the egress marker (read ${firstPacket}, attack started ${start})`);
    }
    if (droppedAt === null) throw new Error(`the attacker was not blocked in the kernel within ${RUN_LIMIT_MS} ms`);
    if (listedAt === null) throw new Error(`the attacker did not appear in the interception list within ${RUN_LIMIT_MS} ms`);
    if (listReason !== reason) throw new Error(`interception list reason ${listReason}, expected ${reason}`);
    return { kernelMs: droppedAt - firstPacket, listedMs: (listedAt as number) - firstPacket, startupMs: firstPacket - start };
  } finally {
    const unblocked = wallNow();
    await ctx.client.call('firewall.intercept.delete', { target: 'all' });
    await waitUntilOpen(ctx, unblocked, 3);
  }
}

/* Scenarios: each measures `runs` blocks in the running agent and returns them. */

type Scenario = { name: string; run: (ctx: Context) => Promise<Sample[]> };

/** Port scan at the defaults (more than 10 ports in 10 s): nmap SYN scan of 200 closed ports. */
async function portScanScenario(ctx: Context): Promise<Sample[]> {
  const settings = await ctx.client.call('firewall.attack.get', {});
  await ctx.client.call('firewall.attack.set', { settings: { ...settings, port_scan: { ...defaultAttackSettings.port_scan } } });
  const ports = Array.from({ length: 200 }, (_, i) => 20_000 + i);
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    const sample = await measureBlock(ctx, 'port_scan', async () => void (await portScan(ctx.lab, 'attacker', server, ports, { scan: 'syn' })));
    samples.push(sample);
    log(`  port scan, watch ${ctx.watchMs} ms, run ${i + 1}: kernel ${fixed(sample.kernelMs, 1)} ms, listed ${fixed(sample.listedMs, 1)} ms (nmap start → first SYN ${fixed(sample.startupMs, 1)} ms)`);
  }
  return samples;
}

/**
 * SSH brute force at the defaults (more than 10 failures in 120 s), from a real sshd's log: ten
 * failed logins first, then the timed attack is the eleventh, so time zero is the first packet of
 * the failed login past the threshold (its SSH handshake is part of the figure).
 */
let sshdLog: string | null = null;

/** One sshd for the whole run (it outlives each agent); its log in a temp folder removed at the end. */
async function sshdLogFile(lab: Lab): Promise<string> {
  if (sshdLog) return sshdLog;
  const dir = await mkdtemp(join(tmpdir(), 'rampart-bench-ssh-'));
  onCleanup(`temp dir ${dir}`, () => rm(dir, { recursive: true, force: true }));
  sshdLog = join(dir, 'sshd.log');
  await startSshd(lab, 'server', { port: SSH_PORT, logFile: sshdLog });
  return sshdLog;
}

async function sshScenario(ctx: Context): Promise<Sample[]> {
  {
    const logFile = await sshdLogFile(ctx.lab);
    const settings = await ctx.client.call('firewall.attack.get', {});
    await ctx.client.call('firewall.attack.set', {
      settings: { ...settings, ssh_bruteforce: { ...defaultAttackSettings.ssh_bruteforce, journal: false, log_files: [logFile] } },
    });
    const samples: Sample[] = [];
    for (let i = 0; i < runs; i++) {
      await failedLogins(ctx.lab, 'attacker', server, SSH_PORT, defaultAttackSettings.ssh_bruteforce.attempts, 'root');
      const sample = await measureBlock(ctx, 'ssh_bruteforce', async () => void (await failedLogins(ctx.lab, 'attacker', server, SSH_PORT, 1, 'root')));
      samples.push(sample);
      log(`  ssh brute force, watch ${ctx.watchMs} ms, run ${i + 1}: kernel ${fixed(sample.kernelMs, 1)} ms, listed ${fixed(sample.listedMs, 1)} ms`);
    }
    return samples;
  }
}

const SSH_PORT = 2222;

const scenarios: Scenario[] = [
  { name: `port scan (> ${defaultAttackSettings.port_scan.ports} ports in ${defaultAttackSettings.port_scan.seconds} s)`, run: portScanScenario },
  { name: `ssh brute force (> ${defaultAttackSettings.ssh_bruteforce.attempts} failures in ${defaultAttackSettings.ssh_bruteforce.seconds} s)`, run: sshScenario },
];

/* The agent, once per watch interval. */

async function withAgent<T>(lab: Lab, watchMs: number, body: (agent: RunningAgent, client: AgentClient) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'rampart-bench-fw-'));
  const removeDir = onCleanup(`temp dir ${dir}`, () => rm(dir, { recursive: true, force: true }));
  const agentLog: string[] = [];
  const agent = await startAgent({
    socketPath: join(dir, 'agent.sock'),
    stateDir: join(dir, 'state'),
    log: (line) => agentLog.push(line),
    executors: { restartSoftware: async () => {}, rebootServer: async () => {} },
    // The host's journal is none of this benchmark's business; a scenario that needs a sensor points it at its own files.
    firewall: { nft: createNftExecutor({ netns: lab.names.server }), background: true, watchIntervalMs: watchMs, sensors: { journal: false } },
  });
  const stopAgent = onCleanup('agent', () => agent.close());
  const client = new AgentClient(join(dir, 'agent.sock'), { timeoutMs: 30_000 });
  try {
    await client.call('module.switch', { modules: ['firewall'], status: 1 });
    const status = await client.call('firewall.status', {});
    if (status.kernel !== 'ok') throw new Error(`agent firewall not applied: ${status.kernel} ${status.message}`);
    return await body(agent, client);
  } catch (error) {
    if (agentLog.length > 0) console.error(`agent log:\n${agentLog.slice(-20).join('\n')}`);
    throw error;
  } finally {
    client.close();
    await stopAgent();
    await removeDir();
  }
}

await main(async () => {
  log(`${runs} runs per scenario and watch interval (${watchIntervals.join(', ')} ms); prober every ${probeMs} ms`);
  const lab = await createLab();
  onCleanup('lab', () => lab.destroy());
  await (await lab.peer('server')).listen({ proto: 'tcp', port: PROBE_PORT });
  await installMarker(lab);
  const prober = startProber(lab);

  const rows: string[][] = [];
  const medians = new Map<string, { kernel: number; listed: number }>();
  for (const watchMs of watchIntervals) {
    await withAgent(lab, watchMs, async (agent, client) => {
      const ctx: Context = { lab, agent, client, watchMs, prober };
      for (const scenario of scenarios) {
        const samples = await scenario.run(ctx);
        const kernel = samples.map((s) => s.kernelMs);
        const listed = samples.map((s) => s.listedMs);
        medians.set(`${scenario.name}|${watchMs}`, { kernel: median(kernel), listed: median(listed) });
        rows.push([
          scenario.name, String(watchMs), String(samples.length),
          fixed(median(kernel), 1), fixed(Math.max(...kernel), 1), fixed(median(listed), 1), fixed(Math.max(...listed), 1),
        ]);
      }
    });
  }

  console.log(`\nTime to block, ms from the attacker's first packet (kernel-stamped); probe resolution ${probeMs} ms:`);
  printTable(['scenario', 'watch ms', 'runs', 'kernel drop median', 'max', 'interception list median', 'max'], rows);
  console.log('SSH blocks are decided from the log line and go into the kernel and the list together.');
  console.log('Port-scan blocks are made in the kernel and copied into the interception list by the agent\'s upkeep tick, so the');
  console.log('list lags by up to one watch interval plus the tick\'s own nft reads (attacks land at random points of the cycle).');
  const summary = scenarios.map((scenario) => {
    const parts = watchIntervals.map((watchMs) => {
      const m = medians.get(`${scenario.name}|${watchMs}`)!;
      return `watch ${watchMs} ms: kernel ${fixed(m.kernel, 0)} ms, interception list ${fixed(m.listed, 0)} ms (${fixed(m.listed / m.kernel, 0)}× the kernel's)`;
    });
    return `${scenario.name}, medians — ${parts.join('; ')}`;
  });
  console.log(`\nSummary: ${summary.join(' | ')}`);
});
