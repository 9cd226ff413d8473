import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { renderEvent, type GuardPlan, type ProcessRuleInput } from '@rampart/contracts';
import { writeTestGeoData } from '@rampart/geoip';
import { FakeHelper } from '../../../packages/guard/tests/fake-helper.ts';
import { readMountRoots } from '../src/process/mount-roots.ts';
import { startTestAgent, useCleanups } from './helpers.ts';

/*
 * Process protection through the agent's real socket: rules CRUD and refusals, and what the rules
 * hand the guard (a fake helper on a temp socket records the plans): deny start as an x slot on the
 * executable itself for every process, file access rules as slots restricted to that executable.
 * Every executable and path is a temp copy.
 */

const { cleanups, tempDir } = useCleanups();

async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function setup(options: { net?: boolean } = {}) {
  const dir = await tempDir();
  const socketPath = path.join(dir, 'guard.sock');
  const helper = await FakeHelper.listen(socketPath);
  helper.hello = { ...helper.hello, backend: 'lsm', ops: ['r', 'x', 'd', 'c', 'n', 'w', 't'], cause: '', ...(options.net !== undefined ? { net: options.net, ...(options.net ? {} : { net_cause: 'net_cgroup_missing' }) } : {}) };
  cleanups.push(() => helper.close());
  const tool = path.join(dir, 'bin', 'mytool');
  await mkdir(path.dirname(tool), { recursive: true });
  await copyFile('/bin/true', tool);
  const data = path.join(dir, 'data');
  await mkdir(data, { recursive: true });
  await writeFile(path.join(data, 'secret.txt'), 'secret\n');
  // A small geo-IP data set in the real formats, so allowed areas expand to known ranges.
  const geo = writeTestGeoData(path.join(dir, 'geo'), {
    v4: [['10.77.0.0', '10.77.255.255', 'JP'], ['198.51.100.0', '198.51.100.127', 'JP'], ['10.88.2.0', '10.88.2.255', 'CN']],
    v6: [['2001:db8:77::', '2001:db8:77:ffff:ffff:ffff:ffff:ffff', 'JP']],
    provinces: [['10.88.2.0', '10.88.2.255', '广东省']],
  });
  const agent = await startTestAgent({
    dir,
    firewall: { nft: null, background: false, sensors: { journal: false }, geo },
    guard: { spawn: false, background: false, socketPath, client: { backoff: { minMs: 20, maxMs: 100 } } },
    logs: { background: false },
  });
  const client = new AgentClient(agent.socketPath, { timeoutMs: 5000 });
  cleanups.push(async () => {
    client.close();
    await agent.close();
  });
  await until(() => helper.plans.length, (n) => n > 0);
  return { client, helper, tool, data, lastPlan: () => helper.plans.at(-1) as GuardPlan };
}

const slots = (plan: GuardPlan) => plan.sets.flatMap((s) => s.slots);
const slotsOf = (plan: GuardPlan, file: string) => {
  const object = plan.objects.find((o) => o.path === file);
  return object ? plan.sets.find((s) => s.id === object.set)!.slots : [];
};

