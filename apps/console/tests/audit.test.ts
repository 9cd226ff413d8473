import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '@rampart/agent';
import { recordedExecutor } from '@rampart/audit';
import { auditResultRowSchema, auditRunSchema, auditStatusSchema, reinforceItemSchema } from '@rampart/contracts';
import { baseAccounts, makeRoot, removeRoots } from '../../../packages/audit/tests/fixture-root.ts';
import { magapi, startHarness, type Harness } from './support/harness.ts';

/*
 * The security audit's console calls against a real agent on a real socket, auditing a small
 * Debian-like root in a temp dir with a recorded executor (never the host's /etc): the door, its
 * permissions, its validation and its messages in both languages.
 */

let h: Harness;
let agent: RunningAgent;
let token: string;
let root: string;
const loginDefs = '# login.defs\nPASS_MAX_DAYS\t99999\nPASS_MIN_DAYS\t0\nUMASK\t\t022\n';

beforeAll(async () => {
  h = await startHarness({ agent: false });
  root = makeRoot({
    ...baseAccounts,
    '/etc/ssh/sshd_config': 'Include /etc/ssh/sshd_config.d/*.conf\nPermitRootLogin yes\nX11Forwarding yes\n',
    '/etc/ssh/sshd_config.d': { dir: true },
    '/etc/login.defs': { text: loginDefs, mode: 0o644 },
  });
  agent = await startAgent({
    socketPath: join(h.dir, 'agent.sock'),
    stateDir: join(h.dir, 'agent'),
    executors: { restartSoftware: async () => undefined, rebootServer: async () => undefined },
    log: () => {},
    logs: { now: () => h.clock.now, background: false },
    firewall: { nft: null, background: false, sensors: { journal: false } },
    guard: { spawn: false, background: false },
    audit: { root, executor: recordedExecutor({ 'sshd -t': {}, systemctl: {} }) },
  });
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(async () => {
  await h.close();
  await agent.close();
  removeRoots();
});

type Lang = 'zh-CN' | 'en-US';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of loosely typed answers
type Body = { code: number; msg: string; data?: any };
async function post(url: string, payload?: unknown, options: { lang?: Lang; as?: string } = {}): Promise<{ status: number; body: Body }> {
  return magapi(h.app, 'POST', url, { token: options.as ?? token, payload, lang: options.lang ?? 'en-US' });
}
async function get(url: string, lang: Lang = 'en-US', as = token): Promise<{ status: number; body: Body }> {
  return magapi(h.app, 'GET', url, { token: as, lang });
}
async function idle() {
  for (let i = 0; i < 500; i++) {
    const status = auditStatusSchema.parse((await get('/audit/status')).body.data);
    if (!status.running && !status.reinforce.running) return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the audit did not finish');
}

describe('the security audit through the console', () => {
  it('starts a run, reads its status, results with filters and pages, and the history', async () => {
    expect((await get('/audit/status')).body.data).toMatchObject({ available: true, running: false, run: null });
    expect((await get('/audit/results')).body.data).toEqual({ run: null, total: 0, list: [] });
    expect((await post('/audit/start')).body).toMatchObject({ code: 0, msg: 'Audit started', data: { started: true } });
    const status = await idle();
    expect(status.run).toMatchObject({ status: 'finished', account: expect.any(String) });

    const all = await get('/audit/results?page=1&size=100');
    expect(all.body.data.total).toBe(126);
    expect(all.body.data.list).toHaveLength(100);
    auditResultRowSchema.parse(all.body.data.list[0]);
    const fails = await get('/audit/results?level=danger&outcome=fail&size=100');
    expect(fails.body.data.total).toBe(status.run!.failed_by_level!.danger);
    expect(fails.body.data.list.every((r: { level: string; outcome: string }) => r.level === 'danger' && r.outcome === 'fail')).toBe(true);
    expect((await get(`/audit/results?run_id=${status.run!.id}&outcome=pass&page=2&size=5`)).body.data.list).toHaveLength(5);

    const history = await get('/audit/history?page=1&size=20');
    expect(history.body.data.total).toBe(1);
    auditRunSchema.parse(history.body.data.list[0]);
  });

  it('applies an item, lists it applied, reverts it with the file back', async () => {
    const items = (await get('/audit/reinforce/items')).body.data.list.map((i: unknown) => reinforceItemSchema.parse(i));
    expect(items.map((i: { id: string }) => i.id)).toEqual(expect.arrayContaining(['pam.pass_max_days', 'ssh.x11_forwarding']));
    expect((await post('/audit/reinforce/apply', { checkIds: ['pam.pass_max_days'] }, { lang: 'zh-CN' })).body).toMatchObject({ code: 0, msg: '已开始加固，完成后请按提示重载服务或重启服务器' });
    const done = await idle();
    expect(done.reinforce.results).toEqual([{ checkId: 'pam.pass_max_days', status: 'applied', effect: 'none' }]);
    expect(readFileSync(join(root, 'etc/login.defs'), 'utf8')).toContain('PASS_MAX_DAYS\t365');
    expect((await get('/audit/reinforce/items')).body.data.list.find((i: { id: string }) => i.id === 'pam.pass_max_days')).toMatchObject({ applied: true });

    expect((await post('/audit/reinforce/revert', { checkIds: ['pam.pass_max_days'] })).body).toMatchObject({ code: 0, msg: 'Reverted 1 reinforcement items' });
    expect(readFileSync(join(root, 'etc/login.defs'), 'utf8')).toBe(loginDefs);
    expect((await post('/audit/reinforce/revert', { all: true }, { lang: 'zh-CN' })).body).toMatchObject({ code: 0, msg: '已回滚 0 项加固' });
  });

  it('refuses bad input with a clear message in the caller language and changes nothing', async () => {
    const empty = await post('/audit/reinforce/apply', { checkIds: [] }, { lang: 'zh-CN' });
    expect(empty).toMatchObject({ status: 400, body: { msg: '请选择需要加固的项目' } });
    expect((await post('/audit/reinforce/apply', {}, { lang: 'en-US' })).body.msg).toBe('Select the items to reinforce');
    expect((await post('/audit/reinforce/revert', {})).status).toBe(400);
    expect((await post('/audit/reinforce/revert', { all: true, checkIds: ['x'] })).status).toBe(400);
    expect((await post('/audit/reinforce/apply', { checkIds: ['a b'] })).status).toBe(400);
    expect((await post('/audit/start', { now: true })).status).toBe(400);
    expect((await post('/audit/start', {})).status).toBe(400);
    for (const query of ['level=severe', 'outcome=maybe', 'page=0', 'size=1000', 'run_id=x', 'extra=1']) {
      const res = await get(`/audit/results?${query}`, 'zh-CN');
      expect(res.status, query).toBe(400);
      expect(res.body.msg.length, query).toBeGreaterThan(0);
    }
    // An unknown check is planned and refused with its reason, not an error.
    expect((await post('/audit/reinforce/apply', { checkIds: ['no.such_check'] })).body.code).toBe(0);
    expect((await idle()).reinforce.results).toEqual([{ checkId: 'no.such_check', status: 'refused', effect: 'none', reason: { key: 'audit_unknown_check', values: { id: 'no.such_check' } } }]);
  });

  it('a second start while one runs says execution is in progress; the auditor role may not look', async () => {
    const first = await post('/audit/start');
    expect(first.body.code).toBe(0);
    const second = await post('/audit/start', undefined, { lang: 'zh-CN' });
    // The fixture run is fast: either the first still runs (refused) or it has finished (started again).
    if (second.body.code !== 0) expect(second.body.msg).toBe('正在执行中，请稍候');
    await idle();
    const auditor = await h.addUser('auditor');
    expect((await get('/audit/status', 'en-US', auditor.token)).status).toBe(403);
    expect((await post('/audit/start', undefined, { as: auditor.token })).status).toBe(403);
    const tech = await h.addUser('technician');
    expect((await get('/audit/history', 'en-US', tech.token)).body.data.total).toBeGreaterThanOrEqual(2);
  });
});
