import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteViewSchema } from '@rampart/contracts';
import { auth, startHarness, type Harness } from './support/harness.ts';

/*
 * Remote protection's console calls against a real agent on a real socket (desired state only: the
 * kernel side is apps/agent/tests/remote-kernel.test.ts). The door, its validation, its warnings and
 * messages in both languages, and the brute-force limit being the firewall's SSH scenario.
 */

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(() => h.close());

type Lang = 'zh-CN' | 'en-US';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of loosely typed answers
type Body = { code: number; msg: string; data: any };
async function post(url: string, payload: unknown, lang: Lang = 'en-US') {
  const res = await h.app.inject({ method: 'POST', url: `/magapi${url}`, payload: payload as object, headers: { ...auth(token), 'accept-language': lang } });
  return { status: res.statusCode, body: res.json() as Body };
}
async function get(url: string, lang: Lang = 'en-US') {
  const res = await h.app.inject({ url: `/magapi${url}`, headers: { ...auth(token), 'accept-language': lang } });
  return { status: res.statusCode, body: res.json() as Body };
}

const access = { ips: ['10.9.0.0/16'], areas: ['JP'], windows: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' }], notify_login: true };

describe('remote protection', () => {
  it('answers its settings in the contract shape, with the computer-name rule disabled and why', async () => {
    const res = await get('/remote/settings');
    expect(res.body.code).toBe(0);
    const view = remoteViewSchema.parse(res.body.data);
    expect(view.computer_name_rule).toEqual({ available: false, reason: 'remote_computer_name_windows_only' });
    expect(view.enabled).toBe(false);
  });

  it('saves the access rule and reads it back', async () => {
    const saved = await post('/remote/access', access, 'zh-CN');
    expect(saved.body).toMatchObject({ code: 0, msg: '远程防护设置已保存' });
    expect((await get('/remote/settings')).body.data.access).toEqual(access);
  });

  it('refuses a window whose end is not later than its start, in the caller language, and changes nothing', async () => {
    for (const [lang, text] of [['zh-CN', '结束时间必须晚于开始时间'], ['en-US', 'The end time must be later than the start time']] as const) {
      const res = await post('/remote/access', { ...access, ips: [], windows: [{ days: [1], start: '18:00', end: '18:00' }] }, lang);
      expect(res.body.code).not.toBe(0);
      expect(res.body.msg).toContain(text);
    }
    const bad = await post('/remote/access', { ...access, windows: [{ days: [], start: '25:00', end: '26:00' }] });
    expect(bad.body.code).not.toBe(0);
    expect((await get('/remote/settings')).body.data.access).toEqual(access);
  });

  it('warns when the module is on and nothing is authorized', async () => {
    expect((await post('/module_switch', { module: 'remote', status: 1 })).body.code).toBe(0);
    for (const [lang, text] of [['zh-CN', '除超级白名单外'], ['en-US', 'except the super whitelist']] as const) {
      const res = await post('/remote/access', { ips: [], areas: [], windows: [], notify_login: false }, lang);
      expect(res.body.code).toBe(1);
      expect(res.body.msg).toContain(text);
    }
    expect((await get('/remote/settings')).body.data.warnings).toContain('remote_nothing_authorized');
    await post('/remote/access', access);
    expect((await get('/remote/settings')).body.data.warnings).not.toContain('remote_nothing_authorized');
    await post('/module_switch', { module: 'remote', status: 0 });
  });

  it('sets the brute-force limit per hour as the firewall SSH brute-force scenario (one setting, not two)', async () => {
    const res = await post('/remote/bruteforce', { enabled: true, attempts_per_hour: 7, block_minutes: 45 });
    expect(res.body.code).toBe(0);
    const attack = (await get('/firewall/attack')).body.data;
    expect(attack.ssh_bruteforce).toMatchObject({ enabled: true, attempts: 7, seconds: 3600, block_minutes: 45 });
    // And the other way: the firewall's page changes what the remote page shows.
    await post('/firewall/attack', { ...attack, ssh_bruteforce: { ...attack.ssh_bruteforce, attempts: 5, seconds: 600 } });
    expect((await get('/remote/settings')).body.data.bruteforce).toMatchObject({ attempts_per_hour: 30, seconds: 600, block_minutes: 45 });
    const bad = await post('/remote/bruteforce', { enabled: true, attempts_per_hour: 0, block_minutes: 45 }, 'zh-CN');
    expect(bad.body.code).not.toBe(0);
  });
});
