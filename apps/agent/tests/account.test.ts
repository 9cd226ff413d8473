import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import type { GuardPlan } from '@rampart/contracts';
import { FakeHelper } from '../../../packages/guard/tests/fake-helper.ts';
import type { CommandResult, SshdExecutor } from '../src/account/root-login.ts';
import { startTestAgent, useCleanups, type TestAgent } from './helpers.ts';

/*
 * User protection through the agent's real socket: the account-file lock handed to the guard (a
 * fake helper on a temp socket records the plans), the timed unlock on an injected clock and across
 * a restart, the privileged accounts from fixture files, and the root-login drop-in with a fake sshd.
 * The account files are temp copies: no test locks the host's /etc/passwd.
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

/** A small /etc: root, alice (sudo, password), bob (sudo by key only), carol (sudo, locked), a service account. */
async function fixtureEtc(dir: string, { aliceLocked = false } = {}): Promise<string> {
  const etc = path.join(dir, 'etc');
  const home = (name: string) => path.join(dir, 'home', name);
  await mkdir(etc, { recursive: true });
  for (const name of ['root', 'alice', 'bob', 'carol']) await mkdir(path.join(home(name), '.ssh'), { recursive: true });
  await writeFile(path.join(home('bob'), '.ssh/authorized_keys'), 'ssh-ed25519 AAAAC3Nza bob@laptop\n');
  await writeFile(
    path.join(etc, 'passwd'),
    [
      `root:x:0:0:root:${home('root')}:/bin/bash`,
      'daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin',
      `alice:x:1000:1000:Alice:${home('alice')}:/bin/bash`,
      `bob:x:1001:1001:Bob:${home('bob')}:/bin/bash`,
      `carol:x:1002:27:Carol:${home('carol')}:/bin/bash`,
      `toor:x:0:0:backdoor?:${home('root')}:/usr/sbin/nologin`,
      '',
    ].join('\n'),
  );
  await writeFile(path.join(etc, 'group'), 'root:x:0:\nsudo:x:27:alice,bob\nadm:x:4:alice\nalice:x:1000:\nbob:x:1001:\n');
  await writeFile(path.join(etc, 'shadow'), `root:$y$j9T$abc:19000:0:99999:7:::\nalice:${aliceLocked ? '!' : ''}$y$j9T$def:19000:0:99999:7:::\nbob:!:19000:0:99999:7:::\ncarol:!*:19000::::::\n`);
  await writeFile(path.join(etc, 'gshadow'), 'root:*::\nsudo:*::alice,bob\n');
  return etc;
}

/** sshd stand-in: `-T` prints the effective config (PermitRootLogin from the drop-in when present), `-t` passes unless told. */
function fakeSshd(dropinDir: string, config: Record<string, string> = {}) {
  const calls: string[] = [];
  const state = { testFails: false, reloadFails: false, missing: false };
  const executor: SshdExecutor = {
    async sshd(args): Promise<CommandResult | null> {
      calls.push(`sshd ${args.join(' ')}`);
      if (state.missing) return null;
      if (args[0] === '-t') return state.testFails ? { code: 255, stdout: '', stderr: 'line 3: Bad configuration option: PermitRootLogn' } : { code: 0, stdout: '', stderr: '' };
      const dropin = await readFile(path.join(dropinDir, '50-rampart-root-login.conf'), 'utf8').catch(() => '');
      const permit = /^PermitRootLogin (\S+)/m.exec(dropin)?.[1] ?? 'yes';
      const lines = { port: '22', permitrootlogin: permit, passwordauthentication: 'yes', pubkeyauthentication: 'yes', kbdinteractiveauthentication: 'no', ...config };
      return { code: 0, stdout: Object.entries(lines).map(([k, v]) => `${k} ${v}`).join('\n'), stderr: '' };
    },
    async reload() {
      calls.push('reload');
      return state.reloadFails ? { code: 1, stdout: '', stderr: 'Job for ssh.service failed' } : { code: 0, stdout: '', stderr: '' };
    },
  };
  return { executor, calls, state };
}

