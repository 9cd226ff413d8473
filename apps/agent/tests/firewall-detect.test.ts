import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { createNftExecutor } from '@rampart/firewall';
import { defaultAttackSettings, type AttackSettings } from '@rampart/contracts';
import { LAB_IP, canUseNetns, createLab, type Lab } from '../../../packages/firewall/tests/support/lab.ts';
import type { Peer } from '../../../packages/firewall/tests/support/peer.ts';
import { failedLogins, startSshd } from '../../../packages/firewall/tests/support/ssh.ts';
import { makeTempDir, startTestAgent, type TestAgent } from './helpers.ts';

/*
 * Attack protection from logs, end to end: a real sshd in the server namespace refusing real
 * password guesses from the attacker, and web access logs replayed into a file, go through the
 * agent's pipeline and end as blocks in the kernel. Needs root (skipped otherwise).
 */

const SSH = 2222;
const WEB = 8080;

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function nginxLine(ip: string, status: number, urlPath: string, at: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p2 = (n: number) => String(n).padStart(2, '0');
  const time = `${p2(at.getUTCDate())}/${months[at.getUTCMonth()]}/${at.getUTCFullYear()}:${p2(at.getUTCHours())}:${p2(at.getUTCMinutes())}:${p2(at.getUTCSeconds())} +0000`;
  return `${ip} - - [${time}] "GET ${urlPath} HTTP/1.1" ${status} 153 "-" "Mozilla/5.0 (scanner)"\n`;
}

