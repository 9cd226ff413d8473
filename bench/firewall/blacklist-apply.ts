/**
 * Blacklist apply benchmark, run by hand as root:
 *   node bench/firewall/blacklist-apply.ts [--sizes 100000,1000000] [--rounds 3] [--cap 300] [--agent-sizes 100000]
 *
 * For each size N, N distinct random public-looking IPv4 addresses go into the kernel four ways,
 * each in a fresh network namespace, the four alternating round by round (the machine is noisy):
 *  - Rampart, as the agent does it: the base table (`planFullRuleset`, empty lists) is loaded first
 *    (not timed), then the set update `planListChange` makes, in chunks of 50,000 addresses (one
 *    `nft -j -f` transaction each: the agent applies one chunk per `firewall.lists.add` call, and
 *    the console imports a long list as calls of 50,000), and also as one transaction of all N.
 *  - one iptables rule per address (`-A INPUT -s IP -j DROP`), one `iptables-nft-restore`, and one
 *    `iptables-legacy-restore`; killed after --cap seconds and reported as "> cap" with the rate
 *    the input was read at until then.
 * Then, once per size in --agent-sizes (default: sizes up to 100,000), the whole agent path: a real
 * agent in the host namespace with its nft bound to a fresh namespace, `firewall.lists.add` calls
 * of 50,000 (SQLite, planning, nft), timed end to end.
 * Every load is checked (sampled set membership every time, the full count once per size and method;
 * iptables rule counts, except iptables-nft above 200,000 where listing takes minutes and the restore's
 * exit status is trusted), untimed, and everything is removed at the end.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient } from '@rampart/agent-client';
import { startAgent } from '@rampart/agent';
import { defaultAttackSettings, listChunkSize } from '@rampart/contracts';
import { createNftExecutor, listSetName, planFullRuleset, planListChange, type AreaResolver, type DesiredFirewall, type NftExecutor } from '@rampart/firewall';
import {
  fixed,
  freshNamespace,
  iptablesRestoreInput,
  log,
  main,
  median,
  numberArg,
  numberListArg,
  onCleanup,
  printTable,
  randomPublicIPv4s,
  randomSource,
  runCapped,
  sleep,
  type Namespace,
} from './support.ts';

const sizes = numberListArg('sizes', [100_000, 1_000_000]);
const rounds = numberArg('rounds', 3);
const capS = numberArg('cap', 300);
const agentSizes = numberListArg('agent-sizes', sizes.some((n) => n <= 100_000) ? sizes.filter((n) => n <= 100_000) : [Math.min(...sizes)]);
const capMs = capS * 1000;

const noAreas: AreaResolver = { ranges: () => ({ v4: [], v6: [] }) };
const blackV4 = listSetName('black', 'host', 4);

function baseDesired(now: number): DesiredFirewall {
  return { rules: [], lists: { super: [], white: [], black: [] }, intercept: [], portScan: { ...defaultAttackSettings.port_scan }, now };
}

interface Measure {
  seconds: number;
  capped: boolean;
  /** For Rampart: the share spent planning (JavaScript), the rest is nft and the kernel. */
  planSeconds?: number;
  /** For a capped run: what had happened by the cap. */
  capNote?: string;
}

type Method = 'rampart-chunks' | 'rampart-one' | 'iptables-nft' | 'iptables-legacy';
const methods: readonly Method[] = ['rampart-chunks', 'rampart-one', 'iptables-nft', 'iptables-legacy'];

/** Rejects after the cap; the caller's namespace teardown kills whatever still runs inside it. */
function capped<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CapError(`${what}: over the ${capS} s cap`)), capMs);
  });
  return Promise.race([work, cap]).finally(() => clearTimeout(timer));
}
class CapError extends Error {}

/**
 * A few addresses (first, last and random ones) must be in the set: `nft get element` fails otherwise.
 * With `count`, the whole set is listed and counted too (about 12 s at a million, so once per size).
 */
