import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentCallError, AgentClient } from '@rampart/agent-client';
import type { GuardPlan, TamperRuleInput } from '@rampart/contracts';
import { FakeHelper } from '../../../packages/guard/tests/fake-helper.ts';
import { deployedSelfPaths, rampartSelfPaths } from '../src/tamper/open-guard.ts';
import { startTestAgent, useCleanups, type TestAgent } from './helpers.ts';

/*
 * Tamper protection through the agent's real socket: rules kept in the agent, refusals, the broad
 * path's double confirmation, and the plan handed to a helper (a fake one on a temp socket here;
 * tamper-guard.test.ts drives the real helper) following the module switch and the protection pause.
 */

const { cleanups, tempDir } = useCleanups();

async function agentWith(guard: NonNullable<Parameters<typeof startTestAgent>[0]>['guard'] = { spawn: false, background: false }): Promise<{ agent: TestAgent; client: AgentClient }> {
  const agent = await startTestAgent({ guard });
  const client = new AgentClient(agent.socketPath, { timeoutMs: 10_000 });
  cleanups.push(() => agent.dispose());
  cleanups.push(() => client.close());
  return { agent, client };
}

async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const rule = (fields: Partial<TamperRuleInput> = {}): TamperRuleInput => ({ path: '/srv/site', process: '*', level: 10, ops: ['w'], ...fields });

