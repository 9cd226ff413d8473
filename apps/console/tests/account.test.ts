import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '@rampart/agent';
import { accountPrivilegedSchema, accountStatusSchema } from '@rampart/contracts';
import { magapi, startHarness, type Harness } from './support/harness.ts';

/*
 * User protection's console calls against a real agent on a real socket. The agent here is this
 * test's own: its account files are a temp copy and sshd is a fake, so nothing on the host is
 * locked or reloaded. What the kernel denies is the agent's and the guard's tests; here: the door,
 * its permissions, its validation and its messages in both languages.
 */

let h: Harness;
let agent: RunningAgent;
let token: string;
const sshdCalls: string[] = [];

beforeAll(async () => {
  h = await startHarness({ agent: false });
  const etc = join(h.dir, 'etc');
  mkdirSync(join(h.dir, 'home/alice/.ssh'), { recursive: true });
  mkdirSync(etc);
  writeFileSync(join(etc, 'passwd'), `root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000::${join(h.dir, 'home/alice')}:/bin/bash\n`);
  writeFileSync(join(etc, 'group'), 'root:x:0:\nsudo:x:27:alice\nwheel:x:10:\n');
  writeFileSync(join(etc, 'shadow'), 'root:$y$abc:19000::::::\nalice:$y$def:19000::::::\n');
  writeFileSync(join(etc, 'gshadow'), 'root:*::\n');
  const dropins = join(h.dir, 'sshd_config.d');
  agent = await startAgent({
    socketPath: join(h.dir, 'agent.sock'),
    stateDir: join(h.dir, 'agent'),
    executors: { restartSoftware: async () => undefined, rebootServer: async () => undefined },
    log: () => {},
    logs: { now: () => h.clock.now, background: false },
    firewall: { nft: null, background: false, sensors: { journal: false } },
    guard: { spawn: false, background: false },
    account: {
      etcDir: etc,
      sshdDropinDir: dropins,
      timers: false,
      now: () => h.clock.now,
      sshd: {
        async sshd(args) {
          sshdCalls.push(args.join(' '));
          const dropin = (() => {
            try {
              return readFileSync(join(dropins, '50-rampart-root-login.conf'), 'utf8');
            } catch {
              return '';
            }
          })();
          return { code: 0, stdout: `permitrootlogin ${dropin.includes('PermitRootLogin no') ? 'no' : 'yes'}\npasswordauthentication yes\npubkeyauthentication yes\n`, stderr: '' };
        },
        async reload() {
          sshdCalls.push('reload');
          return { code: 0, stdout: '', stderr: '' };
        },
      },
    },
  });
  const admin = await h.register();
  token = await h.login(admin.username, admin.password);
});
afterAll(async () => {
  await h.close();
  await agent.close();
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

describe('user protection: status, lock and timed unlock', () => {
  it('status and privileged accounts answer in their schemas', async () => {
    const status = await get('/account/status');
    expect(status.status).toBe(200);
    expect(accountStatusSchema.parse(status.body.data)).toMatchObject({ enabled: false, settings: { lock_files: false, locked_groups: [] }, unlocked_until: null, backend: 'none' });
    const privileged = accountPrivilegedSchema.parse((await get('/account/privileged')).body.data);
    expect(privileged.accounts.map((a) => [a.name, a.reasons])).toEqual([['root', ['uid0']], ['alice', ['sudo']]]);
    expect(privileged.groups).toEqual(['root', 'sudo', 'wheel']);
    expect(privileged.root_login).toMatchObject({ permit: 'yes', dropin: false, fallback_accounts: ['alice'] });
  });

  it('saves settings, refuses an unlock while the module is off, unlocks for N minutes and relocks, in both languages', async () => {
    const saved = await post('/account/settings', { settings: { lock_files: true, locked_groups: ['sudo'] } }, { lang: 'zh-CN' });
    expect(saved.body).toMatchObject({ code: 0, msg: '用户防护设置已保存' });
    const off = await post('/account/unlock', { minutes: 10 });
    expect(off.body).toMatchObject({ msg: 'User protection is off' });
    expect(off.body.code).not.toBe(0);

    expect((await post('/module_switch', { module: 'account', status: 1 })).body.code).toBe(0);
    const unlocked = await post('/account/unlock', { minutes: 10 });
    expect(unlocked.body).toMatchObject({ code: 0, msg: 'The account files are unlocked for 10 min and lock again by themselves' });
    expect((await get('/account/status')).body.data.unlocked_until).toBe(h.clock.now + 600_000);

    const relocked = await post('/account/relock', undefined, { lang: 'zh-CN' });
    expect(relocked.body).toMatchObject({ code: 0, msg: '系统账户文件已重新锁定' });
    expect((await get('/account/status')).body.data).toMatchObject({ unlocked_until: null, settings: { lock_files: true, locked_groups: ['sudo'] } });
    expect((await post('/account/relock')).body.msg).toBe('The account files are not unlocked');
    // The no-backend note: with no guard running the page must not claim a lock.
    expect((await get('/account/status')).body.data.notes).toEqual(['account_no_backend']);
    await post('/module_switch', { module: 'account', status: 0 });
  });

  it('disables and restores direct root login through the fake sshd', async () => {
    const disabled = await post('/account/root_login', { disable: true });
    expect(disabled.body).toMatchObject({ code: 0, msg: 'Direct root SSH login is disabled' });
    expect(sshdCalls).toContain('reload');
    expect((await get('/account/privileged')).body.data.root_login).toMatchObject({ permit: 'no', dropin: true });
    const again = await post('/account/root_login', { disable: true }, { lang: 'zh-CN' });
    expect(again.body).toMatchObject({ msg: 'SSH 登录设置无需修改' });
    expect((await post('/account/root_login', { disable: false })).body).toMatchObject({ code: 0, msg: 'The ban on direct root SSH login is reverted' });
    expect((await get('/account/privileged')).body.data.root_login).toMatchObject({ permit: 'yes', dropin: false });
  });
});

describe('user protection: bad input and roles', () => {
  it('refuses bad bodies with a clear message and changes nothing', async () => {
    const before = (await get('/account/status')).body.data;
    for (const [url, body] of [
      ['/account/unlock', { minutes: 0 }],
      ['/account/unlock', { minutes: 1441 }],
      ['/account/unlock', { minutes: '10' }],
      ['/account/unlock', {}],
      ['/account/settings', { settings: { lock_files: true, locked_groups: ['a:b'] } }],
      ['/account/settings', { settings: { lock_files: true } }],
      ['/account/settings', { settings: { lock_files: true, locked_groups: [], extra: 1 } }],
      ['/account/root_login', { disable: 'yes' }],
    ] as const) {
      const res = await post(url, body);
      expect(res.status, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.code).not.toBe(0);
    }
    expect((await post('/account/unlock', { minutes: 0 }, { lang: 'zh-CN' })).body.msg).toBe('解锁时长为 1 到 1440 分钟');
    expect((await get('/account/status')).body.data).toEqual(before);
  });

  it('an auditor reads nothing and changes nothing; a technician may', async () => {
    const auditor = await h.addUser('auditor');
    expect((await get('/account/status', 'en-US', auditor.token)).status).toBe(403);
    expect((await post('/account/unlock', { minutes: 5 }, { as: auditor.token })).status).toBe(403);
    expect((await post('/account/root_login', { disable: true }, { as: auditor.token })).status).toBe(403);
    const technician = await h.addUser('technician');
    expect((await get('/account/status', 'en-US', technician.token)).status).toBe(200);
  });
});
