import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardHelloSchema, guardNetBits, guardNetDenialSchema, guardPlanSchema, type GuardNetDenial, type GuardPlan } from '@rampart/contracts';

/*
 * Network denial per executable (src/net.bpf.c, cgroup connect4/6 + sendmsg4/6) on this machine's
 * real kernel, attached to a test cgroup only: the test's actors move themselves into it, real sockets
 * on loopback. The actors are copies of tests/net/netprobe.c at their own inodes.
 */
const guardDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const helperBin = path.join(guardDir, 'build/rampart-guard');
const isRoot = process.getuid?.() === 0;
const { tcp4, tcp6, udp4, udp6 } = guardNetBits;

function cgroup2Mount(): string | undefined {
  try {
    const line = readFileSync('/proc/self/mounts', 'utf8').split('\n').find((l) => l.split(' ')[2] === 'cgroup2');
    return line?.split(' ')[1];
  } catch {
    return undefined;
  }
}
const cgroupRoot = cgroup2Mount();
const skipReason = !isRoot ? 'needs root' : !cgroupRoot ? 'no cgroup v2 mount' : '';

let dir = '';
let cg = '';
let socket = '';
let helper: ChildProcess | undefined;
let events: string[] = [];
const servers: { close(): void }[] = [];
const ports = { v4: 0, v4b: 0, v6: 0, udp4: 0 };

const exe = (name: string) => path.join(dir, name);
function inode(file: string) {
  const st = statSync(file);
  return { dev: st.dev, ino: st.ino };
}

/** Runs one netprobe copy inside the test cgroup (or outside) and returns what it printed. */
function probe(name: string, args: string[], inside = true): string {
  const cmd = inside ? ['sh', ['-c', `echo $$ > ${cg}/cgroup.procs && exec "$0" "$@"`, exe(name), ...args]] : [exe(name), args];
  const run = spawnSync(cmd[0] as string, cmd[1] as string[], { encoding: 'utf8', timeout: 10_000 });
  if (run.status !== 0) throw new Error(`netprobe ${args.join(' ')}: ${run.stderr}`);
  return run.stdout.trim();
}

/** Rule 0: no TCP or UDP except to 127.0.0.2. Rule 1: none except ::1. Rule 2: no UDP. */
function plan(overrides: Partial<GuardPlan> = {}): GuardPlan {
  return guardPlanSchema.parse({
    generation: 1,
    enforce: true,
    objects: [],
    sets: [],
    exes: [],
    trusted_pids: [],
    net: {
      rules: [
        { rule: 'process:1', deny: tcp4 | tcp6 | udp4 | udp6, allow: ['127.0.0.2/32'] },
        { rule: 'process:2', deny: tcp4 | tcp6 | udp4 | udp6, allow: ['::1/128'] },
        { rule: 'process:3', deny: udp4 | udp6, allow: [] },
      ],
      exes: [
        { ...inode(exe('restricted')), path: exe('restricted'), rules: [0] },
        { ...inode(exe('v6only')), path: exe('v6only'), rules: [1] },
        { ...inode(exe('noudp')), path: exe('noudp'), rules: [2] },
      ],
    },
    ...overrides,
  });
}

/** The attach types of the programs attached to a cgroup (bpftool), [] when none or no bpftool. */
function attachedTo(cgroup: string): string[] {
  const out = spawnSync('bpftool', ['cgroup', 'show', cgroup, '--json'], { encoding: 'utf8' });
  return (JSON.parse(out.stdout?.trim() || '[]') as { attach_type: string }[]).map((p) => p.attach_type);
}

async function ask(requests: object[]): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const conn = net.createConnection(socket);
    const answers: Record<string, unknown>[] = [];
    let buffer = '';
    conn.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const msg = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
        buffer = buffer.slice(nl + 1);
        if ('id' in msg) answers.push(msg);
        if (answers.length === requests.length) {
          conn.end();
          resolve(answers);
        }
      }
    });
    conn.on('error', reject);
    conn.write(requests.map((r) => `${JSON.stringify(r)}\n`).join(''));
  });
}

async function apply(p: GuardPlan): Promise<Record<string, unknown>> {
  const [answer] = await ask([{ id: 1, op: 'apply', plan: p }]);
  if (!answer?.ok) throw new Error(`apply failed: ${String(answer?.error)}`);
  return answer;
}

async function listenTcp(host: string): Promise<number> {
  const server = net.createServer((c) => c.destroy());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as net.AddressInfo).port;
}

