import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchStateSchema, type PatchState } from '@rampart/contracts';
import { holdLock, makeAptSandbox, removeAptSandbox, type AptSandbox } from '../../../packages/audit/tests/apt-sandbox.ts';
import { magapi, startHarness, type Harness } from './support/harness.ts';

/*
 * The patch tab's console calls against a real agent on a real socket running the real apt-get in
 * a sandbox apt world (packages/audit/tests/apt-sandbox.ts): the door, its own permission key,
 * validation and refusals in both languages.
 */

let h: Harness;
let token: string;
let sandbox: AptSandbox;

beforeAll(async () => {
  sandbox = makeAptSandbox([{ name: 'alpha', suite: 'main' }, { name: 'beta', suite: 'security' }]);
  h = await startHarness({
    agent: () => ({
      guard: { spawn: false, background: false },
      patch: { apt: sandbox.apt, timers: false },
    }),
  });
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(async () => {
  await h.close();
  removeAptSandbox(sandbox);
});

type Lang = 'zh-CN' | 'en-US';
const post = (url: string, payload?: unknown, lang: Lang = 'en-US', as = token) => magapi(h.app, 'POST', url, { token: as, payload, lang });
const get = (url: string, lang: Lang = 'en-US', as = token) => magapi(h.app, 'GET', url, { token: as, lang });
async function idle(): Promise<PatchState> {
  await h.agent!.patch.idle();
  return patchStateSchema.parse((await get('/audit/patch/status')).body.data);
}

describe('the patch tab through the console', () => {
  it('checks, downloads and installs with messages in the caller\'s language', async () => {
    expect((await get('/audit/patch/status')).body.data).toMatchObject({ available: true, busy: null, check: { state: 'never' }, list: [] });
    expect((await post('/audit/patch/install', { all: true }, 'zh-CN')).body.msg).toBe('请先检查补丁');
    expect((await post('/audit/patch/check', undefined, 'zh-CN')).body).toMatchObject({ code: 0, msg: '已开始检查补丁', data: { started: true } });
    const checked = await idle();
    expect(checked.list.map((i) => [i.name, i.level, i.status])).toEqual([['alpha', 'optional', 'waiting_update'], ['beta', 'important', 'waiting_update']]);

    expect((await post('/audit/patch/download', { names: ['beta'] })).body).toMatchObject({ code: 0, msg: 'Download started' });
    expect((await idle()).list.find((i) => i.name === 'beta')?.status).toBe('download_finished');
    expect((await post('/audit/patch/install', { all: true })).body.msg).toBe('Install started; a reboot of the server is suggested when it finishes');
    const installed = await idle();
    expect(installed.list.map((i) => i.status)).toEqual(['install_finished', 'install_finished']);
    expect(installed.reboot_required).toBe(true);
    expect(existsSync(join(sandbox.root, 'usr/share/alpha/hello.txt'))).toBe(true);
  });

  it('says another package manager is running while dpkg\'s lock is held', async () => {
    const lock = await holdLock(sandbox.lockFile);
    try {
      expect((await post('/audit/patch/check', undefined, 'zh-CN')).body.msg).toBe('另一个软件包管理程序（apt 或 dpkg）正在运行，请稍候再试');
      expect((await post('/audit/patch/check', undefined, 'en-US')).body.msg).toBe('Another package manager (apt or dpkg) is running; please wait and try again');
    } finally {
      lock.release();
    }
  });

  it('saves the auto update settings and refuses bad input, changing nothing', async () => {
    expect((await post('/audit/patch/settings', { auto_update: true, time: '04:30' }, 'zh-CN')).body).toMatchObject({ code: 0, msg: '自动更新设置已保存', data: { auto_update: true, time: '04:30' } });
    const before = JSON.stringify((await get('/audit/patch/status')).body.data);
    expect((await post('/audit/patch/settings', { auto_update: true, time: '25:00' }, 'zh-CN')).body.msg).toBe('时间格式应为 HH:MM（24 小时制）');
    expect((await post('/audit/patch/settings', { auto_update: true, time: '4:30' }, 'en-US')).body.msg).toBe('The time must be HH:MM (24-hour)');
    expect((await post('/audit/patch/install', { names: [] }, 'zh-CN')).body.msg).toBe('请选择需要处理的补丁');
    expect((await post('/audit/patch/install', {}, 'en-US')).body.msg).toBe('Select the patches to process');
    for (const body of [{ names: ['alpha'], all: true }, { names: ['Bad Name'] }, { all: false }, { names: 'alpha' }, { auto_update: true }]) {
      expect((await post('/audit/patch/download', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await post('/audit/patch/check', { now: true })).status).toBe(400);
    expect((await get('/audit/patch/status?x=1')).status).toBe(400);
    expect((await post('/audit/patch/download', { names: ['not-pending'] }, 'en-US')).body.msg).toMatch(/^This package is not in the list of pending updates/);
    expect(JSON.stringify((await get('/audit/patch/status')).body.data)).toBe(before);
  });

  it('has its own permission key, audit_patch, apart from the audit\'s', async () => {
    const keys = new Map(h.console.routes.map((r) => [`${r.method} ${r.url}`, r.access.kind === 'permission' ? r.access.key : r.access.kind]));
    for (const url of ['GET /magapi/audit/patch/status', 'POST /magapi/audit/patch/check', 'POST /magapi/audit/patch/download', 'POST /magapi/audit/patch/install', 'POST /magapi/audit/patch/settings']) expect(keys.get(url), url).toBe('audit_patch');
    expect(keys.get('GET /magapi/audit/status')).toBe('audit');
    const auditor = await h.addUser('auditor');
    expect((await get('/audit/patch/status', 'en-US', auditor.token)).status).toBe(403);
    expect((await post('/audit/patch/check', undefined, 'en-US', auditor.token)).status).toBe(403);
  });
});
