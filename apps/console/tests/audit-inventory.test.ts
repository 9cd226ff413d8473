import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedExecutor } from '@rampart/audit';
import { auditProcessSchema, auditUserSchema, roleCan } from '@rampart/contracts';
import { baseAccounts, makeRoot, removeRoots } from '../../../packages/audit/tests/fixture-root.ts';
import { magapi, startHarness, type Harness } from './support/harness.ts';

/*
 * The audit's user and process tabs through the console, against a real agent on a real socket: the
 * users of a fixture root in a temp dir (never the host's /etc), the processes of this machine's
 * /proc. Paging, the findings filter, the detail of one process, roles and bad input in both languages.
 */

let h: Harness;
let token: string;

beforeAll(async () => {
  const root = makeRoot({
    ...baseAccounts,
    '/etc/passwd': `${(baseAccounts['/etc/passwd'] as { text: string }).text}toor:x:0:0::/root:/bin/bash\n`,
    '/etc/ssh/sshd_config': 'PermitRootLogin no\n',
  });
  h = await startHarness({
    agent: () => ({
      guard: { spawn: false, background: false },
      audit: { root, executor: recordedExecutor({}) },
    }),
  });
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(async () => {
  await h.close();
  removeRoots();
});

type Lang = 'zh-CN' | 'en-US';
const get = (url: string, lang: Lang = 'en-US', as = token) => magapi(h.app, 'GET', url, { token: as, lang });

describe('the user and process audit through the console', () => {
  it('lists the users with findings first, filters and pages them', async () => {
    const all = await get('/audit/account/list?page=1&size=20');
    expect(all.body.code).toBe(0);
    const list = all.body.data.list.map((u: unknown) => auditUserSchema.parse(u));
    expect(list.map((u: { name: string }) => u.name)).toEqual(['toor', 'root', 'daemon', 'sync', 'admin']);
    expect(list[0].findings).toEqual([{ kind: 'uid0_duplicate', level: 'danger', detail: 'uid 0 (/etc/passwd:5)' }]);
    expect(list[1]).toMatchObject({ name: 'root', remote: { ssh: 'denied', rule: 'PermitRootLogin no' }, last_login: { known: false } });
    expect(all.body.data.findings.danger).toBe(1);
    const only = await get('/audit/account/list?findings_only=1');
    expect(only.body.data.list.every((u: { findings: unknown[] }) => u.findings.length > 0)).toBe(true);
    expect((await get('/audit/account/list?page=2&size=2')).body.data).toMatchObject({ total: 5, list: [{ name: 'daemon' }, { name: 'sync' }] });
    expect((await get('/audit/account/list?keyword=ADM')).body.data).toMatchObject({ total: 1, list: [{ name: 'admin' }] });
  });

  it('lists this machine\'s processes, with the agent itself, and gives one process with all its modules', async () => {
    const res = await get('/audit/process/list?size=100');
    expect(res.body.code).toBe(0);
    expect(res.body.data.total).toBeGreaterThan(1);
    const self = res.body.data.list.map((p: unknown) => auditProcessSchema.parse(p)).find((p: { pid: number }) => p.pid === process.pid);
    expect(self?.path).toBe(process.execPath);
    // A pid as the keyword finds that process only.
    expect((await get(`/audit/process/list?keyword=${process.pid}`)).body.data.list.map((p: { pid: number }) => p.pid)).toEqual([process.pid]);
    const detail = await get(`/audit/process/detail?pid=${process.pid}`, 'zh-CN');
    expect(detail.body.data).toMatchObject({ pid: process.pid, modules_total: detail.body.data.modules.length });
    const gone = await get('/audit/process/detail?pid=999999999', 'zh-CN');
    expect(gone.body).toMatchObject({ code: 2, msg: '该进程已结束' });
  });

  it('refuses bad input in the caller language and lets only roles with audit query in', async () => {
    for (const query of ['findings_only=yes', 'page=0', 'size=1000', 'extra=1']) {
      for (const url of ['/audit/account/list', '/audit/process/list']) {
        const res = await get(`${url}?${query}`, 'zh-CN');
        expect(res.status, `${url}?${query}`).toBe(400);
        expect(res.body.msg).toBe('请求参数有误');
      }
    }
    expect((await get('/audit/process/detail?pid=abc', 'en-US')).body.msg).toBe('The process id must be a positive integer');
    expect((await get(`/audit/process/list?keyword=${'x'.repeat(101)}`, 'en-US')).body).toMatchObject({ msg: 'Keywords are at most 100 characters' });
    expect((await get('/audit/process/detail?pid=-1', 'zh-CN')).body.msg).toBe('进程号须为正整数');
    expect((await get('/audit/process/detail', 'en-US')).status).toBe(400);
    for (const role of ['technician', 'auditor'] as const) {
      const user = await h.addUser(role);
      const res = await get('/audit/account/list', 'en-US', user.token);
      expect(res.status, role).toBe(roleCan(role, 'audit', 'query') ? 200 : 403);
    }
  });
});