async function startHelper(cgroup: string): Promise<void> {
  socket = path.join(dir, `h${Date.now()}.sock`);
  events = [];
  // The pin dir is not on bpffs: the links end with the helper.
  helper = spawn(helperBin, ['--socket', socket, '--backend', 'auto', '--pin-dir', path.join(dir, 'pins'), '--cgroup', cgroup, '--events-stdout'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  helper.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    const lines = out.split('\n');
    out = lines.pop() ?? '';
    events.push(...lines.filter(Boolean));
  });
  for (let i = 0; i < 100 && !existsSync(socket); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!existsSync(socket)) throw new Error('helper did not open its socket');
}

async function stopHelper(): Promise<void> {
  if (helper && helper.exitCode === null) {
    const exited = new Promise((resolve) => helper?.once('exit', resolve));
    helper.kill('SIGTERM');
    await exited;
  }
  helper = undefined;
}

async function netEvents(count: number): Promise<GuardNetDenial[]> {
  for (let i = 0; i < 60; i++) {
    const found = events.map((l) => JSON.parse(l) as { event: string }).filter((e) => e.event === 'net_denied');
    if (found.length >= count) return found.map((e) => guardNetDenialSchema.parse(e));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`expected ${count} net_denied events, got: ${events.join('\n')}`);
}

