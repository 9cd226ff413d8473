import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { createNftExecutor } from '@rampart/firewall';
import { writeTestGeoData } from '@rampart/geoip';
import type { AgentParams, FirewallRuleInput } from '@rampart/contracts';
import { LAB_IP, canUseNetns, createLab, type Lab } from '../../../packages/firewall/tests/support/lab.ts';
import type { Peer } from '../../../packages/firewall/tests/support/peer.ts';
import { startTestAgent, makeTempDir, type TestAgent } from './helpers.ts';

/*
 * Common areas and the super whitelist's validity on the real kernel: the agent's nft is bound to
 * the lab's server namespace, and probes from the attacker ("Japan") and the third host
 * ("Guangdong") decide. Needs root and `ip netns` (skipped otherwise).
 */

const PANEL = 8443;
const server = LAB_IP.server.toAttacker;
const serverFromThird = LAB_IP.server.toThird;

describe.skipIf(!canUseNetns())('common areas and super whitelist renewal on nftables (agent, real packets)', () => {
  let lab: Lab;
  let agent: TestAgent;
  let client: AgentClient;
  let attacker: Peer;
  let third: Peer;
  let geo: Awaited<ReturnType<typeof writeTestGeoData>>;
  const guard = { admin_ip: null, panel_port: PANEL };

  const tcp = (peer: Peer, host: string, port: number) => peer.probe({ proto: 'tcp', host, port }).then((r) => r.state);
  const rule = (fields: Partial<FirewallRuleInput>): AgentParams<'firewall.rules.add'> => ({
    rule: { direction: 'in', protocol: 'tcp', ports: '9000', ips: [], areas: [], action: 'deny', priority: 50, enabled: true, remark: '', ...fields },
    guard,
  });
  const clearRules = async () => {
    const rules = (await client.call('firewall.rules.list', { direction: 'in', offset: 0, limit: 1000 })).list;
    if (rules.length > 0) await client.call('firewall.rules.delete', { ids: rules.map((r) => r.id), guard });
    await client.call('trust.delete', { target: 'all' });
    await client.call('firewall.lists.delete', { list: 'black', target: 'all', guard });
  };
  const connect = async () => {
    client = new AgentClient(agent.socketPath, { timeoutMs: 20_000 });
  };

  beforeAll(async () => {
    lab = await createLab();
    const geoDir = await makeTempDir();
    geo = writeTestGeoData(geoDir, {
      v4: [['10.77.1.0', '10.77.1.255', 'JP'], ['10.77.2.0', '10.77.2.255', 'CN']],
      v6: [['fd77:1::', 'fd77:1::ffff', 'JP']],
      provinces: [['10.77.2.0', '10.77.2.255', '广东省']],
    });
    agent = await startTestAgent({ firewall: { nft: createNftExecutor({ netns: lab.names.server }), geo, background: false, probationMs: 1500 } });
    await connect();
    await client.call('module.switch', { modules: ['firewall'], status: 1 });
    const srv = await lab.peer('server');
    for (const port of [PANEL, 9000, 9001]) await srv.listen({ proto: 'tcp', port });
    attacker = await lab.peer('attacker');
    third = await lab.peer('third');
    // Probing several ports must not look like a port scan here.
    const settings = await client.call('firewall.attack.get', {});
    await client.call('firewall.attack.set', { settings: { ...settings, port_scan: { enabled: false, ports: 1000, seconds: 10, block_minutes: 60 } } });
  }, 60_000);
  afterAll(async () => {
    await agent?.dispose();
    await lab?.destroy();
  });

  it('denies the members of a common area, and follows an edit of the area', async () => {
    await clearRules();
    const saved = await client.call('areas.save', { area: { name: 'Far East', members: ['JP'] }, guard });
    expect(saved.refused).toBeNull();
    const ref = `common:${saved.id}`;
    await client.call('firewall.rules.add', rule({ areas: [ref] }));
    expect(await tcp(attacker, server.v4, 9000)).toBe('timeout');
    expect(await tcp(attacker, server.v6, 9000)).toBe('timeout');
    expect(await tcp(third, serverFromThird.v4, 9000)).toBe('open');
    expect(await tcp(attacker, server.v4, 9001)).toBe('open');

    // Japan out, Guangdong in: the rule follows without being touched.
    await client.call('areas.save', { area: { id: saved.id!, name: 'Far East', members: ['CN-GD'] }, guard });
    expect(await tcp(attacker, server.v4, 9000)).toBe('open');
    expect(await tcp(attacker, server.v6, 9000)).toBe('open');
    expect(await tcp(third, serverFromThird.v4, 9000)).toBe('timeout');

    // In use: it cannot be deleted.
    expect(await client.call('areas.delete', { ids: [saved.id!] })).toEqual({ changed: 0, refused: 'area_in_use', rules: 1 });
  });

  it('puts an area edit that cuts the administrator off on probation and rolls it back', async () => {
    await clearRules();
    const saved = await client.call('areas.save', { area: { name: 'Guarded', members: ['CN-GD'] }, guard });
    await client.call('firewall.rules.add', rule({ ports: String(PANEL), areas: [`common:${saved.id}`] }));
    expect(await tcp(attacker, server.v4, PANEL)).toBe('open');
    const admin = { admin_ip: LAB_IP.attacker.v4, panel_port: PANEL, account: 'admin' };
    const edit = await client.call('areas.save', { area: { id: saved.id!, name: 'Guarded', members: ['CN-GD', 'JP'] }, guard: admin });
    expect(edit.probation).not.toBeNull();
    expect(edit.warnings).toContain('own_ip_blocked');
    expect(await tcp(attacker, server.v4, PANEL)).toBe('timeout');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await tcp(attacker, server.v4, PANEL)).toBe('open');
    const back = (await client.call('areas.list', { offset: 0, limit: 100 })).list.find((a) => a.id === saved.id);
    expect(back?.members).toEqual(['CN-GD']);
  });

  it('keeps a renewed super-whitelist entry beating the blacklist past its first end, and lets an unrenewed one lapse', async () => {
    await clearRules();
    await client.call('firewall.lists.add', { list: 'black', addresses: [LAB_IP.attacker.v4, LAB_IP.third.v4], remark: '', expires_at: null, guard });
    expect(await tcp(attacker, server.v4, 9001)).toBe('timeout');
    expect(await tcp(third, serverFromThird.v4, 9001)).toBe('timeout');
    const soon = Date.now() + 3000;
    await client.call('trust.add', { addresses: [LAB_IP.attacker.v4, LAB_IP.third.v4], added_by: 'admin', remark: '', expires_at: soon });
    expect(await tcp(attacker, server.v4, 9001)).toBe('open');
    expect(await tcp(third, serverFromThird.v4, 9001)).toBe('open');
    const entry = (await client.call('trust.list', { offset: 0, limit: 10 })).list.find((e) => e.address === LAB_IP.attacker.v4)!;
    expect(await client.call('trust.renew', { ids: [entry.id], days: 1 })).toEqual({ changed: 1 });
    await new Promise((resolve) => setTimeout(resolve, soon - Date.now() + 1500));
    expect(await tcp(attacker, server.v4, 9001)).toBe('open');
    expect(await tcp(third, serverFromThird.v4, 9001)).toBe('timeout');
    expect(await client.call('trust.check', { ip: LAB_IP.attacker.v4 })).toEqual({ trusted: true });
    expect(await client.call('trust.check', { ip: LAB_IP.third.v4 })).toEqual({ trusted: false });
  }, 20_000);

  it('rebuilds common-area rules from its own store when the agent starts again (no console)', async () => {
    await clearRules();
    const saved = await client.call('areas.save', { area: { name: 'Boot', members: ['JP'] }, guard });
    await client.call('firewall.rules.add', rule({ areas: [`common:${saved.id}`] }));
    const { stateDir, dir } = agent;
    await agent.close();
    await lab.exec('server', ['nft', 'flush', 'ruleset']);
    expect(await tcp(attacker, server.v4, 9000)).toBe('open');
    agent = await startTestAgent({ dir, stateDir, firewall: { nft: createNftExecutor({ netns: lab.names.server }), geo, background: false } });
    await connect();
    expect(await tcp(attacker, server.v4, 9000)).toBe('timeout');
    expect(await tcp(third, serverFromThird.v4, 9000)).toBe('open');
  });
});