describe.skipIf(!canUseNetns())('attack protection from logs (agent, real sshd, real packets)', () => {
  let lab: Lab;
  let agent: TestAgent;
  let client: AgentClient;
  let attacker: Peer;
  let sshLog: string;
  let accessLog: string;

  const setAttack = async (change: Partial<AttackSettings>) => {
    const settings = await client.call('firewall.attack.get', {});
    await client.call('firewall.attack.set', { settings: { ...settings, ...change } });
  };
  const intercepted = () => client.call('firewall.intercept.list', { offset: 0, limit: 20 });
  // The interception list is written first, the kernel set right after: on a loaded machine the
  // probe can come between the two, so it is asked again for a while.
  const kernel = { timeout: 15_000, interval: 200 };
  const tcp = (host: string, port: number, sourceAddress?: string) =>
    attacker.probe({ proto: 'tcp', host, port, ...(sourceAddress ? { sourceAddress } : {}) }).then((r) => r.state);

  beforeAll(async () => {
    lab = await createLab();
    const dir = await makeTempDir();
    sshLog = path.join(dir, 'sshd.log');
    accessLog = path.join(dir, 'access.log');
    await writeFile(accessLog, '');
    agent = await startTestAgent({
      firewall: { nft: createNftExecutor({ netns: lab.names.server }), background: false, sensors: { journal: false, pollMs: 100 } },
    });
    client = new AgentClient(agent.socketPath, { timeoutMs: 20_000 });
    await client.call('module.switch', { modules: ['firewall'], status: 1 });
    await setAttack({
      port_scan: { ...defaultAttackSettings.port_scan, ports: 1000 },
      ssh_bruteforce: { ...defaultAttackSettings.ssh_bruteforce, attempts: 5, seconds: 120, block_minutes: 30, journal: false, log_files: [sshLog] },
      scan_404: { enabled: true, per_minute: 20, block_minutes: 45 },
      cc: { enabled: true, per_minute: 100, block_minutes: 15 },
      access_logs: [{ path: accessLog, format: 'nginx' }],
    });
    await startSshd(lab, 'server', { port: SSH, logFile: sshLog });
    await (await lab.peer('server')).listen({ proto: 'tcp', port: WEB });
    attacker = await lab.peer('attacker');
  }, 60_000);
  afterAll(async () => {
    await agent?.dispose();
    await lab?.destroy();
  });

  it('blocks real SSH password guessing past the threshold (more than 5 failures)', async () => {
    await expect.poll(() => tcp(LAB_IP.server.toAttacker.v4, SSH), kernel).toBe('open');
    await failedLogins(lab, 'attacker', LAB_IP.server.toAttacker.v4, SSH, 5, 'root');
    // Five failures are not more than five: not blocked yet.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await intercepted()).total).toBe(0);
    await failedLogins(lab, 'attacker', LAB_IP.server.toAttacker.v4, SSH, 1, 'nosuchuser');
    const list = await until(intercepted, (page) => page.total > 0);
    expect(list.list[0]).toMatchObject({ ip: LAB_IP.attacker.v4, reason: 'ssh_bruteforce' });
    expect(list.list[0]!.detail).toMatch(/Failed password/);
    expect(list.list[0]!.expires_at - list.list[0]!.blocked_at).toBe(30 * 60_000);
    await expect.poll(() => tcp(LAB_IP.server.toAttacker.v4, SSH), kernel).toBe('timeout');
    await expect.poll(() => tcp(LAB_IP.server.toAttacker.v4, WEB), kernel).toBe('timeout');
    const events = await client.call('events.query', { limit: 20 });
    expect(events.list.find((e) => e.kind === 'firewall.blocked')).toMatchObject({ ip: LAB_IP.attacker.v4, params: { reason: 'ssh_bruteforce', minutes: 30 } });
    await client.call('firewall.intercept.delete', { target: 'all' });
    await expect.poll(() => tcp(LAB_IP.server.toAttacker.v4, SSH), kernel).toBe('open');
    // Unblocked early by the administrator, the address is blocked again when it goes on (a block empties its count).
    await failedLogins(lab, 'attacker', LAB_IP.server.toAttacker.v4, SSH, 6, 'root');
    expect((await until(intercepted, (page) => page.total > 0)).list[0]).toMatchObject({ ip: LAB_IP.attacker.v4, reason: 'ssh_bruteforce' });
    await client.call('firewall.intercept.delete', { target: 'all' });
  });

  it('never blocks a whitelisted address', async () => {
    await client.call('firewall.lists.add', { list: 'white', addresses: [LAB_IP.attacker.v6], remark: '', expires_at: null, guard: { admin_ip: null, panel_port: 6688 } });
    await failedLogins(lab, 'attacker', LAB_IP.server.toAttacker.v6, SSH, 7, 'root');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await intercepted()).total).toBe(0);
    await expect.poll(() => tcp(LAB_IP.server.toAttacker.v6, SSH), kernel).toBe('open');
  });

  it('blocks a 404 scan and an HTTP flood replayed from an nginx access log', async () => {
    await lab.addAddress('attacker', '10.77.1.3/24');
    await lab.addAddress('attacker', '10.77.1.4/24');
    const now = new Date();
    let lines = '';
    for (let i = 0; i < 25; i += 1) lines += nginxLine('10.77.1.3', 404, `/admin${i}.php`, now);
    // A busy but honest client: 60 requests, all found.
    for (let i = 0; i < 60; i += 1) lines += nginxLine('10.77.1.5', 200, `/page/${i}`, now);
    for (let i = 0; i < 150; i += 1) lines += nginxLine('10.77.1.4', 200, '/', now);
    await appendFile(accessLog, lines);
    const list = await until(intercepted, (page) => page.total >= 2);
    const byIp = Object.fromEntries(list.list.map((e) => [e.ip, e]));
    expect(byIp['10.77.1.3']).toMatchObject({ reason: 'http_404_scan' });
    expect(byIp['10.77.1.3']!.expires_at - byIp['10.77.1.3']!.blocked_at).toBe(45 * 60_000);
    expect(byIp['10.77.1.4']).toMatchObject({ reason: 'http_cc' });
    expect(byIp['10.77.1.5']).toBeUndefined();
    await expect.poll(() => tcp(LAB_IP.server.toAttacker.v4, WEB, '10.77.1.3'), kernel).toBe('timeout');
    await expect.poll(() => tcp(LAB_IP.server.toAttacker.v4, WEB, '10.77.1.4'), kernel).toBe('timeout');
    await expect.poll(() => tcp(LAB_IP.server.toAttacker.v4, WEB), kernel).toBe('open');
  });

  it('stops reading logs when the module is off, and starts again when it is on', async () => {
    await client.call('firewall.intercept.delete', { target: 'all' });
    await client.call('module.switch', { modules: ['firewall'], status: 0 });
    expect(agent.firewall.status().kernel).toBe('off');
    const listing = await lab.exec('server', ['nft', 'list', 'tables']);
    expect(listing.stdout).not.toContain('rampart');
    // Saving settings or changing lists with the module off keeps the kernel untouched.
    await setAttack({ port_scan: { ...defaultAttackSettings.port_scan, ports: 30 } });
    await client.call('firewall.intercept.add', { ips: ['10.77.1.9'], minutes: 5, remark: '', guard: { admin_ip: null, panel_port: 6688 } });
    await client.call('firewall.intercept.delete', { target: 'all' });
    expect((await lab.exec('server', ['nft', 'list', 'tables'])).stdout).not.toContain('rampart');
    const now = new Date();
    let lines = '';
    for (let i = 0; i < 30; i += 1) lines += nginxLine('10.77.1.6', 404, `/x${i}`, now);
    await appendFile(accessLog, lines);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await intercepted()).total).toBe(0);
    await client.call('module.switch', { modules: ['firewall'], status: 1 });
    expect((await lab.exec('server', ['nft', 'list', 'tables'])).stdout).toContain('inet rampart');
  });
});