describe.skipIf(skipReason !== '')(`network denial per executable in a test cgroup${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  beforeAll(async () => {
    const make = spawnSync('make', ['-s', '-C', guardDir], { encoding: 'utf8' });
    if (make.status !== 0) throw new Error(`make failed:\n${make.stdout}${make.stderr}`);
    dir = mkdtempSync(path.join(os.tmpdir(), 'rampart-guard-net-'));
    for (const name of ['restricted', 'v6only', 'noudp', 'free']) copyFileSync(path.join(guardDir, 'build/netprobe'), exe(name));
    spawnSync('chmod', ['755', ...['restricted', 'v6only', 'noudp', 'free'].map(exe)]);
    cg = path.join(cgroupRoot as string, `rampart-net-test-${process.pid}`);
    mkdirSync(cg);
    ports.v4 = await listenTcp('127.0.0.1');
    ports.v4b = await listenTcp('127.0.0.2');
    ports.v6 = await listenTcp('::1');
    const udp = dgram.createSocket('udp4');
    servers.push(udp);
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    ports.udp4 = udp.address().port;
    await startHelper(cg);
  });

  afterAll(async () => {
    await stopHelper();
    for (const s of servers) s.close();
    if (cg) rmdirSync(cg); // empty: every actor has exited
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports that the network programs run, attached only once a plan restricts an executable', async () => {
    const [hello] = await ask([{ id: 1, op: 'hello' }]);
    expect(guardHelloSchema.parse(hello?.hello)).toMatchObject({ net: true, net_cause: '' });
    expect(hello?.hello).toMatchObject({ net_attached: false });
    expect(attachedTo(cg)).toEqual([]);
    await apply(plan({ generation: 0 }));
    const [after] = await ask([{ id: 2, op: 'hello' }]);
    expect(after?.hello).toMatchObject({ net_attached: true });
    expect(attachedTo(cg).sort()).toEqual(['cgroup_inet4_connect', 'cgroup_inet6_connect', 'cgroup_udp4_sendmsg', 'cgroup_udp6_sendmsg']);
  });

  it('denies a restricted executable TCP and UDP, v4 and v6, except to its allowed peer', async () => {
    expect(await apply(plan())).toMatchObject({ applied: { generation: 1, net_rules: 3, net_exes: 3 } });
    expect(probe('restricted', ['tcp', '127.0.0.1', String(ports.v4)])).toBe('EPERM');
    expect(probe('restricted', ['udp', '127.0.0.1', String(ports.udp4)])).toBe('EPERM');
    expect(probe('restricted', ['udpc', '127.0.0.1', String(ports.udp4)])).toBe('EPERM');
    expect(probe('restricted', ['tcp', '::1', String(ports.v6)])).toBe('EPERM');
    expect(probe('restricted', ['udp', '::1', String(ports.v6)])).toBe('EPERM');
    // a v4 peer reached through a dual-stack socket is still a v4 peer
    expect(probe('restricted', ['tcp', '::ffff:127.0.0.1', String(ports.v4)])).toBe('EPERM');
    expect(probe('restricted', ['tcp', '127.0.0.2', String(ports.v4b)])).toBe('ok');
  });

  it('allows an IPv6 peer in an IPv6 allow list and denies the rest', () => {
    expect(probe('v6only', ['tcp', '::1', String(ports.v6)])).toBe('ok');
    expect(probe('v6only', ['tcp', '127.0.0.1', String(ports.v4)])).toBe('EPERM');
  });

  it('a deny-UDP rule leaves TCP alone', () => {
    expect(probe('noudp', ['tcp', '127.0.0.1', String(ports.v4)])).toBe('ok');
    expect(probe('noudp', ['udp', '127.0.0.1', String(ports.udp4)])).toBe('EPERM');
    expect(probe('noudp', ['udp', '::1', String(ports.v6)])).toBe('EPERM');
  });

  it('leaves unrestricted executables in the cgroup and every process outside it alone', () => {
    expect(probe('free', ['tcp', '127.0.0.1', String(ports.v4)])).toBe('ok');
    expect(probe('free', ['udp', '127.0.0.1', String(ports.udp4)])).toBe('ok');
    expect(probe('free', ['tcp', '::1', String(ports.v6)])).toBe('ok');
    expect(probe('restricted', ['tcp', '127.0.0.1', String(ports.v4)], false)).toBe('ok');
    expect(probe('restricted', ['udp', '::1', String(ports.v6)], false)).toBe('ok');
  });

  it('reports each denial with protocol, peer, port, executable and rule', async () => {
    const all = await netEvents(1);
    const tcp = all.find((e) => e.proto === 'tcp' && e.peer === '127.0.0.1' && e.port === ports.v4 && e.rule === 'process:1');
    expect(tcp).toMatchObject({ family: 4, exe: exe('restricted'), comm: 'restricted', uid: 0, repeats: 1 });
    expect(all).toContainEqual(expect.objectContaining({ proto: 'udp', family: 6, peer: '::1', port: ports.v6, rule: 'process:3', exe: exe('noudp') }));
    expect(all).toContainEqual(expect.objectContaining({ proto: 'udp', family: 4, peer: '127.0.0.1', port: ports.udp4, rule: 'process:1' }));
  });

  it('stops denying when the plan pauses enforcement or drops the net part', async () => {
    await apply(plan({ generation: 2, enforce: false }));
    expect(probe('restricted', ['tcp', '127.0.0.1', String(ports.v4)])).toBe('ok');
    await apply(plan({ generation: 3 }));
    expect(probe('restricted', ['tcp', '127.0.0.1', String(ports.v4)])).toBe('EPERM');
    const { net: _net, ...withoutNet } = plan({ generation: 4 });
    expect(await apply(withoutNet)).toMatchObject({ applied: { net_rules: 0, net_exes: 0 } });
    expect(probe('restricted', ['tcp', '127.0.0.1', String(ports.v4)])).toBe('ok');
    expect(probe('noudp', ['udp', '127.0.0.1', String(ports.udp4)])).toBe('ok');
  });

  it('refuses net parts the schema refuses, and changes nothing', async () => {
    await apply(plan({ generation: 5 }));
    const bad = plan({ generation: 6 });
    const answers = await ask([
      { id: 1, op: 'apply', plan: { ...bad, net: { ...bad.net, rules: [{ ...bad.net!.rules[0], allow: ['127.0.0.1/8'] }] } } },
      { id: 2, op: 'apply', plan: { ...bad, net: { ...bad.net, rules: [bad.net!.rules[0]] } } }, // exes name rules 1 and 2
      { id: 3, op: 'apply', plan: { ...bad, net: { ...bad.net, rules: [{ ...bad.net!.rules[0], deny: 16 }] } } },
    ]);
    expect(answers.map((a) => a.ok)).toEqual([false, false, false]);
    expect(answers[0]?.error).toContain('host bits');
    expect(answers[1]?.error).toContain('indexes of plan.net.rules');
    expect(answers[2]?.error).toContain('deny');
    expect(probe('restricted', ['tcp', '127.0.0.1', String(ports.v4)])).toBe('EPERM'); // generation 5 still holds
  });

  it('ends enforcement with the helper when nothing is pinned', async () => {
    await stopHelper();
    expect(probe('restricted', ['tcp', '127.0.0.1', String(ports.v4)])).toBe('ok');
  });

  it('says why when the cgroup is not a cgroup v2, or net is switched off', async () => {
    await startHelper(dir);
    const [hello] = await ask([{ id: 1, op: 'hello' }]);
    expect(guardHelloSchema.parse(hello?.hello)).toMatchObject({ net: false, net_cause: 'net_no_cgroup2' });
    // a plan with a net part still applies (its file part matters); nothing enforces the net part
    const [answer] = await ask([{ id: 2, op: 'apply', plan: plan({ generation: 7 }) }]);
    expect(answer).toMatchObject({ ok: true, applied: { generation: 7, net_rules: 0, net_exes: 0 } });
    await stopHelper();
    await startHelper('none');
    const [off] = await ask([{ id: 1, op: 'hello' }]);
    expect(guardHelloSchema.parse(off?.hello)).toMatchObject({ net: false, net_cause: 'net_off' });
    await stopHelper();
  });
});