interface Setup {
  agent: TestAgent;
  client: AgentClient;
  helper: FakeHelper;
  etc: string;
  dropinDir: string;
  clock: { now: number };
  sshd: ReturnType<typeof fakeSshd>;
  lastPlan: () => GuardPlan;
  restart: () => Promise<Setup>;
}

async function setup(options: { hello?: Partial<FakeHelper['hello']>; sshdConfig?: Record<string, string>; aliceLocked?: boolean } = {}): Promise<Setup> {
  const dir = await tempDir();
  const socketPath = path.join(dir, 'guard.sock');
  const helper = await FakeHelper.listen(socketPath);
  helper.hello = { ...helper.hello, ...options.hello };
  cleanups.push(() => helper.close());
  const etc = await fixtureEtc(dir, { aliceLocked: options.aliceLocked });
  const dropinDir = path.join(dir, 'sshd_config.d');
  const sshd = fakeSshd(dropinDir, options.sshdConfig);
  const clock = { now: Date.UTC(2026, 10, 28, 10, 0, 0) };
  const start = async (): Promise<Setup> => {
    const agent = await startTestAgent({
      dir,
      guard: { spawn: false, background: false, socketPath, client: { backoff: { minMs: 20, maxMs: 100 } } },
      account: { etcDir: etc, sshdDropinDir: dropinDir, sshd: sshd.executor, now: () => clock.now, timers: false },
      logs: { now: () => clock.now, background: false },
    });
    const client = new AgentClient(agent.socketPath, { timeoutMs: 5000 });
    cleanups.push(async () => {
      client.close();
      await agent.close();
    });
    await until(() => helper.plans.length, (n) => n > 0);
    const self: Setup = {
      agent, client, helper, etc, dropinDir, clock, sshd,
      lastPlan: () => helper.plans.at(-1) as GuardPlan,
      restart: async () => {
        client.close();
        await agent.close();
        return start();
      },
    };
    return self;
  };
  return start();
}

const slotsOf = (plan: GuardPlan, file: string) => {
  const object = plan.objects.find((o) => o.path === file);
  return object ? plan.sets.find((s) => s.id === object.set)!.slots : [];
};
const events = async (client: AgentClient, prefix = 'account.') => (await client.call('events.query', { limit: 100 })).list.filter((e) => e.kind.startsWith(prefix));