describe('tamper rules (agent socket)', () => {
  it('adds, lists, edits, switches and deletes rules; each change is an operation event', async () => {
    const { client } = await agentWith();
    const added = await client.call('tamper.rules.add', { rules: [rule({ level: 20 }), rule({ path: '/srv/other/*', ops: ['d', 'n'], exempt: ['/usr/bin/rsync'], level: 5 })], account: 'admin' });
    expect(added).toMatchObject({ changed: 2, refused: null, warnings: [] });
    const [first, second] = added.ids as [number, number];

    let list = await client.call('tamper.rules.list', { offset: 0, limit: 10 });
    // by level: 5 before 20
    expect(list.list.map((r) => r.id)).toEqual([second, first]);
    expect(list.list[0]).toMatchObject({ path: '/srv/other/*', sub_path: '*', exempt: ['/usr/bin/rsync'], ops: ['d', 'n'], enabled: true, notify: true });
    // the module is off
    expect(list.list.every((r) => r.state === 'off')).toBe(true);

    expect(await client.call('tamper.rules.edit', { rule: { id: first, ...rule({ level: 1, remark: 'front page' }) }, account: 'admin' })).toMatchObject({ changed: 1, ids: [first] });
    expect(await client.call('tamper.rules.set_enabled', { ids: [second], enabled: false, account: 'admin' })).toMatchObject({ changed: 1, ids: [second] });
    list = await client.call('tamper.rules.list', { offset: 0, limit: 10, keyword: 'front' });
    expect(list).toMatchObject({ total: 1, list: [{ id: first, level: 1, remark: 'front page' }] });

    expect(await client.call('tamper.rules.delete', { ids: [first, second], account: 'admin' })).toMatchObject({ changed: 2 });
    expect((await client.call('tamper.rules.list', { offset: 0, limit: 10 })).total).toBe(0);

    const events = (await client.call('events.query', { limit: 20 })).list.filter((e) => e.kind === 'tamper.rules_changed');
    expect(events.map((e) => e.params['action'])).toEqual(['delete', 'disable', 'edit', 'add']);
    expect(events.every((e) => e.account === 'admin' && e.module === 'tamper')).toBe(true);
    expect(String(events[3]!.params['what'])).toContain('/srv/other/*');
  });

  it('refuses unknown rules and bad input, and changes nothing', async () => {
    const { client } = await agentWith();
    expect(await client.call('tamper.rules.edit', { rule: { id: 99, ...rule() } })).toEqual({ changed: 0, ids: [], refused: 'tamper_rule_not_found', warnings: [] });
    expect((await client.call('tamper.rules.delete', { ids: [99] })).refused).toBe('tamper_rule_not_found');
    expect((await client.call('tamper.names.set_enabled', { ids: [99], enabled: true })).refused).toBe('tamper_rule_not_found');
    const bad = async (input: Partial<TamperRuleInput>, key: string) => {
      const error = await client.call('tamper.rules.add', { rules: [rule(input)] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AgentCallError);
      expect((error as AgentCallError).code).toBe('bad_request');
      expect((error as AgentCallError).message).toContain(key);
    };
    await bad({ path: '/srv/a*b' }, 'tamper_path_invalid');
    await bad({ path: 'relative' }, 'tamper_path_invalid');
    await bad({ process: '/usr/*/php' }, 'tamper_process_invalid');
    await bad({ level: 0 }, 'tamper_level_range');
    await bad({ ops: ['q' as 'r'] }, 'tamper_ops_invalid');
    await bad({ sub_path: 'a*b' }, 'tamper_sub_path_invalid');
    const badName = await client.call('tamper.names.add', { rule: { dir: '/srv/up', deny_files: ['a/b'] } }).catch((e: unknown) => e);
    expect((badName as AgentCallError).message).toContain('tamper_name_pattern_invalid');
    expect((await client.call('tamper.rules.list', { offset: 0, limit: 10 })).total).toBe(0);
    expect((await client.call('tamper.names.list', { offset: 0, limit: 10 })).total).toBe(0);
  });

  it('a rule over / or /etc needs two confirmations; a rule reaching Rampart’s own files warns', async () => {
    const { agent, client } = await agentWith();
    // However the path is spelt: the guard reads `//etc` and `//etc/` as /etc, `//e*` takes it in.
    for (const broad of ['/', '/etc', '/etc/', '/*', '//etc', '//etc/', '//', '//e*']) {
      expect(await client.call('tamper.rules.add', { rules: [rule({ path: broad })], confirmations: 1 })).toMatchObject({ changed: 0, refused: 'tamper_path_broad_confirm' });
    }
    expect((await client.call('tamper.names.add', { rule: { dir: '/etc' } })).refused).toBe('tamper_path_broad_confirm');
    expect((await client.call('tamper.names.add', { rule: { dir: '//etc/' }, confirmations: 1 })).refused).toBe('tamper_path_broad_confirm');
    expect((await client.call('tamper.rules.list', { offset: 0, limit: 10 })).total).toBe(0);
    // /etc/nginx is not broad
    expect((await client.call('tamper.rules.add', { rules: [rule({ path: '/etc/nginx' })] })).changed).toBe(1);
    const confirmed = await client.call('tamper.rules.add', { rules: [rule({ path: '/etc' })], confirmations: 2 });
    expect(confirmed).toMatchObject({ changed: 1, refused: null });
    const id = confirmed.ids[0]!;
    expect((await client.call('tamper.rules.edit', { rule: { id, ...rule({ path: '/' }) } })).refused).toBe('tamper_path_broad_confirm');
    expect((await client.call('tamper.rules.edit', { rule: { id, ...rule({ path: '//etc' }) }, confirmations: 1 })).refused).toBe('tamper_path_broad_confirm');

    expect((await client.call('tamper.rules.add', { rules: [rule({ path: agent.stateDir })] })).warnings).toEqual(['tamper_path_self']);
    expect((await client.call('tamper.rules.add', { rules: [rule({ path: path.join(agent.stateDir, 'x') })] })).warnings).toEqual(['tamper_path_self']);
    const stateParent = path.dirname(agent.stateDir);
    expect((await client.call('tamper.rules.add', { rules: [rule({ path: `${stateParent}/st*` })] })).warnings).toEqual(['tamper_path_self']);
    expect((await client.call('tamper.rules.add', { rules: [rule({ path: `${stateParent}/other*` })] })).warnings).toEqual([]);
    expect((await client.call('tamper.names.add', { rule: { dir: '/srv/uploads', deny_files: ['*.php'] } })).warnings).toEqual([]);
  });

  it('naming rules: add, list with defaults, edit, delete', async () => {
    const { client } = await agentWith();
    const added = await client.call('tamper.names.add', { rule: { dir: '/srv/uploads', deny_files: ['*.php', 'a*.jsp'], deny_dirs: ['tmp*'] }, account: 'ops' });
    const id = added.ids[0]!;
    const list = await client.call('tamper.names.list', { offset: 0, limit: 10 });
    expect(list.list[0]).toMatchObject({ id, dir: '/srv/uploads', deny_files: ['*.php', 'a*.jsp'], deny_dirs: ['tmp*'], deny_malformed: true, enabled: true, state: 'off' });
    expect((await client.call('tamper.names.edit', { rule: { id, dir: '/srv/uploads', deny_malformed: false } })).changed).toBe(1);
    expect((await client.call('tamper.names.list', { offset: 0, limit: 10 })).list[0]).toMatchObject({ deny_files: [], deny_malformed: false });
    expect((await client.call('tamper.names.delete', { ids: [id] })).changed).toBe(1);
  });

  it('without a helper the status says so, rules are not enforced, and nothing crashes', async () => {
    const { client } = await agentWith({ spawn: true, background: false, binary: '/nonexistent/rampart-guard', isRoot: true });
    await client.call('module.switch', { modules: ['tamper'], status: 1 });
    await client.call('tamper.rules.add', { rules: [rule({ path: '/tmp' })] });
    const status = await client.call('tamper.status', {});
    expect(status).toMatchObject({ backend: 'none', running: false, enforced_ops: [], causes: ['guard_helper_missing'] });
    expect(status.missing_ops).toEqual(['r', 'x', 'd', 'c', 'n', 'w', 't']);
    expect((await client.call('tamper.rules.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('not_enforced');
    expect((await client.call('host.info', {})).kernelStatus.causes).toContain('guard_helper_missing');

    const notRoot = await agentWith({ spawn: true, background: false, isRoot: false });
    expect((await notRoot.client.call('tamper.status', {})).causes).toContain('not_root');
  });
});

describe('tamper protection and the helper (fake helper on a temp socket)', () => {
  async function withFake(hello?: Partial<FakeHelper['hello']>) {
    const dir = await tempDir();
    const socketPath = path.join(dir, 'guard.sock');
    const helper = await FakeHelper.listen(socketPath);
    helper.hello = { ...helper.hello, ...hello };
    cleanups.push(() => helper.close());
    const { agent, client } = await agentWith({ spawn: false, background: false, socketPath, client: { backoff: { minMs: 20, maxMs: 100 } } });
    if (!hello) await until(() => helper.plans.length, (n) => n > 0);
    const lastPlan = () => helper.plans.at(-1) as GuardPlan;
    return { helper, agent, client, lastPlan, dir };
  }

  it('the plan follows rule changes, the module switch and the protection pause', async () => {
    const { helper, client, lastPlan, dir } = await withFake();
    // the module is off at first: the plan does not enforce
    expect(lastPlan().enforce).toBe(false);

    await client.call('module.switch', { modules: ['tamper'], status: 1 });
    expect(lastPlan().enforce).toBe(true);
    await client.call('tamper.rules.add', { rules: [rule({ path: dir, ops: ['w', 'd'], process: '/bin/sh' })] });
    const plan = lastPlan();
    expect(plan.objects.map((o) => o.path)).toEqual([dir]);
    expect(plan.sets[0]!.slots[0]).toMatchObject({ covers: 36, deny: 36, proc: 0 });
    expect(plan.exes.length).toBeGreaterThan(0);
    expect(plan.trusted_pids).toContain(process.pid);

    // fanotify cannot deny `d`: partial
    expect((await client.call('tamper.rules.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('partial');
    const status = await client.call('tamper.status', {});
    expect(status).toMatchObject({ backend: 'fanotify', running: true, enforced_ops: ['r', 'x', 'w'], missing_ops: ['d', 'c', 'n', 't'], causes: ['guard_lsm_refused'], objects: 1, rules: 1 });
    expect((await client.call('host.info', {})).kernelStatus.causes).toContain('guard_lsm_refused');

    await client.call('protection.set', { mode: 'temp_off', minutes: 10, account: 'admin' });
    expect(lastPlan().enforce).toBe(false);
    // the tables stay while paused
    expect(lastPlan().objects).toHaveLength(1);
    await client.call('protection.set', { mode: 'on', account: 'admin' });
    expect(lastPlan().enforce).toBe(true);

    await client.call('module.switch', { modules: ['tamper'], status: 0 });
    expect(lastPlan().enforce).toBe(false);
    expect((await client.call('host.info', {})).kernelStatus.causes).not.toContain('guard_lsm_refused');
    expect(helper.plans.map((p) => (p as GuardPlan).generation)).toEqual([...helper.plans.map((p) => (p as GuardPlan).generation)].sort((a, b) => a - b));
  });

  it('saving a rule the running backend cannot fully enforce warns (fanotify: no d c n t, no naming rules)', async () => {
    const { client } = await withFake();
    const degraded = ['tamper_guard_degraded'];
    // Said whatever the module switch (off here): the administrator learns it when saving.
    expect((await client.call('tamper.rules.add', { rules: [rule({ ops: ['r', 'x', 'w'] })] })).warnings).toEqual([]);
    expect((await client.call('tamper.rules.add', { rules: [rule({ ops: ['w'] }), rule({ ops: ['w', 'd'] })] })).warnings).toEqual(degraded);
    for (const op of ['d', 'c', 'n', 't'] as const) expect((await client.call('tamper.rules.add', { rules: [rule({ ops: [op] })] })).warnings, op).toEqual(degraded);
    // A rule saved switched off denies nothing yet; switching it on is when it is said.
    const off = await client.call('tamper.rules.add', { rules: [rule({ ops: ['t'], enabled: false })] });
    expect(off.warnings).toEqual([]);
    const offId = off.ids[0]!;
    expect((await client.call('tamper.rules.set_enabled', { ids: [offId], enabled: true })).warnings).toEqual(degraded);
    expect((await client.call('tamper.rules.set_enabled', { ids: [offId], enabled: false })).warnings).toEqual([]);
    expect((await client.call('tamper.rules.edit', { rule: { id: offId, ...rule({ ops: ['c'] }) } })).warnings).toEqual(degraded);
    expect((await client.call('tamper.rules.edit', { rule: { id: offId, ...rule({ ops: ['w'] }) } })).warnings).toEqual([]);
    // Before the self-path warning: the console shows the first one.
    expect((await client.call('tamper.rules.add', { rules: [rule({ path: '/', ops: ['d'], enabled: false }), rule({ path: '/', ops: ['d'] })], confirmations: 2 })).warnings).toEqual([...degraded, 'tamper_path_self']);

    // A naming rule denies creating entries, which fanotify cannot deny.
    const naming = await client.call('tamper.names.add', { rule: { dir: '/srv/uploads', deny_files: ['*.php'] } });
    expect(naming.warnings).toEqual(degraded);
    const namingId = naming.ids[0]!;
    expect((await client.call('tamper.names.edit', { rule: { id: namingId, dir: '/srv/uploads', enabled: false } })).warnings).toEqual([]);
    expect((await client.call('tamper.names.set_enabled', { ids: [namingId], enabled: true })).warnings).toEqual(degraded);
    expect((await client.call('tamper.names.edit', { rule: { id: namingId, dir: '/srv/uploads' } })).warnings).toEqual(degraded);
    expect((await client.call('tamper.names.add', { rule: { dir: '/srv/other', enabled: false } })).warnings).toEqual([]);
  });

  it('a backend that denies every operation saves without that warning', async () => {
    const { client } = await withFake({ backend: 'lsm', ops: ['r', 'x', 'd', 'c', 'n', 'w', 't'], cause: '' });
    await until(() => client.call('tamper.status', {}), (s) => s.running);
    expect((await client.call('tamper.rules.add', { rules: [rule({ ops: ['r', 'x', 'd', 'c', 'n', 'w', 't'] })] })).warnings).toEqual([]);
    expect((await client.call('tamper.names.add', { rule: { dir: '/srv/uploads', deny_files: ['*.php'] } })).warnings).toEqual([]);
  });

  it('a helper with no backend gets no plan, and the status says why', async () => {
    const { helper, client } = await withFake({ backend: 'none', ops: [], cause: 'lsm_refused' });
    await client.call('module.switch', { modules: ['tamper'], status: 1 });
    await client.call('tamper.rules.add', { rules: [rule({ path: '/tmp' })] });
    const status = await until(() => client.call('tamper.status', {}), (s) => s.running);
    expect(status).toMatchObject({ backend: 'none', running: true, causes: ['guard_no_backend'] });
    expect(helper.requests.some((r) => r['op'] === 'apply')).toBe(false);
    expect((await client.call('tamper.rules.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('not_enforced');
  });

  it('a plan the helper refuses: rules are not enforced, one event says why', async () => {
    const { helper, client } = await withFake();
    helper.refuseApply = 'plan: object 0: no set 9';
    await client.call('module.switch', { modules: ['tamper'], status: 1 });
    await client.call('tamper.rules.add', { rules: [rule({ path: '/tmp' })] });
    expect((await client.call('tamper.rules.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('not_enforced');
    expect((await client.call('tamper.status', {})).causes).toContain('guard_helper_failed');
    const failures = (await client.call('events.query', { limit: 20 })).list.filter((e) => e.kind === 'tamper.apply_failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.params['reason']).toContain('no set 9');
    helper.refuseApply = null;
    await client.call('tamper.rules.set_enabled', { ids: [1], enabled: true });
    await client.call('module.switch', { modules: ['tamper'], status: 1 });
    expect((await client.call('tamper.rules.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('active');
    expect((await client.call('tamper.status', {})).causes).toEqual(['guard_lsm_refused']);
  });

  it('a denial the helper reports lands in the event store', async () => {
    const { helper, client } = await withFake();
    helper.push(JSON.stringify({ event: 'denied', op: 'w', rule: 'tamper:1', notify: true, pid: 4321, uid: 33, comm: 'sh', exe: '/usr/bin/dash', path: '/srv/site/index.php', repeats: 1, time: Date.now() }));
    helper.push('{"event":"denied","broken":true}');
    const events = await until(
      async () => (await client.call('events.query', { limit: 20 })).list.filter((e) => e.kind === 'tamper.denied'),
      (list) => list.length > 0,
    );
    expect(events[0]).toMatchObject({ module: 'tamper', level: 'warning', params: { op: 'w', path: '/srv/site/index.php', process: '/usr/bin/dash', pid: 4321, uid: 33, rule: 'tamper:1' } });
  });

  it('a protected path that appears later is picked up by the periodic check', async () => {
    const { agent, client, lastPlan, dir } = await withFake();
    await client.call('module.switch', { modules: ['tamper'], status: 1 });
    const later = path.join(dir, 'later');
    await client.call('tamper.rules.add', { rules: [rule({ path: later })] });
    expect((await client.call('tamper.rules.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('path_missing');
    expect(lastPlan().objects).toEqual([]);
    await mkdir(later);
    await agent.guard.tick();
    expect(lastPlan().objects.map((o) => o.path)).toEqual([later]);
    expect((await client.call('tamper.rules.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('active');
  });

  it('the plan is saved for the helper’s --plan-file, and generations go on from it after a restart', async () => {
    const { agent, client, lastPlan } = await withFake();
    await client.call('module.switch', { modules: ['tamper'], status: 1 });
    const saved = JSON.parse(await readFile(path.join(agent.stateDir, 'guard-plan.json'), 'utf8')) as GuardPlan;
    // Not the trusted pids: after a reboot they would be other processes', which would bypass the rules.
    expect(lastPlan().trusted_pids).toContain(process.pid);
    expect(saved).toEqual({ ...lastPlan(), trusted_pids: [] });
    await agent.close();
    const again = await startTestAgent({ dir: agent.dir, guard: { spawn: false, background: false } });
    cleanups.push(() => again.close());
    expect(again.guard.lastPlan!.plan.generation).toBe(saved.generation + 1);
  });

  it('the helper coming back gets the plan again', async () => {
    const { helper, client, dir } = await withFake();
    await client.call('module.switch', { modules: ['tamper'], status: 1 });
    await helper.close();
    const socketPath = path.join(dir, 'guard.sock');
    const again = await FakeHelper.listen(socketPath);
    cleanups.push(() => again.close());
    await until(() => again.plans.length, (n) => n > 0);
    expect((again.plans.at(-1) as GuardPlan).enforce).toBe(true);
  });
});

describe('lock-out proof: Rampart’s own paths', () => {
  const repo = path.resolve(import.meta.dirname, '../../..');

  it('are the state dir, the whole data dir, the install dir and what deploy/ installs', async () => {
    const paths = rampartSelfPaths('/var/lib/rampart/agent', { RAMPART_DATA_DIR: '/var/lib/rampart' });
    expect(paths).toEqual(expect.arrayContaining(['/var/lib/rampart/agent', '/var/lib/rampart', repo, '/etc/rampart', '/run/rampart', '/run/rampart-guard', '/sys/fs/bpf/rampart']));
    // A relative data dir is read as the agent's config reads it: from the working directory.
    expect(rampartSelfPaths('/x/agent', { RAMPART_DATA_DIR: 'data' })).toContain(path.resolve('data'));
    expect(rampartSelfPaths('/x/agent', {})).toEqual([...new Set(['/x/agent', repo, ...deployedSelfPaths])]);

    // Every unit install.sh copies, every runtime dir, environment file and pin dir the units name.
    const install = await readFile(path.join(repo, 'deploy/install.sh'), 'utf8');
    const unitLine = install.split('\n').find((line) => line.trim().endsWith('/etc/systemd/system/'))!;
    const units = unitLine.split(/\s+/).filter((word) => word.startsWith('deploy/systemd/'));
    expect(units.length).toBeGreaterThan(0);
    const expected = new Set<string>();
    for (const unit of units) {
      expected.add(`/etc/systemd/system/${path.basename(unit)}`);
      const text = await readFile(path.join(repo, unit), 'utf8');
      for (const [, dir] of text.matchAll(/^RuntimeDirectory=(\S+)/gm)) expected.add(`/run/${dir}`);
      for (const [, file] of text.matchAll(/^EnvironmentFile=-?(\S+)/gm)) expected.add(path.dirname(file!));
      for (const [, dir] of text.matchAll(/--pin-dir (\S+)/g)) expected.add(dir!);
    }
    for (const wanted of expected) expect(deployedSelfPaths, wanted).toContain(wanted);
    // The data dir reaches the agent through its unit's environment.
    expect(await readFile(path.join(repo, 'deploy/systemd/rampart-agent.service'), 'utf8')).toMatch(/^Environment=RAMPART_DATA_DIR=\//m);
  });

  it('the data dir (the console’s database too) gets the allow-everything slot and its rules are not enforced', async () => {
    const dir = await tempDir();
    const socketPath = path.join(dir, 'guard.sock');
    const helper = await FakeHelper.listen(socketPath);
    cleanups.push(() => helper.close());
    const before = process.env['RAMPART_DATA_DIR'];
    process.env['RAMPART_DATA_DIR'] = dir;
    let agent: TestAgent;
    try {
      agent = await startTestAgent({ dir, guard: { spawn: false, background: false, socketPath, client: { backoff: { minMs: 20, maxMs: 100 } } } });
    } finally {
      if (before === undefined) delete process.env['RAMPART_DATA_DIR'];
      else process.env['RAMPART_DATA_DIR'] = before;
    }
    cleanups.push(() => agent.close());
    const client = new AgentClient(agent.socketPath, { timeoutMs: 10_000 });
    cleanups.push(() => client.close());
    await until(() => helper.plans.length, (n) => n > 0);
    expect(agent.guard.selfPaths).toContain(dir);

    // Beside the agent's state dir, inside the data dir: where the console keeps its database.
    const consoleDir = path.join(dir, 'console');
    await mkdir(consoleDir);
    await client.call('module.switch', { modules: ['tamper'], status: 1 });
    expect((await client.call('tamper.rules.add', { rules: [rule({ path: consoleDir, ops: ['w'] })] })).warnings).toEqual(['tamper_path_self']);
    const plan = helper.plans.at(-1) as GuardPlan;
    const object = plan.objects.find((o) => o.path === consoleDir)!;
    expect(plan.sets.find((set) => set.id === object.set)!.slots[0]).toMatchObject({ rule: 'self', deny: 0 });
    expect((await client.call('tamper.rules.list', { offset: 0, limit: 10 })).list[0]!.state).toBe('not_enforced');
  });
});
