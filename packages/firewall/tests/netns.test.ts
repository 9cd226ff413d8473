import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { LAB_IP, canUseNetns, createLab, type Lab } from './support/lab.ts';
import { portScan } from './support/nmap.ts';
import { listRuleset, nft } from './support/nft.ts';
import type { Peer, ProbeSpec } from './support/peer.ts';
import { failedLogins, startSshd } from './support/ssh.ts';

const TCP_OPEN = 8080;
const TCP_DROPPED = 8081;
const UDP_OPEN = 5353;
const CLOSED = 8090;

/** A table (`family name`) with one input-hook chain holding `rule`. */
function inputChain(table: string, rule: string): string {
  return `table ${table} {
  chain input {
    type filter hook input priority 0;
    ${rule}
  }
}
`;
}

/** Proves the harness itself: real packets between namespaces, probes, nft, nmap and sshd. */
describe.skipIf(!canUseNetns())('netns lab harness', () => {
  let lab: Lab;
  let server: Peer;

  beforeAll(async () => {
    lab = await createLab();
    server = await lab.peer('server');
    for (const port of [TCP_OPEN, TCP_DROPPED]) await server.listen({ proto: 'tcp', port });
    await server.listen({ proto: 'udp', port: UDP_OPEN });
  });
  afterAll(() => lab?.destroy());

  /** Open and closed TCP and UDP ports on both of server's addresses on the link. */
  function fourWays(host: string): ProbeSpec[] {
    return [
      { proto: 'tcp', host, port: TCP_OPEN },
      { proto: 'tcp', host, port: CLOSED },
      { proto: 'udp', host, port: UDP_OPEN },
      { proto: 'udp', host, port: CLOSED },
    ];
  }

  it.each([
    ['attacker', LAB_IP.server.toAttacker],
    ['third', LAB_IP.server.toThird],
  ] as const)('%s sees open and refused TCP and UDP ports over IPv4 and IPv6', async (ns, serverIp) => {
    const peer = await lab.peer(ns);
    const results = await peer.probeMany([...fourWays(serverIp.v4), ...fourWays(serverIp.v6)]);
    expect(results.map((r) => `${r.proto} ${r.host} ${r.port} ${r.state}`)).toEqual(
      [serverIp.v4, serverIp.v6].flatMap((host) => [
        `tcp ${host} ${TCP_OPEN} open`,
        `tcp ${host} ${CLOSED} refused`,
        `udp ${host} ${UDP_OPEN} open`,
        `udp ${host} ${CLOSED} refused`,
      ]),
    );
  });

  it('a hand-loaded nft drop for attacker times attacker out while third gets through', async () => {
    await nft(lab, 'server', inputChain('inet harness', `ip saddr ${LAB_IP.attacker.v4} tcp dport ${TCP_DROPPED} drop`));
    onTestFinished(() => nft(lab, 'server', 'delete table inet harness'));

    const tables = (await listRuleset(lab, 'server')).nftables.flatMap((entry) => ('table' in entry ? [entry.table] : []));
    expect(tables).toContainEqual(expect.objectContaining({ family: 'inet', name: 'harness' }));

    const [attacker, third] = await Promise.all([lab.peer('attacker'), lab.peer('third')]);
    const [dropped, passed] = await Promise.all([
      attacker.probe({ proto: 'tcp', host: LAB_IP.server.toAttacker.v4, port: TCP_DROPPED }),
      third.probe({ proto: 'tcp', host: LAB_IP.server.toThird.v4, port: TCP_DROPPED }),
    ]);
    expect(dropped).toMatchObject({ state: 'timeout' });
    expect(dropped.ms).toBeLessThan(1_000);
    expect(passed).toMatchObject({ state: 'open' });
  });

  it('a second attacker address is a distinct source', async () => {
    const second = '10.77.1.3';
    await lab.addAddress('attacker', `${second}/24`);
    const attacker = await lab.peer('attacker');
    const to = { proto: 'tcp', host: LAB_IP.server.toAttacker.v4, port: TCP_OPEN } as const;
    expect(await attacker.probe({ ...to, sourceAddress: second })).toMatchObject({ state: 'open' });
    expect((await server.seen()).at(-1)).toEqual({ proto: 'tcp', port: TCP_OPEN, remoteAddress: second });

    await nft(lab, 'server', inputChain('ip harness2', `ip saddr ${second} drop`));
    onTestFinished(() => nft(lab, 'server', 'delete table ip harness2'));
    const [fromFirst, fromSecond] = await attacker.probeMany([to, { ...to, sourceAddress: second }]);
    expect(fromFirst).toMatchObject({ state: 'open' });
    expect(fromSecond).toMatchObject({ state: 'timeout', sourceAddress: second });
  });

  it('nmap from attacker reports open, closed and filtered ports', async () => {
    await nft(lab, 'server', inputChain('inet harness3', `tcp dport ${TCP_DROPPED} drop`));
    onTestFinished(() => nft(lab, 'server', 'delete table inet harness3'));

    const scan = await portScan(lab, 'attacker', LAB_IP.server.toAttacker.v4, [TCP_OPEN, TCP_DROPPED, CLOSED]);
    expect(scan.ports).toEqual({ [TCP_OPEN]: 'open', [TCP_DROPPED]: 'filtered', [CLOSED]: 'closed' });
    const scan6 = await portScan(lab, 'third', LAB_IP.server.toThird.v6, [TCP_OPEN], { scan: 'connect' });
    expect(scan6.ports).toEqual({ [TCP_OPEN]: 'open' });
  });

  it('sshd logs "Failed password" for each failed login from attacker', async () => {
    const sshd = await startSshd(lab, 'server', { port: 2222 });
    await failedLogins(lab, 'attacker', LAB_IP.server.toAttacker.v4, sshd.port, 3, 'root');
    await failedLogins(lab, 'attacker', LAB_IP.server.toAttacker.v6, sshd.port, 1, 'nosuchuser');

    const failed = await sshd.waitForLog(/^Failed password for /, 4);
    expect(failed.slice(0, 3)).toEqual(
      Array(3).fill(expect.stringMatching(new RegExp(`^Failed password for root from ${LAB_IP.attacker.v4} port \\d+ ssh2$`))),
    );
    expect(failed[3]).toMatch(new RegExp(`^Failed password for invalid user nosuchuser from ${LAB_IP.attacker.v6} port \\d+ ssh2$`));
  });

  it('destroy leaves no namespace and no process behind', async () => {
    const extra = await createLab();
    const spawned = extra.spawn('third', ['sleep', '60'], { stdio: 'ignore' }).pid!;
    // Backgrounded by a shell, so only the namespace sweep can find it.
    const { stdout } = await extra.exec('server', ['sh', '-c', 'sleep 60 </dev/null >/dev/null 2>&1 & echo $!']);
    const daemon = Number(stdout);
    await extra.destroy();

    const listed = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout;
    for (const name of Object.values(extra.names)) expect(listed).not.toContain(name);
    expect([spawned, daemon].filter(isRunning)).toEqual([]);
  });
});

/** Alive and not a zombie (an orphan killed a moment ago may wait for init to reap it). */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