async function checkSetHolds(ns: Namespace, addresses: readonly string[], count: boolean): Promise<void> {
  const random = randomSource(addresses.length);
  const sample = [addresses[0]!, addresses.at(-1)!, ...Array.from({ length: 8 }, () => addresses[Math.floor(random() * addresses.length)]!)];
  const result = await ns.exec(['nft', 'get', 'element', 'inet', 'rampart', blackV4, `{ ${[...new Set(sample)].join(', ')} }`]);
  if (result.code !== 0) throw new Error(`blacklist set is missing addresses: ${result.stderr.trim()}`);
  if (!count) return;
  const listing = await ns.exec(['nft', '-j', 'list', 'set', 'inet', 'rampart', blackV4], { timeoutMs: 300_000 });
  const elements = (JSON.parse(listing.stdout) as { nftables: Array<{ set?: { elem?: unknown[] } }> }).nftables.find((item) => item.set)?.set?.elem?.length ?? 0;
  if (elements !== addresses.length) throw new Error(`blacklist set holds ${elements} elements, expected ${addresses.length}`);
}

async function measureRampart(addresses: readonly string[], chunk: number, countCheck: boolean): Promise<Measure> {
  const ns = await freshNamespace('rampart');
  try {
    const nft = createNftExecutor({ netns: ns.name });
    await nft.apply(planFullRuleset(baseDesired(Date.now()), noAreas).script);
    let planMs = 0;
    const start = performance.now();
    try {
      await capped(
        (async () => {
          for (let i = 0; i < addresses.length; i += chunk) {
            const planStart = performance.now();
            // As the agent's listDelta builds it from the rows it just stored.
            const addedHosts = addresses.slice(i, i + chunk).map((address) => ({ address, expires_at: null }));
            const script = planListChange({ list: 'black', addedHosts, removedHosts: [], netsBefore: [], netsAfter: [], now: Date.now() });
            planMs += performance.now() - planStart;
            await nft.apply(script);
          }
        })(),
        'Rampart set update',
      );
    } catch (error) {
      if (error instanceof CapError) return { seconds: capS, capped: true, capNote: 'Rampart set update over the cap' };
      throw error;
    }
    const seconds = (performance.now() - start) / 1000;
    await checkSetHolds(ns, addresses, countCheck);
    return { seconds, capped: false, planSeconds: planMs / 1000 };
  } finally {
    await ns.destroy();
  }
}

async function measureIptables(kind: 'nft' | 'legacy', input: string, count: number): Promise<Measure> {
  const ns = await freshNamespace(`ipt-${kind}`);
  try {
    const result = await runCapped(['ip', 'netns', 'exec', ns.name, `iptables-${kind}-restore`], input, capMs);
    if (result.capped) {
      // Rules read so far: lines in the consumed part, minus the "*filter" line.
      let rules = -1;
      for (let at = input.indexOf('\n'); at >= 0 && at < result.consumedBytes; at = input.indexOf('\n', at + 1)) rules += 1;
      rules = Math.max(0, Math.min(count, rules));
      const capNote = Number.isNaN(result.inputReadSeconds)
        ? `iptables-${kind}-restore read ${rules.toLocaleString()} of ${count.toLocaleString()} rules in ${capS} s ` +
          `(${Math.round(rules / capS).toLocaleString()} rules/s); nothing committed (one transaction)`
        : `iptables-${kind}-restore read all ${count.toLocaleString()} rules in ${fixed(result.inputReadSeconds, 1)} s ` +
          `(${Math.round(count / result.inputReadSeconds).toLocaleString()} rules/s), its commit was still running at ${capS} s`;
      return { seconds: capS, capped: true, capNote };
    }
    if (result.code !== 0) throw new Error(`iptables-${kind}-restore failed (${result.code}): ${result.stderr.trim()}`);
    // The restore is one transaction, so exit 0 means every rule is in. Counting them as well costs
    // little for legacy (one table blob), but minutes for iptables-nft at a million (2 min 19 s here).
    if (kind === 'nft' && count > 200_000) return { seconds: result.seconds, capped: false };
    const counted = await ns.exec(['sh', '-c', `iptables-${kind}-save -t filter | grep -c '^-A INPUT -s'`], { timeoutMs: 300_000 });
    if (Number(counted.stdout.trim()) !== count) throw new Error(`iptables-${kind}: ${counted.stdout.trim()} rules loaded, expected ${count}`);
    return { seconds: result.seconds, capped: false };
  } finally {
    await ns.destroy();
  }
}