describe('user protection: the account-file lock in the guard plan', () => {
  it('nothing is locked until chosen; with the module on the four files are denied w d n t for every process', async () => {
    const { client, lastPlan, etc } = await setup();
    await client.call('module.switch', { modules: ['account'], status: 1 });
    expect(lastPlan().objects).toEqual([]);
    expect((await client.call('account.status', {})).files.every((f) => !f.locked && f.state === 'off')).toBe(true);

    expect(await client.call('account.settings.set', { settings: { lock_files: true, locked_groups: [] }, account: 'admin' })).toEqual({ changed: true, refused: null });
    const plan = lastPlan();
    expect(plan.enforce).toBe(true);
    expect(plan.objects.map((o) => o.path).sort()).toEqual(['group', 'gshadow', 'passwd', 'shadow'].map((f) => path.join(etc, f)));
    expect(slotsOf(plan, path.join(etc, 'passwd'))).toEqual([expect.objectContaining({ rule: 'account:passwd', deny: 4 | 16 | 32 | 64, proc: -1, exempt: -1 })]);

    // fanotify (the fake's hello): only the write-open is denied; the status says a rename over the file is not stopped
    const status = await client.call('account.status', {});
    expect(status).toMatchObject({ enabled: true, backend: 'fanotify', user_create_blocked: false, notes: ['account_fanotify_rename'], unlocked_until: null });
    expect(status.files.map((f) => [f.file, f.locked, f.state])).toEqual([['passwd', true, 'partial'], ['shadow', true, 'partial'], ['group', true, 'partial'], ['gshadow', true, 'partial']]);
    expect((await events(client)).map((e) => e.kind)).toContain('account.settings_changed');

    // module off: no account slot, and with tamper off too the plan does not enforce
    await client.call('module.switch', { modules: ['account'], status: 0 });
    expect(lastPlan().enforce).toBe(false);
    expect(lastPlan().sets.flatMap((s) => s.slots).some((s) => s.rule.startsWith('account:'))).toBe(false);
  });

  it('on BPF LSM the lock is active and user creation is blocked; chosen groups lock only group and gshadow', async () => {
    const { client, lastPlan, etc } = await setup({ hello: { backend: 'lsm', ops: ['r', 'x', 'd', 'c', 'n', 'w', 't'], cause: '' } });
    await client.call('module.switch', { modules: ['account'], status: 1 });
    await client.call('account.settings.set', { settings: { lock_files: true, locked_groups: [] }, account: 'admin' });
    expect(await client.call('account.status', {})).toMatchObject({ backend: 'lsm', user_create_blocked: true, notes: [] });

    await client.call('account.settings.set', { settings: { lock_files: false, locked_groups: ['sudo', 'sudo'] }, account: 'admin' });
    expect(lastPlan().objects.map((o) => o.path).sort()).toEqual([path.join(etc, 'group'), path.join(etc, 'gshadow')]);
    const status = await client.call('account.status', {});
    expect(status.settings.locked_groups).toEqual(['sudo']);
    expect(status.user_create_blocked).toBe(false);
    expect(status.files.filter((f) => f.locked).map((f) => [f.file, f.state])).toEqual([['group', 'active'], ['gshadow', 'active']]);
  });

  it('a tamper rule switched off while the account module is on does not enforce, and tamper keeps its own states', async () => {
    const { client, lastPlan, etc } = await setup();
    await client.call('tamper.rules.add', { rules: [{ path: path.dirname(etc), process: '*', level: 10, ops: ['w'] }] });
    await client.call('module.switch', { modules: ['account'], status: 1 });
    await client.call('account.settings.set', { settings: { lock_files: true, locked_groups: [] }, account: '' });
    expect(lastPlan().sets.flatMap((s) => s.slots).some((s) => s.rule.startsWith('tamper:'))).toBe(false);
    expect((await client.call('tamper.rules.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('off');
    await client.call('module.switch', { modules: ['tamper'], status: 1 });
    // the account slot comes first on the locked file, the tamper rule after it
    expect(slotsOf(lastPlan(), path.join(etc, 'passwd')).map((s) => s.rule)).toEqual(['account:passwd', expect.stringMatching(/^tamper:\d+$/)]);
  });
});

describe('user protection: off for N minutes', () => {
  it('unlock takes the rules out, the clock brings them back by itself with an event', async () => {
    const { client, lastPlan, clock, agent } = await setup();
    expect(await client.call('account.unlock', { minutes: 5, account: 'admin' })).toEqual({ changed: false, refused: 'account_module_off' });
    await client.call('module.switch', { modules: ['account'], status: 1 });
    expect(await client.call('account.unlock', { minutes: 5, account: 'admin' })).toEqual({ changed: false, refused: 'account_not_locked' });
    await client.call('account.settings.set', { settings: { lock_files: true, locked_groups: [] }, account: 'admin' });

    expect(await client.call('account.unlock', { minutes: 5, account: 'admin' })).toEqual({ changed: true, refused: null });
    expect(lastPlan().sets.flatMap((s) => s.slots).some((s) => s.rule.startsWith('account:'))).toBe(false);
    let status = await client.call('account.status', {});
    expect(status.unlocked_until).toBe(clock.now + 5 * 60_000);
    expect(status.files[0]!.state).toBe('off');

    clock.now += 4 * 60_000;
    await agent.account.tick();
    expect((await client.call('account.status', {})).unlocked_until).not.toBeNull();
    clock.now += 60_000;
    await agent.account.tick();
    status = await client.call('account.status', {});
    expect(status.unlocked_until).toBeNull();
    expect(status.files[0]!.state).toBe('partial');
    expect(slotsOf(lastPlan(), status.files[0]!.path)[0]!.rule).toBe('account:passwd');
    expect((await events(client)).map((e) => [e.kind, e.params['minutes'] ?? null])).toEqual(expect.arrayContaining([['account.unlocked', 5], ['account.relocked', null]]));
    // relock when nothing is unlocked
    expect(await client.call('account.relock', { account: 'admin' })).toEqual({ changed: false, refused: 'account_not_unlocked' });
  });

  it('an unlock survives a restart; one that ended while the agent was down locks again at start', async () => {
    const first = await setup();
    await first.client.call('module.switch', { modules: ['account'], status: 1 });
    await first.client.call('account.settings.set', { settings: { lock_files: true, locked_groups: [] }, account: 'admin' });
    await first.client.call('account.unlock', { minutes: 10, account: 'admin' });
    const until10 = first.clock.now + 10 * 60_000;

    const second = await first.restart();
    expect((await second.client.call('account.status', {})).unlocked_until).toBe(until10);
    expect(second.lastPlan().sets.flatMap((s) => s.slots).some((s) => s.rule.startsWith('account:'))).toBe(false);

    second.clock.now += 11 * 60_000;
    const third = await second.restart();
    expect((await third.client.call('account.status', {})).unlocked_until).toBeNull();
    await until(() => third.lastPlan(), (plan) => plan.sets.some((s) => s.slots.some((slot) => slot.rule === 'account:passwd')));
    expect(third.lastPlan().sets.flatMap((s) => s.slots).map((s) => s.rule)).toContain('account:passwd');
    expect((await events(third.client)).map((e) => e.kind)).toContain('account.relocked');
  });

  it('relock ends an unlock at once', async () => {
    const { client, lastPlan } = await setup();
    await client.call('module.switch', { modules: ['account'], status: 1 });
    await client.call('account.settings.set', { settings: { lock_files: true, locked_groups: [] }, account: 'admin' });
    await client.call('account.unlock', { minutes: 60, account: 'admin' });
    expect(await client.call('account.relock', { account: 'admin' })).toEqual({ changed: true, refused: null });
    expect(lastPlan().sets.flatMap((s) => s.slots).map((s) => s.rule)).toContain('account:passwd');
  });
});

describe('user protection: privileged accounts and root SSH login', () => {
  it('lists uid 0 and sudo members with how they can sign in; every group for the chooser', async () => {
    const { client } = await setup();
    const view = await client.call('account.privileged', {});
    expect(view.accounts.map((a) => [a.name, a.reasons, a.password, a.keys])).toEqual([
      ['root', ['uid0'], true, false],
      ['alice', ['sudo'], true, false],
      ['bob', ['sudo'], false, true],
      // primary group sudo (gid 27) counts; a locked hash does not sign in
      ['carol', ['sudo'], false, false],
      // a second uid 0 account is shown; its nologin shell cannot sign in
      ['toor', ['uid0'], false, false],
    ]);
    expect(view.groups).toEqual(['adm', 'alice', 'bob', 'root', 'sudo']);
    expect(view.root_login).toMatchObject({ permit: 'yes', dropin: false, fallback_accounts: ['alice', 'bob'] });
  });

  it('disables direct root login with a drop-in, sshd -t first, reload after; revert deletes it', async () => {
    const { client, dropinDir, sshd } = await setup();
    expect(await client.call('account.root_login.set', { disable: true, account: 'admin' })).toEqual({ changed: true, refused: null });
    const file = path.join(dropinDir, '50-rampart-root-login.conf');
    expect(await readFile(file, 'utf8')).toMatch(/^PermitRootLogin no$/m);
    expect(sshd.calls).toEqual(['sshd -T', 'sshd -t', 'sshd -T', 'reload']);
    expect((await client.call('account.privileged', {})).root_login).toMatchObject({ permit: 'no', dropin: true });
    expect(await client.call('account.root_login.set', { disable: true, account: 'admin' })).toMatchObject({ changed: false, refused: 'account_root_login_unchanged' });
    expect((await events(client)).map((e) => e.kind)).toContain('account.root_login_disabled');

    sshd.calls.length = 0;
    expect(await client.call('account.root_login.set', { disable: false, account: 'admin' })).toEqual({ changed: true, refused: null });
    await expect(stat(file)).rejects.toThrow();
    expect(sshd.calls).toEqual(['sshd -t', 'reload']);
    expect((await client.call('account.privileged', {})).root_login).toMatchObject({ permit: 'yes', dropin: false });
    expect((await events(client)).map((e) => e.kind)).toContain('account.root_login_restored');
  });

  it('refuses when no other sudo account can sign in, and touches nothing', async () => {
    // alice's hash is locked and key login is off: bob's key does not count, nobody is left
    const { client, dropinDir, sshd } = await setup({ aliceLocked: true, sshdConfig: { pubkeyauthentication: 'no' } });
    expect(await client.call('account.root_login.set', { disable: true, account: 'admin' })).toEqual({ changed: false, refused: 'account_root_login_no_fallback' });
    await expect(stat(path.join(dropinDir, '50-rampart-root-login.conf'))).rejects.toThrow();
    expect(sshd.calls).not.toContain('reload');
  });

  it('AllowUsers that leaves out every sudo account is the same refusal', async () => {
    const { client } = await setup({ sshdConfig: { allowusers: 'root deploy@10.0.0.*' } });
    expect((await client.call('account.privileged', {})).root_login.fallback_accounts).toEqual([]);
    expect((await client.call('account.root_login.set', { disable: true, account: 'admin' })).refused).toBe('account_root_login_no_fallback');
  });

  it('a config sshd -t rejects or a failed reload takes the drop-in back; no sshd is its own refusal', async () => {
    const { client, dropinDir, sshd } = await setup();
    const file = path.join(dropinDir, '50-rampart-root-login.conf');
    sshd.state.testFails = true;
    expect(await client.call('account.root_login.set', { disable: true, account: 'admin' })).toEqual({ changed: false, refused: 'account_root_login_sshd_invalid', reason: 'line 3: Bad configuration option: PermitRootLogn' });
    await expect(stat(file)).rejects.toThrow();
    sshd.state.testFails = false;
    sshd.state.reloadFails = true;
    expect((await client.call('account.root_login.set', { disable: true, account: 'admin' })).refused).toBe('account_root_login_reload_failed');
    await expect(stat(file)).rejects.toThrow();
    sshd.state.missing = true;
    expect((await client.call('account.root_login.set', { disable: true, account: 'admin' })).refused).toBe('account_root_login_sshd_missing');
    await rm(dropinDir, { recursive: true, force: true });
  });

  it('bad input is refused by the schema and changes nothing', async () => {
    const { client, lastPlan } = await setup();
    const before = JSON.stringify(lastPlan().objects);
    for (const [method, params] of [
      ['account.unlock', { minutes: 0 }],
      ['account.unlock', { minutes: 1441 }],
      ['account.unlock', { minutes: 1.5 }],
      ['account.settings.set', { settings: { lock_files: true, locked_groups: ['bad:name'] } }],
      ['account.settings.set', { settings: { lock_files: 'yes', locked_groups: [] } }],
      ['account.root_login.set', { disable: 'true' }],
    ] as const) {
      await expect(client.call(method as 'account.unlock', params as never)).rejects.toThrow();
    }
    expect(JSON.stringify(lastPlan().objects)).toBe(before);
  });
});
