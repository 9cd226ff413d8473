import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentConfigCore } from '@rampart/contracts';
import { RawClient, startTestAgent, type TestAgent } from './helpers.ts';

/*
 * The agent's side of a configuration restore, over the real socket with a raw client (so the
 * console's own checks are not in the way): what it refuses, and that a refusal changes nothing.
 */

type Response = { id: number; ok: boolean; error?: { code: string; message: string }; result?: unknown };

let agent: TestAgent;
let client: RawClient;
let next = 1;
const call = async (method: string, params: unknown = {}) => (await client.request(next++, method, params)) as Response;
const guard = { admin_ip: null, panel_port: 6688, account: 'admin' };
const stage = 'a'.repeat(32);

async function state() {
  return {
    core: (await call('config.export')).result,
    lists: await Promise.all(['white', 'black', 'super'].map(async (list) => (await call('config.export.list', { list, after: 0, limit: 1000 })).result)),
  };
}

beforeAll(async () => {
  agent = await startTestAgent();
  client = await RawClient.connect(agent.socketPath);
  expect((await call('firewall.lists.add', { list: 'black', addresses: ['203.0.113.9'], remark: 'r', expires_at: null, guard })).ok).toBe(true);
  expect((await call('firewall.rules.add', { rule: { direction: 'in', protocol: 'tcp', ports: '22', ips: ['198.51.100.1'], action: 'deny', priority: 3 }, guard })).ok).toBe(true);
});
afterAll(async () => {
  client.socket.end();
  await agent.dispose();
});

describe('config.import in the agent', () => {
  it('round-trips its own export, lists staged in chunks', async () => {
    const before = await state();
    const core = before.core as AgentConfigCore;
    const black = (before.lists[1] as { entries: unknown[] }).entries;
    expect((await call('config.stage', { stage, list: 'black', entries: black })).result).toEqual({ staged: 1 });
    const res = await call('config.import', { config: core, stage, guard });
    expect(res).toMatchObject({ ok: true, result: { refused: null, probation: null, secrets_dropped: 0 } });
    expect(await state()).toEqual(before);
  });

  it('refuses an invalid rule, an invalid staged entry and a missing stage, changing nothing', async () => {
    const before = await state();
    const core = before.core as AgentConfigCore;
    const badRule = { ...core, firewall: { ...core.firewall, rules: [{ ...core.firewall.rules[0], ports: '99999' }] } };
    expect((await call('config.import', { config: badRule, stage: null, guard })).error?.code).toBe('bad_request');
    expect((await call('config.stage', { stage, list: 'black', entries: [['not-an-ip', '', '', 1, null, 'manual']] })).error?.code).toBe('bad_request');
    const missing = await call('config.import', { config: core, stage: 'b'.repeat(32), guard });
    expect(missing.error?.code).toBe('failed');
    expect(missing.error?.message).toContain('staged lists');
    const unknownArea = { ...core, firewall: { ...core.firewall, rules: [{ ...core.firewall.rules[0], ips: [], areas: ['common:42'] }] } };
    expect((await call('config.import', { config: unknownArea, stage: null, guard })).error?.code).toBe('bad_request');
    expect(await state()).toEqual(before);
  });

  it('empties the lists when no stage is named', async () => {
    const core = (await state()).core as AgentConfigCore;
    expect((await call('config.import', { config: core, stage: null, guard })).ok).toBe(true);
    expect((await call('config.export.list', { list: 'black', after: 0, limit: 10 })).result).toEqual({ entries: [], last: 0 });
  });
});