interface AgentMeasure {
  seconds: number;
  /** Time inside `nft -j -f` (the kernel update); the rest is the agent: validation, SQLite, planning. */
  nftSeconds: number;
  chunkSeconds: number[];
}

/** The agent in the host namespace, nft bound to a fresh namespace; lists.add calls of 50,000. */
async function measureAgent(addresses: readonly string[]): Promise<AgentMeasure> {
  const ns = await freshNamespace('agent');
  const dir = await mkdtemp(join(tmpdir(), 'rampart-bench-fw-'));
  const removeDir = onCleanup(`temp dir ${dir}`, () => rm(dir, { recursive: true, force: true }));
  const inner = createNftExecutor({ netns: ns.name });
  let nftMs = 0;
  const nft: NftExecutor = {
    async apply(script) {
      const start = performance.now();
      try {
        await inner.apply(script);
      } finally {
        nftMs += performance.now() - start;
      }
    },
    read: (args) => inner.read(args),
  };
  const agentLog: string[] = [];
  const agent = await startAgent({
    socketPath: join(dir, 'agent.sock'),
    stateDir: join(dir, 'state'),
    log: (line) => agentLog.push(line),
    executors: { restartSoftware: async () => {}, rebootServer: async () => {} },
    // The host's journal is none of this benchmark's business (log files named in the settings are only tailed).
    firewall: { nft, background: false, sensors: { journal: false } },
  });
  const stopAgent = onCleanup('agent', () => agent.close());
  const client = new AgentClient(join(dir, 'agent.sock'), { timeoutMs: capMs });
  try {
    await client.call('module.switch', { modules: ['firewall'], status: 1 });
    const status = await client.call('firewall.status', {});
    if (status.kernel !== 'ok') throw new Error(`agent firewall not applied: ${status.kernel} ${status.message}`);
    nftMs = 0;
    const chunkSeconds: number[] = [];
    const start = performance.now();
    for (let i = 0; i < addresses.length; i += listChunkSize) {
      const chunk = addresses.slice(i, i + listChunkSize);
      const chunkStart = performance.now();
      const change = await client.call('firewall.lists.add', {
        list: 'black', addresses: chunk, remark: '', expires_at: null, guard: { admin_ip: null, panel_port: 6688, account: '' },
      });
      chunkSeconds.push((performance.now() - chunkStart) / 1000);
      if (change.refused || change.changed !== chunk.length) throw new Error(`lists.add: ${JSON.stringify(change)}`);
    }
    const seconds = (performance.now() - start) / 1000;
    const after = await client.call('firewall.status', {});
    if (after.kernel !== 'ok' || after.counts.black !== addresses.length) throw new Error(`agent after the import: ${JSON.stringify(after)}\n${agentLog.join('\n')}`);
    await checkSetHolds(ns, addresses, true);
    return { seconds, nftSeconds: nftMs / 1000, chunkSeconds };
  } finally {
    client.close();
    await stopAgent();
    await removeDir();
    await ns.destroy();
  }
}

function cell(measures: readonly Measure[] | undefined): string {
  if (!measures || measures.length === 0) return '—';
  if (measures.some((m) => m.capped)) return `> ${capS}`;
  return fixed(median(measures.map((m) => m.seconds)), 2);
}

function ratio(numerator: readonly Measure[] | undefined, denominator: readonly Measure[] | undefined): string {
  if (!numerator?.length || !denominator?.length || denominator.some((m) => m.capped)) return '—';
  const n = median(numerator.map((m) => m.seconds));
  const d = median(denominator.map((m) => m.seconds));
  return `${numerator.some((m) => m.capped) ? '> ' : ''}${fixed(n / d, 1)}×`;
}

