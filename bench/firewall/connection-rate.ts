/**
 * Connection rate benchmark, run by hand as root:
 *   node bench/firewall/connection-rate.ts [--seconds 5] [--rounds 3] [--concurrency 16] [--entries 1000000] [--cap 300]
 *
 * New TCP connections per second from attacker to a listener in server (the test lab: two network
 * namespaces joined by a veth pair), through three configurations, each in its own lab so none has
 * to be reloaded between rounds:
 *   (a) no ruleset at all;
 *   (b) Rampart's full table (`planFullRuleset`) with a blacklist of --entries random addresses (not
 *       the attacker's), a few inbound and outbound rules and port-scan detection at its defaults;
 *   (c) the same addresses as one iptables-nft rule each (`-A INPUT -s IP -j DROP`), skipped when
 *       loading them takes longer than --cap seconds.
 * Rounds alternate (a, b, c, then b, c, a, ...); each round is --seconds of a connect-and-close loop
 * with --concurrency connections in flight, run by tcp-load.ts inside the attacker namespace against
 * tcp-load.ts serving in the server namespace. Reported: connections/s (median of the rounds, each round
 * shown too), the ratio to (a), and connect latency p50/p99 (median of the rounds' values).
 * One blacklisted address (10.77.1.3, added on attacker's link) proves (b) and (c) really drop.
 */
import { fileURLToPath } from 'node:url';
import { defaultAttackSettings, type FirewallRule } from '@rampart/contracts';
import { createNftExecutor, planFullRuleset, type AreaResolver, type DesiredFirewall } from '@rampart/firewall';
import { LAB_IP, createLab, type Lab } from '../../packages/firewall/tests/support/lab.ts';
import { fixed, iptablesRestoreInput, log, main, median, numberArg, onCleanup, printTable, randomPublicIPv4s, runCapped, sleep } from './support.ts';

const seconds = numberArg('seconds', 5);
const rounds = numberArg('rounds', 3);
const concurrency = numberArg('concurrency', 16);
const entries = numberArg('entries', 1_000_000);
const capS = numberArg('cap', 300);
const connectTimeoutMs = numberArg('timeout-ms', 3000);

const TCP_LOAD = fileURLToPath(new URL('./tcp-load.ts', import.meta.url));
const PORT = 8080;
const server = LAB_IP.server.toAttacker.v4;
/** A second attacker address, put in the blacklist: probes from it must time out in (b) and (c). */
const CANARY = '10.77.1.3';

type ConfigName = 'none' | 'rampart' | 'iptables';
const labels: Record<ConfigName, string> = {
  none: '(a) no ruleset',
  rampart: `(b) Rampart, ${entries.toLocaleString()} blacklisted`,
  iptables: `(c) iptables-nft, ${entries.toLocaleString()} rules`,
};

interface Round {
  connections: number;
  failed: number;
  timedOut: number;
  perSecond: number;
  p50: number | null;
  p99: number | null;
}

const noAreas: AreaResolver = { ranges: () => ({ v4: [], v6: [] }) };

function fewRules(now: number): FirewallRule[] {
  const rule = (fields: Partial<FirewallRule> & Pick<FirewallRule, 'id'>): FirewallRule => ({
    direction: 'in', protocol: 'tcp', ports: '*', ips: ['*'], areas: [], action: 'allow', priority: 50, enabled: true, remark: '', created_at: now, updated_at: now, ...fields,
  });
  return [
    rule({ id: 1, ports: `80,443,${PORT}`, priority: 10 }),
    rule({ id: 2, protocol: 'tcp_udp', ports: '53', ips: ['10.0.0.0/8', '192.168.1.10-192.168.1.20'], action: 'deny', priority: 5 }),
    rule({ id: 3, ports: '22', ips: ['10.9.9.9'], priority: 5 }),
    rule({ id: 4, ports: '22', action: 'deny', priority: 20 }),
    rule({ id: 5, protocol: 'icmp', ips: ['203.0.113.7'], action: 'deny', priority: 20 }),
    rule({ id: 6, direction: 'out', ports: '25', action: 'deny', priority: 1 }),
  ];
}

/** A lab with the tcp-load server listening in server, the canary address on attacker, and room for many connections. */
async function prepareLab(): Promise<Lab> {
  const lab = await createLab();
  onCleanup('lab', () => lab.destroy());
  // Many short connections from one address: the whole port range, and TIME_WAIT ports reused.
  await lab.exec('attacker', ['sysctl', '-qw', 'net.ipv4.ip_local_port_range=1024 65535', 'net.ipv4.tcp_tw_reuse=1']);
  await lab.addAddress('attacker', `${CANARY}/24`);
  const child = lab.spawn('server', [process.execPath, TCP_LOAD, 'serve', String(PORT)]);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`tcp-load serve exited (${code})`)));
  });
  return lab;
}

/** The attacker reaches the port; the canary does not (or does, with no ruleset). */
async function check(lab: Lab, config: ConfigName): Promise<void> {
  const attacker = await lab.peer('attacker');
  const [plain, canary] = await attacker.probeMany([
    { proto: 'tcp', host: server, port: PORT, timeoutMs: 2000 },
    { proto: 'tcp', host: server, port: PORT, timeoutMs: 1000, sourceAddress: CANARY },
  ]);
  const expected = config === 'none' ? 'open' : 'timeout';
  if (plain?.state !== 'open' || canary?.state !== expected) {
    throw new Error(`${labels[config]}: attacker ${plain?.state}, blacklisted canary ${canary?.state} (expected open, ${expected})`);
  }
}