describe('process protection: rules through the agent socket', () => {
  it('adds, lists, edits, switches and deletes rules; refuses duplicates, unknown ids and empty rules', async () => {
    const { client, tool } = await setup();
    const rule: ProcessRuleInput = { process: tool, deny_start: true, remark: 'no tool' };
    const added = await client.call('process.rules.add', { rule, account: 'admin' });
    expect(added).toMatchObject({ changed: 1, refused: null });
    const id = added.ids[0]!;
    expect(await client.call('process.rules.add', { rule, account: 'admin' })).toMatchObject({ changed: 0, refused: 'process_rule_duplicate' });
    await expect(client.call('process.rules.add', { rule: { process: tool }, account: 'admin' } as never)).rejects.toThrow();
    await expect(client.call('process.rules.add', { rule: { process: 'a*b', deny_tcp: true }, account: 'admin' } as never)).rejects.toThrow();
    await expect(client.call('process.rules.add', { rule: { process: '*php', files: [{ path: '/tmp/x', ops: [], level: 5, action: 'deny' }] }, account: 'admin' } as never)).rejects.toThrow();

    let list = await client.call('process.rules.list', { offset: 0, limit: 50 });
    expect(list.total).toBe(1);
    // the module is off: nothing is enforced
    expect(list.list[0]).toMatchObject({ id, process: tool, deny_start: true, deny_tcp: false, remark: 'no tool', state: 'off', net_state: 'off', whitelist: [], files: [] });

    expect(await client.call('process.rules.edit', { rule: { id: 999, process: tool, deny_udp: true }, account: 'admin' })).toMatchObject({ refused: 'process_rule_not_found' });
    expect(await client.call('process.rules.edit', { rule: { id, process: tool, deny_udp: true, allow_ips: ['10.0.0.0/8', '10.0.0.0/8'], allow_areas: ['CN'] }, account: 'admin' })).toMatchObject({ changed: 1 });
    list = await client.call('process.rules.list', { offset: 0, limit: 50, keyword: 'mytool' });
    expect(list.list[0]).toMatchObject({ deny_start: false, deny_udp: true, allow_ips: ['10.0.0.0/8'], allow_areas: ['CN'] });
    expect((await client.call('process.rules.list', { offset: 0, limit: 50, keyword: 'nothing-like-it' })).total).toBe(0);

    expect(await client.call('process.rules.set_enabled', { ids: [id], enabled: false, account: 'admin' })).toMatchObject({ changed: 1, ids: [id] });
    expect(await client.call('process.rules.set_enabled', { ids: [id], enabled: false, account: 'admin' })).toMatchObject({ changed: 0 });
    expect(await client.call('process.rules.delete', { ids: [id, 12345], account: 'admin' })).toMatchObject({ changed: 1, ids: [id] });
    expect((await client.call('process.rules.list', { offset: 0, limit: 50 })).total).toBe(0);

    const kinds = (await client.call('events.query', { limit: 100 })).list.filter((e) => e.kind === 'process.rules_changed').map((e) => e.params['action']);
    expect(kinds.sort()).toEqual(['add', 'delete', 'disable', 'edit']);
  });

  it('hands the guard an x slot on the executable for every process and file slots restricted to the executable', async () => {
    const { client, tool, data, lastPlan } = await setup();
    await client.call('module.switch', { modules: ['process'], status: 1 });
    const { ids } = await client.call('process.rules.add', {
      rule: {
        process: tool,
        deny_start: true,
        files: [
          { path: path.join(data, 'public'), ops: [], level: 1, action: 'allow' },
          { path: data, ops: ['r', 'w'], level: 10, action: 'deny' },
        ],
      },
      account: 'admin',
    });
    const id = ids[0]!;
    const plan = lastPlan();
    expect(plan.enforce).toBe(true);
    expect(slotsOf(plan, tool)).toEqual([expect.objectContaining({ rule: `process:${id}:start`, deny: 2, proc: -1 })]);
    const dataSlots = slotsOf(plan, data);
    expect(dataSlots).toEqual([expect.objectContaining({ rule: `process:${id}:file1`, deny: 1 | 32 })]);
    expect(dataSlots[0]!.proc).toBeGreaterThanOrEqual(0);
    // the allow rule's path does not exist yet: its part is path_missing, so the rule is not all active
    const row = (await client.call('process.rules.list', { offset: 0, limit: 10 })).list[0]!;
    expect(row.state).toBe('path_missing');
    await mkdir(path.join(data, 'public'));
    await client.call('process.rules.edit', { rule: { id, process: tool, deny_start: true, files: row.files }, account: 'admin' });
    expect((await client.call('process.rules.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('active');

    // a rule that only denies traffic, while the helper has no network programs: planned as not enforced
    await client.call('process.rules.add', { rule: { process: tool.replace(/mytool$/, 'my*'), deny_tcp: true, allow_ips: ['192.0.2.1'] }, account: 'admin' });
    const netRow = (await client.call('process.rules.list', { offset: 0, limit: 10 })).list[1]!;
    expect(netRow).toMatchObject({ state: 'not_enforced', net_state: 'not_enforced' });
    expect(await client.call('process.status', {})).toMatchObject({ enabled: true, backend: 'lsm', net: false, rules: 2 });

    // module off: no process slot and nothing enforced
    await client.call('module.switch', { modules: ['process'], status: 0 });
    expect(lastPlan().enforce).toBe(false);
    expect(slots(lastPlan()).some((s) => s.rule.startsWith('process:'))).toBe(false);
  });

  it('denies the start of a program by name (*name) at every filesystem root of this host, for every process but the whitelist', async () => {
    const { client, lastPlan } = await setup();
    await client.call('module.switch', { modules: ['process'], status: 1 });
    const { ids } = await client.call('process.rules.add', { rule: { process: '*/xmrig', deny_start: true, whitelist: ['/usr/bin/true'] }, account: 'admin' });
    const key = `process:${ids[0]}:start`;
    const plan = await until(lastPlan, (p) => slots(p).some((slot) => slot.rule === key));
    const roots = await readMountRoots();
    expect(roots[0]).toBe('/');
    for (const root of roots) {
      const held = slotsOf(plan, root).filter((slot) => slot.rule === key);
      expect(held, root).toHaveLength(1);
      expect(held[0]).toMatchObject({ covers: 2, deny: 2, proc: -1, name: { kind: 'exact', a: 'xmrig', b: '' } });
      expect(held[0]!.exempt).toBeGreaterThanOrEqual(0);
    }
    expect((await client.call('process.rules.list', { offset: 0, limit: 10 })).list[0]).toMatchObject({ process: '*/xmrig', state: 'active' });

    // a name contained anywhere is narrower than the path pattern (folders are not matched): partial
    await client.call('process.rules.add', { rule: { process: '*xmr*', deny_start: true }, account: 'admin' });
    const rows = (await client.call('process.rules.list', { offset: 0, limit: 10 })).list;
    expect(rows.find((row) => row.process === '*xmr*')).toMatchObject({ state: 'partial' });
    // a pattern naming folders after its star cannot be a name: not enforced
    await client.call('process.rules.add', { rule: { process: '*bin/xmrig', deny_start: true }, account: 'admin' });
    const again = (await client.call('process.rules.list', { offset: 0, limit: 10 })).list;
    expect(again.find((row) => row.process === '*bin/xmrig')).toMatchObject({ state: 'not_enforced' });
  });

  it('plans the net part for the executables a rule matches, and records the helper\'s net denials as events', async () => {
    const { client, helper, tool, lastPlan } = await setup({ net: true });
    await client.call('module.switch', { modules: ['process'], status: 1 });
    const { ids } = await client.call('process.rules.add', { rule: { process: tool, deny_udp: true, allow_ips: ['10.0.0.0/8', '192.0.2.1'], allow_areas: [] }, account: 'admin' });
    const id = ids[0]!;
    const net = lastPlan().net!;
    expect(net.rules).toEqual([{ rule: `process:${id}`, deny: expect.any(Number), allow: ['10.0.0.0/8', '192.0.2.1/32'] }]);
    expect(net.exes).toEqual([expect.objectContaining({ path: tool, rules: [0] })]);
    expect((await client.call('process.rules.list', { offset: 0, limit: 10 })).list[0]).toMatchObject({ state: 'active', net_state: 'active' });
    expect(await client.call('process.status', {})).toMatchObject({ net: true, net_cause: null });

    helper.push(JSON.stringify({ event: 'net_denied', proto: 'udp', family: 4, peer: '198.51.100.7', port: 53, rule: `process:${id}`, pid: 4242, uid: 0, comm: 'mytool', exe: tool, repeats: 1, time: 0 }));
    const denied = await until(async () => (await client.call('events.query', { limit: 100 })).list.filter((e) => e.kind === 'process.net_denied'), (list) => list.length > 0);
    expect(denied[0]).toMatchObject({ module: 'process', params: expect.objectContaining({ peer: '198.51.100.7', port: 53, proto: 'udp', process: tool, rule: `process:${id}` }) });
    expect(renderEvent('process.net_denied', denied[0]!.params, 'en-US').content).toBe(`udp to 198.51.100.7 port 53 by ${tool} (PID 4242, UID 0) denied (rule process:${id})`);
    // notification is on by default: the denial raises a notice for the alert methods
    const notices = await until(async () => (await client.call('notices.list', { offset: 0, limit: 50 })).list.filter((n) => n.kind === 'process_net_denied'), (list) => list.length > 0);
    expect(notices[0]!.params).toMatchObject({ peer: '198.51.100.7', port: 53, proto: 'udp', rule: `process:${id}` });
    // with notification off, a denial is still an event but raises no notice
    const { ids: quiet } = await client.call('process.rules.add', { rule: { process: tool, deny_tcp: true, notify: false }, account: 'admin' });
    helper.push(JSON.stringify({ event: 'net_denied', proto: 'tcp', family: 6, peer: '2001:db8::9', port: 443, rule: `process:${quiet[0]}`, pid: 4243, uid: 0, comm: 'mytool', exe: tool, repeats: 1, time: 0 }));
    await until(async () => (await client.call('events.query', { limit: 100 })).list.filter((e) => e.kind === 'process.net_denied'), (list) => list.length > 1);
    const all = (await client.call('notices.list', { offset: 0, limit: 50 })).list.filter((n) => n.kind === 'process_net_denied');
    expect(all.map((n) => n.params['rule'])).toEqual([`process:${id}`]);

    // rule off: the net part is empty again
    await client.call('process.rules.set_enabled', { ids: [id], enabled: false, account: 'admin' });
    expect(lastPlan().net?.rules ?? []).toEqual([]);
  });

  it('allows the peers of the allowed areas: countries and common areas expand to the geo-IP ranges, and an area edit re-plans', async () => {
    const { client, tool, lastPlan } = await setup({ net: true });
    await client.call('module.switch', { modules: ['process'], status: 1 });
    const { ids } = await client.call('process.rules.add', { rule: { process: tool, deny_udp: true, allow_ips: ['192.0.2.1'], allow_areas: ['JP'] }, account: 'admin' });
    const id = ids[0]!;
    const jp = ['10.77.0.0/16', '192.0.2.1/32', '198.51.100.0/25', '2001:db8:77::/48'];
    expect(lastPlan().net!.rules).toEqual([{ rule: `process:${id}`, deny: expect.any(Number), allow: jp }]);
    expect((await client.call('process.rules.list', { offset: 0, limit: 10 })).list[0]).toMatchObject({ net_state: 'active' });

    // A common area: its members are what is allowed; editing them re-plans the rule.
    const guard = { admin_ip: null, panel_port: 6688 };
    const saved = await client.call('areas.save', { area: { name: 'South', members: ['CN-GD'] }, guard });
    const ref = `common:${saved.id}`;
    await client.call('process.rules.edit', { rule: { id, process: tool, deny_udp: true, allow_ips: [], allow_areas: [ref] }, account: 'admin' });
    expect(lastPlan().net!.rules[0]!.allow).toEqual(['10.88.2.0/24']);
    await client.call('areas.save', { area: { id: saved.id!, name: 'South', members: ['CN-GD', 'JP'] }, guard });
    await until(() => lastPlan().net!.rules[0]!.allow, (allow) => allow.length > 1);
    expect(lastPlan().net!.rules[0]!.allow).toEqual(['10.77.0.0/16', '10.88.2.0/24', '198.51.100.0/25', '2001:db8:77::/48']);

    // The area is in use by the process rule: deleting it is refused, and the rule keeps its peers.
    expect(await client.call('areas.delete', { ids: [saved.id!] })).toMatchObject({ changed: 0, refused: 'area_in_use', rules: 1 });
    expect(lastPlan().net!.rules[0]!.allow).toHaveLength(4);
  });
});