await main(async () => {
  log(`sizes ${sizes.join(', ')}; ${rounds} alternating rounds; cap ${capS} s; agent path at ${agentSizes.join(', ')}`);
  const results = new Map<number, Partial<Record<Method, Measure[]>>>();
  const agentResults = new Map<number, AgentMeasure>();
  const notes: string[] = [];

  for (const size of sizes) {
    const addresses = randomPublicIPv4s(size, size);
    const input = iptablesRestoreInput(addresses);
    const perMethod: Partial<Record<Method, Measure[]>> = {};
    results.set(size, perMethod);
    for (let round = 0; round < rounds; round++) {
      // Rotated each round, so a drift of the machine does not always hit the same method.
      const order = methods.map((_, i) => methods[(i + round) % methods.length]!);
      for (const method of order) {
        const earlier = perMethod[method] ?? [];
        // A method over the cap once is not run again at this size.
        if (earlier.some((m) => m.capped)) continue;
        await sleep(500);
        const measure =
          method === 'rampart-chunks' ? await measureRampart(addresses, listChunkSize, earlier.length === 0)
          : method === 'rampart-one' ? await measureRampart(addresses, addresses.length, earlier.length === 0)
          : method === 'iptables-nft' ? await measureIptables('nft', input, size)
          : await measureIptables('legacy', input, size);
        perMethod[method] = [...earlier, measure];
        const plan = measure.planSeconds === undefined ? '' : ` (planning ${fixed(measure.planSeconds, 2)} s)`;
        log(`  ${size.toLocaleString()} round ${round + 1}: ${method.padEnd(15)} ${measure.capped ? `> ${capS} s` : `${fixed(measure.seconds, 3)} s${plan}`}`);
        if (measure.capNote) notes.push(`${size.toLocaleString()}: ${measure.capNote}`);
      }
    }
    if (agentSizes.includes(size)) {
      await sleep(500);
      log(`  ${size.toLocaleString()}: the agent path (${Math.ceil(size / listChunkSize)} lists.add calls of ${listChunkSize.toLocaleString()})`);
      const measure = await measureAgent(addresses);
      agentResults.set(size, measure);
      log(`  ${size.toLocaleString()}: agent ${fixed(measure.seconds, 2)} s, of which nft ${fixed(measure.nftSeconds, 2)} s; ` +
        `first call ${fixed(measure.chunkSeconds[0]!, 2)} s, last ${fixed(measure.chunkSeconds.at(-1)!, 2)} s`);
    }
  }

  console.log(`\nBlacklist apply, seconds (median of ${rounds} alternating rounds, each in a fresh namespace; nft 1.0.6, iptables 1.8.9):`);
  printTable(
    ['addresses', 'Rampart 50k chunks', 'Rampart 1 tx', 'agent path', 'iptables-nft', 'iptables-legacy', 'nft ÷ Rampart', 'legacy ÷ Rampart'],
    sizes.map((size) => {
      const r = results.get(size)!;
      const agent = agentResults.get(size);
      return [
        size.toLocaleString(), cell(r['rampart-chunks']), cell(r['rampart-one']), agent ? fixed(agent.seconds, 2) : 'not run',
        cell(r['iptables-nft']), cell(r['iptables-legacy']), ratio(r['iptables-nft'], r['rampart-chunks']), ratio(r['iptables-legacy'], r['rampart-chunks']),
      ];
    }),
  );
  console.log('Rampart 50k chunks is what the agent does (one transaction per firewall.lists.add call of at most 50,000 addresses);');
  console.log('"Rampart 1 tx" is the same update as a single transaction. The ratios divide by the 50k-chunk time.');
  for (const [size, agent] of agentResults) {
    console.log(`agent path at ${size.toLocaleString()}: ${fixed(agent.seconds, 2)} s = nft ${fixed(agent.nftSeconds, 2)} s + agent (validation, SQLite, planning) ` +
      `${fixed(agent.seconds - agent.nftSeconds, 2)} s; per call ${agent.chunkSeconds.map((s) => fixed(s, 2)).join(', ')} s`);
  }
  for (const note of notes) console.log(`capped: ${note}`);
  const summary = sizes.map((size) => {
    const r = results.get(size)!;
    return `${size.toLocaleString()}: iptables-nft ${ratio(r['iptables-nft'], r['rampart-chunks'])}, iptables-legacy ${ratio(r['iptables-legacy'], r['rampart-chunks'])}, one tx ${ratio(r['rampart-one'], r['rampart-chunks'])}`;
  });
  console.log(`\nSummary (time ÷ Rampart's 50k-chunk set update; > 1 means slower than Rampart): ${summary.join('; ')}`);
});
