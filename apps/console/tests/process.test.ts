import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processRuleSchema, processStatusSchema } from '@rampart/contracts';
import { magapi, startHarness, type Harness } from './support/harness.ts';

/*
 * Process protection's console calls against a real agent on a real socket (no guard helper: the
 * rules are stored and planned, nothing is enforced on the host). Here: the door, its permissions,
 * its validation and its messages in both languages.
 */

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness({
    agent: () => ({
      guard: { spawn: false, background: false },
    }),
  });
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(async () => {
  await h.close();
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

describe('process protection: rules through the console', () => {
  it('adds, lists, edits, switches and deletes a rule; answers in the schemas', async () => {
    const added = await post('/process/rules/add', { rule: { process: '/usr/bin/nc', deny_start: true, deny_udp: true, allow_ips: ['10.0.0.0/8'], files: [{ path: '/etc', ops: ['w'], level: 5, action: 'deny' }] } });
    expect(added.body).toMatchObject({ code: 0, msg: 'Saved' });
    const id = added.body.data.ids[0] as number;
    const dup = await post('/process/rules/add', { rule: { process: '/usr/bin/nc', deny_tcp: true } }, { lang: 'zh-CN' });
    expect(dup.body).toMatchObject({ msg: '该进程已有规则，请编辑原规则' });
    expect(dup.body.code).not.toBe(0);

    const list = await get('/process/rules?page=1&size=20');
    expect(list.body.data.total).toBe(1);
    const row = processRuleSchema.parse(list.body.data.list[0]);
    expect(row).toMatchObject({ id, process: '/usr/bin/nc', deny_start: true, deny_udp: true, state: 'off', net_state: 'off' });
    expect(processStatusSchema.parse((await get('/process/status')).body.data)).toMatchObject({ enabled: false, backend: 'none', net: false });

    expect((await post('/process/rules/edit', { rule: { id, process: '/usr/bin/ncat', deny_tcp: true } })).body).toMatchObject({ code: 0 });
    expect((await post('/process/rules/edit', { rule: { id: 999, process: '/usr/bin/x', deny_tcp: true } })).body).toMatchObject({ msg: 'The rule does not exist' });
    expect((await post('/process/rules/enable', { ids: [id], enabled: false })).body).toMatchObject({ code: 0 });
    expect((await get('/process/rules')).body.data.list[0]).toMatchObject({ process: '/usr/bin/ncat', deny_start: false, enabled: false });
    expect((await post('/process/rules/delete', { ids: [id] })).body).toMatchObject({ code: 0 });
    expect((await get('/process/rules')).body.data.total).toBe(0);
  });

  it('refuses bad bodies with a clear message and changes nothing', async () => {
    for (const body of [
      { rule: { process: '/usr/bin/nc' } },
      { rule: { process: 'a*b', deny_tcp: true } },
      { rule: { process: '/usr/bin/nc', deny_tcp: true, allow_ips: ['300.1.1.1'] } },
      { rule: { process: '/usr/bin/nc', files: [{ path: 'etc', ops: ['w'], level: 5, action: 'deny' }] } },
      { rule: { process: '/usr/bin/nc', files: [{ path: '/etc', ops: [], level: 5, action: 'deny' }] } },
      { rule: { process: '/usr/bin/nc', files: [{ path: '/etc', ops: ['w'], level: 100, action: 'deny' }] } },
      { rule: { process: '/usr/bin/nc', deny_tcp: true, extra: 1 } },
    ]) {
      const res = await post('/process/rules/add', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await post('/process/rules/add', { rule: { process: '/usr/bin/nc' } }, { lang: 'zh-CN' })).body.msg).toBe('请至少选择一项限制：禁止启动、禁止 TCP、禁止 UDP 或文件访问规则');
    expect((await get('/process/rules')).body.data.total).toBe(0);
  });

  it('an auditor reads nothing and changes nothing', async () => {
    const auditor = await h.addUser('auditor');
    expect((await get('/process/rules', 'en-US', auditor.token)).status).toBe(403);
    expect((await post('/process/rules/add', { rule: { process: '/usr/bin/nc', deny_tcp: true } }, { as: auditor.token })).status).toBe(403);
  });
});
