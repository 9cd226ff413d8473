import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { createNftExecutor } from '@rampart/firewall';
import { writeTestGeoData } from '@rampart/geoip';
import type { AgentParams, FirewallRuleInput } from '@rampart/contracts';
import { LAB_IP, canUseNetns, createLab, type Lab } from '../../../packages/firewall/tests/support/lab.ts';
import type { Peer } from '../../../packages/firewall/tests/support/peer.ts';
import { portScan } from '../../../packages/firewall/tests/support/nmap.ts';
import { startTestAgent, makeTempDir, type TestAgent } from './helpers.ts';

/*
 * The firewall on the real kernel: the agent runs here with its nft bound to the lab's server
 * namespace; probes from the attacker and the third host decide. Needs root (skipped otherwise).
 */

const PANEL = 8443;
const WEB = 8080;
const DNS = 5353;
const server = LAB_IP.server.toAttacker;
const serverFromThird = LAB_IP.server.toThird;

describe.skipIf(!canUseNetns())('firewall on nftables (agent, real packets)', () => {
  let lab: Lab;
  let agent: TestAgent;
  let client: AgentClient;
  let attacker: Peer;
  let third: Peer;
  const guard = { admin_ip: null, panel_port: PANEL };

  const tcp = (peer: Peer, host: string, port: number) => peer.probe({ proto: 'tcp', host, port }).then((r) => r.state);
  const udp = (peer: Peer, host: string, port: number) => peer.probe({ proto: 'udp', host, port }).then((r) => r.state);
  const rule = (fields: Partial<FirewallRuleInput>): AgentParams<'firewall.rules.add'> => ({
    rule: { direction: 'in', protocol: 'tcp', ports: String(WEB), ips: ['*'], areas: [], action: 'deny', priority: 50, enabled: true, remark: '', ...fields },
    guard,
  });
  const setPortScan = async (port_scan: { enabled: boolean; ports: number; seconds: number; block_minutes: number }) => {
    const settings = await client.call('firewall.attack.get', {});
    await client.call('firewall.attack.set', { settings: { ...settings, port_scan } });
  };
  const clearAll = async () => {
    const rules = [...(await client.call('firewall.rules.list', { direction: 'in', offset: 0, limit: 1000 })).list, ...(await client.call('firewall.rules.list', { direction: 'out', offset: 0, limit: 1000 })).list];
    if (rules.length > 0) await client.call('firewall.rules.delete', { ids: rules.map((r) => r.id), guard });
    for (const list of ['white', 'black'] as const) await client.call('firewall.lists.delete', { list, target: 'all', guard });
    await client.call('firewall.intercept.delete', { target: 'all' });
    await client.call('trust.delete', { target: 'all' });
  };

  beforeAll(async () => {
    lab = await createLab();
    const geoDir = await makeTempDir();
    // The attacker's link is "Japan", the third host's link "Guangdong".
    const geo = writeTestGeoData(geoDir, {
      v4: [['10.77.1.0', '10.77.1.255', 'JP'], ['10.77.2.0', '10.77.2.255', 'CN']],
      v6: [['fd77:1::', 'fd77:1::ffff', 'JP']],
      provinces: [['10.77.2.0', '10.77.2.255', '广东省']],
    });
    agent = await startTestAgent({
      firewall: { nft: createNftExecutor({ netns: lab.names.server }), geo, background: false, probationMs: 1500 },
    });
    client = new AgentClient(agent.socketPath, { timeoutMs: 20_000 });
    await client.call('module.switch', { modules: ['firewall'], status: 1 });
    const srv = await lab.peer('server');
    for (const port of [WEB, PANEL, 9000, 9001]) await srv.listen({ proto: 'tcp', port });
    await srv.listen({ proto: 'udp', port: DNS });
    attacker = await lab.peer('attacker');
    third = await lab.peer('third');
    // Tests probe many ports: port-scan detection waits for its own tests.
    await setPortScan({ enabled: true, ports: 1000, seconds: 10, block_minutes: 60 });
  }, 60_000);
  afterAll(async () => {
    await agent?.dispose();
    await lab?.destroy();
  });

  it('puts its table in the kernel when the module is on, and passes traffic by default', async () => {
    expect((await client.call('firewall.status', {})).kernel).toBe('ok');
    const listing = await lab.exec('server', ['nft', 'list', 'table', 'inet', 'rampart']);
    expect(listing.stdout).toContain('hook input priority filter - 10');
    expect(await tcp(attacker, server.v4, WEB)).toBe('open');
    expect(await tcp(attacker, server.v6, WEB)).toBe('open');
    expect(await udp(attacker, server.v4, DNS)).toBe('open');
  });

  it('denies and allows by rule over TCP and UDP, IPv4 and IPv6, by priority', async () => {
    await clearAll();
    await client.call('firewall.rules.add', rule({ ports: `${WEB}`, priority: 10 }));
    await client.call('firewall.rules.add', rule({ protocol: 'udp', ports: `${DNS}`, priority: 10 }));
    expect(await tcp(attacker, server.v4, WEB)).toBe('timeout');
    expect(await tcp(attacker, server.v6, WEB)).toBe('timeout');
    expect(await tcp(third, serverFromThird.v4, WEB)).toBe('timeout');
    expect(await udp(attacker, server.v4, DNS)).toBe('timeout');
    expect(await udp(attacker, server.v6, DNS)).toBe('timeout');
    expect(await tcp(attacker, server.v4, 9000)).toBe('open');
    // A higher priority (5 < 10) allow for the third host wins over the deny for everyone.
    await client.call('firewall.rules.add', rule({ ips: [`${LAB_IP.third.v4}`, LAB_IP.third.v6], action: 'allow', priority: 5 }));
    expect(await tcp(third, serverFromThird.v4, WEB)).toBe('open');
    expect(await tcp(third, serverFromThird.v6, WEB)).toBe('open');
    expect(await tcp(attacker, server.v4, WEB)).toBe('timeout');
    // The same allow at a lower priority (20) loses to the deny at 10.
    const allow = (await client.call('firewall.rules.list', { direction: 'in', offset: 0, limit: 10 })).list.find((r) => r.action === 'allow')!;
    const { created_at: _created, updated_at: _updated, ...fields } = allow;
    await client.call('firewall.rules.edit', { rule: { ...fields, priority: 20 }, guard });
    expect(await tcp(third, serverFromThird.v4, WEB)).toBe('timeout');
    // Disabled rules do nothing.
    const ids = (await client.call('firewall.rules.list', { direction: 'in', offset: 0, limit: 10 })).list.map((r) => r.id);
    await client.call('firewall.rules.set_enabled', { ids, enabled: false, guard });
    expect(await tcp(attacker, server.v4, WEB)).toBe('open');
    expect(await udp(attacker, server.v4, DNS)).toBe('open');
  });

  it('matches areas from the geo-IP data (countries and Chinese provinces)', async () => {
    await clearAll();
    await client.call('firewall.rules.add', rule({ ips: [], areas: ['JP'], ports: '9000-9001' }));
    expect(await tcp(attacker, server.v4, 9000)).toBe('timeout');
    expect(await tcp(attacker, server.v6, 9001)).toBe('timeout');
    expect(await tcp(third, serverFromThird.v4, 9000)).toBe('open');
    await client.call('firewall.rules.add', rule({ ips: [], areas: ['CN-GD'], ports: '9000' }));
    expect(await tcp(third, serverFromThird.v4, 9000)).toBe('timeout');
    expect(await tcp(third, serverFromThird.v4, 9001)).toBe('open');
  });

  it('consults the lists in order: super whitelist > whitelist > blacklist > interception > rules', async () => {
    await clearAll();
    await client.call('firewall.lists.add', { list: 'black', addresses: [LAB_IP.attacker.v4, 'fd77:1::/64'], remark: '', expires_at: null, guard });
    expect(await tcp(attacker, server.v4, 9000)).toBe('timeout');
    expect(await tcp(attacker, server.v6, 9000)).toBe('timeout');
    expect(await tcp(third, serverFromThird.v4, 9000)).toBe('open');
    // A whitelist beats a blacklist.
    await client.call('firewall.lists.add', { list: 'white', addresses: ['10.77.1.0/24'], remark: '', expires_at: null, guard });
    expect(await tcp(attacker, server.v4, 9000)).toBe('open');
    expect(await tcp(attacker, server.v6, 9000)).toBe('timeout');
    await client.call('firewall.lists.delete', { list: 'white', target: 'all', guard });
    expect(await tcp(attacker, server.v4, 9000)).toBe('timeout');
    // Deleting the blacklist entry opens the way again.
    const black = await client.call('firewall.lists.list', { list: 'black', offset: 0, limit: 10 });
    await client.call('firewall.lists.delete', { list: 'black', target: black.list.map((e) => e.id), guard });
    expect(await tcp(attacker, server.v4, 9000)).toBe('open');
    expect(await tcp(attacker, server.v6, 9000)).toBe('open');
    // Interception list: blocked, then unblocked.
    await client.call('firewall.intercept.add', { ips: [LAB_IP.attacker.v4], minutes: 5, remark: 'test', guard });
    expect(await tcp(attacker, server.v4, 9000)).toBe('timeout');
    const intercepted = await client.call('firewall.intercept.list', { offset: 0, limit: 10 });
    expect(intercepted.list).toMatchObject([{ ip: LAB_IP.attacker.v4, reason: 'manual', detail: 'test' }]);
    await client.call('firewall.intercept.delete', { target: intercepted.list.map((e) => e.id) });
    expect(await tcp(attacker, server.v4, 9000)).toBe('open');
    // The super whitelist beats a deny rule and the blacklist.
    await client.call('firewall.rules.add', rule({ ports: '9000' }));
    await client.call('firewall.lists.add', { list: 'black', addresses: [LAB_IP.attacker.v4], remark: '', expires_at: null, guard });
    expect(await tcp(attacker, server.v4, 9000)).toBe('timeout');
    await client.call('trust.add', { addresses: [LAB_IP.attacker.v4], added_by: 'admin', remark: '', expires_at: null });
    expect(await tcp(attacker, server.v4, 9000)).toBe('open');
    expect(await tcp(third, serverFromThird.v4, 9000)).toBe('timeout');
  });

  it('lets a blacklisted address reach the panel port while its trust terminal holds it, and drops it once the hold ends or lapses', async () => {
    await clearAll();
    await client.call('firewall.lists.add', { list: 'black', addresses: [LAB_IP.attacker.v4], remark: '', expires_at: null, guard });
    expect(await tcp(attacker, server.v4, PANEL)).toBe('timeout');
    // The terminal's hold (issue 28): a `terminal` entry with an end a few seconds ahead.
    const held = await client.call('trust.hold', { ip: LAB_IP.attacker.v4, added_by: 'roamer', expires_at: Date.now() + 60_000 });
    expect(held).toMatchObject({ held: true });
    expect(await tcp(attacker, server.v4, PANEL)).toBe('open');
    // Stopping the terminal releases it at once.
    expect(await client.call('trust.release', { ip: LAB_IP.attacker.v4 })).toEqual({ changed: 1 });
    expect(await tcp(attacker, server.v4, PANEL)).toBe('timeout');
    // Beats stop without a release (the browser closed, the console is gone): the kernel element's own timeout ends it.
    // (Seconds of margin on each side: a loaded machine may be slow to make a call or a probe.)
    await client.call('trust.hold', { ip: LAB_IP.attacker.v4, added_by: 'roamer', expires_at: Date.now() + 6000 });
    expect(await tcp(attacker, server.v4, PANEL)).toBe('open');
    // A beat moves the end on: the element is replaced with the later timeout.
    await client.call('trust.hold', { ip: LAB_IP.attacker.v4, added_by: 'roamer', expires_at: Date.now() + 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 6500));
    expect(await tcp(attacker, server.v4, PANEL)).toBe('open');
    await new Promise((resolve) => setTimeout(resolve, 4500));
    expect(await tcp(attacker, server.v4, PANEL)).toBe('timeout');
    // A release never removes an entry someone listed by hand. (The lapsed terminal entry goes first:
    // the agent's minute purge would do it, and it runs without background here.)
    await client.call('trust.delete', { target: 'all' });
    await client.call('trust.add', { addresses: [LAB_IP.attacker.v4], added_by: 'admin', remark: 'office', expires_at: null });
    expect(await client.call('trust.hold', { ip: LAB_IP.attacker.v4, added_by: 'roamer', expires_at: Date.now() + 60_000 })).toEqual({ held: false, expires_at: null });
    expect(await client.call('trust.release', { ip: LAB_IP.attacker.v4 })).toEqual({ changed: 0 });
    expect(await tcp(attacker, server.v4, PANEL)).toBe('open');
  });

  it('puts a change that cuts the administrator off on probation and rolls it back unless confirmed', async () => {
    await clearAll();
    const admin = { admin_ip: LAB_IP.attacker.v4, panel_port: PANEL, account: 'admin' };
    const change = await client.call('firewall.lists.add', { list: 'black', addresses: ['10.77.1.0/24'], remark: '', expires_at: null, guard: admin });
    expect(change.probation).not.toBeNull();
    expect(change.warnings).toContain('own_ip_blocked');
    expect(await tcp(attacker, server.v4, PANEL)).toBe('timeout');
    // A second risky change (here cutting another administrator, on the third host) waits for the first.
    const second = await client.call('firewall.rules.add', { ...rule({ ports: String(PANEL), ips: [LAB_IP.third.v4] }), guard: { ...admin, admin_ip: LAB_IP.third.v4 } });
    expect(second.refused).toBe('fw_probation_pending');
    expect(await tcp(third, serverFromThird.v4, PANEL)).toBe('open');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await tcp(attacker, server.v4, PANEL)).toBe('open');
    expect((await client.call('firewall.lists.list', { list: 'black', offset: 0, limit: 10 })).total).toBe(0);
    const events = await client.call('events.query', { limit: 20 });
    expect(events.list.map((e) => e.kind)).toContain('firewall.rolled_back');
    // Confirmed in time, it stays.
    const kept = await client.call('firewall.rules.add', { ...rule({ ports: String(PANEL) }), guard: admin });
    expect(kept.probation).not.toBeNull();
    expect(kept.warnings).toEqual(['own_ip_blocked', 'panel_port_closed']);
    expect(await client.call('firewall.confirm', { token: kept.probation!.token })).toEqual({ confirmed: true });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await tcp(attacker, server.v4, PANEL)).toBe('timeout');
    expect(await client.call('firewall.confirm', { token: kept.probation!.token })).toEqual({ confirmed: false });
  });

  it('rolls a deletion back to the entries exactly as they were', async () => {
    await clearAll();
    const admin = { admin_ip: LAB_IP.attacker.v4, panel_port: PANEL, account: 'admin' };
    await client.call('firewall.lists.add', { list: 'black', addresses: ['10.77.1.0/24'], remark: '', expires_at: null, guard });
    await client.call('firewall.lists.add', { list: 'white', addresses: [LAB_IP.attacker.v4], remark: 'office', expires_at: null, guard });
    const before = (await client.call('firewall.lists.list', { list: 'white', offset: 0, limit: 10 })).list;
    // Deleting the whitelist entry lets the blacklist cut the administrator: on probation, then rolled back.
    const change = await client.call('firewall.lists.delete', { list: 'white', target: 'all', guard: admin });
    expect(change.probation).not.toBeNull();
    expect(await tcp(attacker, server.v4, PANEL)).toBe('timeout');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await client.call('firewall.lists.list', { list: 'white', offset: 0, limit: 10 })).list).toEqual(before);
    expect(await tcp(attacker, server.v4, PANEL)).toBe('open');
  });

  it('notices an outside flush and restores the ruleset', async () => {
    await clearAll();
    await client.call('firewall.rules.add', rule({ ports: '9001' }));
    expect(await tcp(attacker, server.v4, 9001)).toBe('timeout');
    await lab.exec('server', ['nft', 'flush', 'ruleset']);
    expect(await tcp(attacker, server.v4, 9001)).toBe('open');
    await agent.firewall.tick();
    expect(await tcp(attacker, server.v4, 9001)).toBe('timeout');
    const status = await client.call('firewall.status', {});
    expect(status.restored).toBeGreaterThanOrEqual(1);
    expect((await client.call('events.query', { limit: 20 })).list.map((e) => e.kind)).toContain('firewall.restored');
    // An edit of one rule is noticed as well.
    await lab.exec('server', ['nft', 'flush', 'chain', 'inet', 'rampart', 'rules_in']);
    await agent.firewall.tick();
    expect(await tcp(attacker, server.v4, 9001)).toBe('timeout');
  });

  it('blocks a port scanner in the kernel and records it in the interception list', async () => {
    await clearAll();
    await setPortScan({ enabled: true, ports: 10, seconds: 10, block_minutes: 60 });
    const before = await tcp(attacker, server.v4, WEB);
    expect(before).toBe('open');
    const ports = Array.from({ length: 40 }, (_, i) => 20_000 + i);
    await portScan(lab, 'attacker', server.v4, ports, { scan: 'syn' });
    expect(await tcp(attacker, server.v4, WEB)).toBe('timeout');
    expect(await tcp(third, serverFromThird.v4, WEB)).toBe('open');
    await agent.firewall.tick();
    const list = await client.call('firewall.intercept.list', { offset: 0, limit: 10 });
    expect(list.list).toMatchObject([{ ip: LAB_IP.attacker.v4, reason: 'port_scan' }]);
    expect(list.list[0]!.expires_at - list.list[0]!.blocked_at).toBeGreaterThan(55 * 60_000);
    const notices = await client.call('notices.list', { offset: 0, limit: 10 });
    expect(notices.list.map((n) => n.kind)).toContain('firewall_block');
    // Unblocking from the list lets the address back in.
    await client.call('firewall.intercept.delete', { target: 'all' });
    expect(await tcp(attacker, server.v4, WEB)).toBe('open');
  });

  it('lets ten new ports through and blocks the eleventh (more than 10 ports in 10 s)', async () => {
    await clearAll();
    await setPortScan({ enabled: true, ports: 10, seconds: 10, block_minutes: 60 });
    const srv = await lab.peer('server');
    const ports = Array.from({ length: 11 }, (_, i) => 30_000 + i);
    for (const port of ports) await srv.listen({ proto: 'tcp', port });
    // A fresh source address, so no earlier probe has used its bucket.
    await lab.addAddress('third', '10.77.2.3/24');
    const states: string[] = [];
    for (const port of ports) states.push((await third.probe({ proto: 'tcp', host: serverFromThird.v4, port, sourceAddress: '10.77.2.3' })).state);
    expect(states).toEqual([...Array<string>(10).fill('open'), 'timeout']);
    // The same ten ports again are not new: still open... but the source is now blocked as a whole.
    expect(await third.probe({ proto: 'tcp', host: serverFromThird.v4, port: ports[0]!, sourceAddress: '10.77.2.3' }).then((r) => r.state)).toBe('timeout');
    expect(await tcp(third, serverFromThird.v4, ports[0]!)).toBe('open');
    await client.call('firewall.intercept.delete', { target: 'all' });
    await setPortScan({ enabled: true, ports: 1000, seconds: 10, block_minutes: 60 });
  });

  it('re-applies the ruleset when the agent starts again (after a reboot the kernel is empty)', async () => {
    await clearAll();
    await client.call('firewall.rules.add', rule({ ports: '9001' }));
    const stateDir = agent.stateDir;
    const dir = agent.dir;
    await agent.close();
    await lab.exec('server', ['nft', 'flush', 'ruleset']);
    expect(await tcp(attacker, server.v4, 9001)).toBe('open');
    agent = await startTestAgent({ dir, stateDir, firewall: { nft: createNftExecutor({ netns: lab.names.server }), background: false } });
    client = new AgentClient(agent.socketPath, { timeoutMs: 20_000 });
    expect(await tcp(attacker, server.v4, 9001)).toBe('timeout');
  });
});