async function load(lab: Lab, forSeconds: number): Promise<Round> {
  const result = await lab.exec(
    'attacker',
    [process.execPath, TCP_LOAD, 'connect', server, String(PORT), String(forSeconds), String(concurrency), String(connectTimeoutMs)],
    { timeoutMs: (forSeconds + 60) * 1000 + connectTimeoutMs },
  );
  if (result.code !== 0) throw new Error(`tcp-load connect failed (${result.code}): ${result.stderr.trim()}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Round;
}

await main(async () => {
  log(`${rounds} alternating rounds × ${seconds} s, ${concurrency} connections in flight, blacklist of ${entries.toLocaleString()}`);
  const addresses = [...randomPublicIPv4s(entries - 1, entries, [LAB_IP.attacker.v4]), CANARY];
  const labs = new Map<ConfigName, Lab>();
  const notes: string[] = [];

  labs.set('none', await prepareLab());
  await check(labs.get('none')!, 'none');

  {
    const lab = await prepareLab();
    const now = Date.now();
    const desired: DesiredFirewall = {
      rules: fewRules(now),
      lists: { super: [], white: [], black: addresses.map((address) => ({ address, expires_at: null })) },
      intercept: [],
      portScan: { ...defaultAttackSettings.port_scan },
      now,
    };
    const start = performance.now();
    const { script } = planFullRuleset(desired, noAreas);
    const planned = performance.now();
    await createNftExecutor({ netns: lab.names.server }).apply(script);
    const loaded = performance.now();
    notes.push(`(b) full table with ${entries.toLocaleString()} blacklisted: planned in ${fixed((planned - start) / 1000, 2)} s, nft in ${fixed((loaded - planned) / 1000, 2)} s`);
    log(notes.at(-1)!);
    await check(lab, 'rampart');
    labs.set('rampart', lab);
  }

  {
    const lab = await prepareLab();
    const result = await runCapped(['ip', 'netns', 'exec', lab.names.server, 'iptables-nft-restore'], iptablesRestoreInput(addresses), capS * 1000);
    if (result.capped) {
      notes.push(`(c) skipped: iptables-nft-restore of ${entries.toLocaleString()} rules did not finish within the ${capS} s cap`);
      await lab.destroy();
    } else {
      if (result.code !== 0) throw new Error(`iptables-nft-restore failed (${result.code}): ${result.stderr.trim()}`);
      notes.push(`(c) ${entries.toLocaleString()} iptables-nft rules loaded in ${fixed(result.seconds, 2)} s`);
      await check(lab, 'iptables');
      labs.set('iptables', lab);
    }
    log(notes.at(-1)!);
  }

  const configs = [...labs.keys()];
  const results = new Map<ConfigName, Round[]>(configs.map((name) => [name, []]));
  log('warm-up: 1 s each');
  for (const name of configs) await load(labs.get(name)!, 1);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < configs.length; i++) {
      const name = configs[(i + round) % configs.length]!;
      const lab = labs.get(name)!;
      // Connections of the last round sit in conntrack (TIME_WAIT); each round starts from an empty table.
      await lab.exec('server', ['conntrack', '-F']);
      await sleep(1000);
      const r = await load(lab, seconds);
      results.get(name)!.push(r);
      log(`round ${round + 1}: ${labels[name].padEnd(34)} ${fixed(r.perSecond, 0).padStart(7)} conn/s  p50 ${fixed(r.p50 ?? NaN, 2)} ms  p99 ${fixed(r.p99 ?? NaN, 2)} ms  failed ${r.failed + r.timedOut}`);
    }
  }

  // The median round: on a shared 2-core machine one round now and then loses half its CPU to a neighbour.
  const rate = (name: ConfigName) => median(results.get(name)!.map((r) => r.perSecond));
  const base = rate('none');
  console.log(`\nNew TCP connections/s, attacker → server over a veth, ${concurrency} in flight, ${rounds} alternating rounds × ${seconds} s:`);
  printTable(
    ['configuration', 'conn/s (median)', 'each round', 'vs (a)', 'p50 ms', 'p99 ms', 'failed'],
    configs.map((name) => {
      const rs = results.get(name)!;
      return [
        labels[name], fixed(rate(name), 0), rs.map((r) => fixed(r.perSecond, 0)).join(' / '), `${fixed(rate(name) / base, 3)}×`,
        fixed(median(rs.map((r) => r.p50 ?? NaN)), 2), fixed(median(rs.map((r) => r.p99 ?? NaN)), 2), String(rs.reduce((s, r) => s + r.failed + r.timedOut, 0)),
      ];
    }),
  );
  for (const note of notes) console.log(note);
  const summary = configs.filter((name) => name !== 'none').map((name) => `${labels[name]} ${fixed(rate(name) / base, 3)}× the connection rate of no ruleset, p99 ${fixed(median(results.get(name)!.map((r) => r.p99 ?? NaN)) / median(results.get('none')!.map((r) => r.p99 ?? NaN)), 1)}×`);
  if (!labs.has('iptables')) summary.push('(c) not measured (load over the cap)');
  console.log(`\nSummary: ${summary.join('; ')}`);
});
