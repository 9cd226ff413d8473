import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { allChecks, recordedExecutor, type Executor } from '@rampart/audit';
import { auditStatusSchema, type AuditStatus } from '@rampart/contracts';
import { baseAccounts, makeRoot, removeRoots, type FixtureEntry } from '../../../packages/audit/tests/fixture-root.ts';
import { startTestAgent, useCleanups, type TestAgent } from './helpers.ts';

/*
 * The security audit through the agent's real socket, against a small Debian-like root written into
 * a temp dir (the engine's fixture helpers) and a recorded executor: nothing here reads or changes
 * the host's /etc. A run, its progress, results with filters, the history, a second start refused,
 * reinforcement applied and reverted with the file bytes back, and what survives a restart.
 */

const { cleanups, tempDir } = useCleanups();
afterAll(removeRoots);

const loginDefs = '# login.defs\nMAIL_DIR\t/var/mail\nPASS_MAX_DAYS\t99999\nPASS_MIN_DAYS\t0\nUMASK\t\t022\n';
const weakRoot: Record<string, FixtureEntry> = {
  ...baseAccounts,
  '/etc/ssh/sshd_config': { mode: 0o644, text: 'Include /etc/ssh/sshd_config.d/*.conf\nPermitRootLogin yes\nX11Forwarding yes\n', mtime: 1_600_000_000 },
  '/etc/ssh/sshd_config.d': { dir: true },
  '/etc/login.defs': { text: loginDefs, mode: 0o644, mtime: 1_600_000_000 },
  '/etc/crontab': { text: '# crontab\n', mode: 0o644 },
  '/etc/systemd/journald.conf': '[Journal]\nStorage=volatile\n',
  '/var/lib/dpkg/status': 'Package: cron\nStatus: install ok installed\n',
};

/** A recorded executor whose `find` (the filesystem scan) waits for the test to let it go. */
function gatedExecutor(calls: string[]) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const recorded = recordedExecutor({ 'sshd -t': {}, systemctl: {}, sysctl: { stdout: 'kernel.randomize_va_space = 2\n' } }, calls);
  const executor: Executor = async (command, args) => {
    if (command === 'find') await gate;
    return recorded(command, args);
  };
  return { executor, release };
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function setup(root: string, dir?: string, executor?: Executor) {
  dir ??= await tempDir();
  const calls: string[] = [];
  const gated = gatedExecutor(calls);
  const agent: TestAgent = await startTestAgent({ dir, logs: { background: false }, audit: { root, executor: executor ?? gated.executor } });
  const client = new AgentClient(agent.socketPath, { timeoutMs: 5000 });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    client.close();
    // The agent first: a run still waiting on the gate is one the agent stopped in.
    await agent.close();
    gated.release();
  };
  cleanups.push(close);
  const status = async () => auditStatusSchema.parse(await client.call('audit.status', {}));
  return { dir, agent, client, calls, release: gated.release, close, status };
}

describe('the security audit through the agent socket', () => {
  it('runs one audit at a time with progress, keeps its results and history, filters and pages them', async () => {
    const root = makeRoot(weakRoot);
    const { client, release, status } = await setup(root);
    expect((await status()).run).toBeNull();

    const started = await client.call('audit.start', { account: 'admin' });
    expect(started).toMatchObject({ started: true, refused: null });
    let now: AuditStatus = await status();
    expect(now).toMatchObject({ available: true, running: true, run: { id: started.run_id, status: 'running', account: 'admin', score: null }, progress: { phase: 'facts', done: 0 } });
    // A second start, and an apply, while the first runs: the spec's "execution in progress".
    expect(await client.call('audit.start', { account: 'admin' })).toEqual({ started: false, run_id: null, refused: 'audit_execution_in_progress' });
    expect(await client.call('audit.reinforce.apply', { checkIds: ['pam.pass_max_days'], account: 'admin' })).toEqual({ started: false, refused: 'audit_execution_in_progress' });

    release();
    now = await until(status, (s) => !s.running);
    expect(now.run).toMatchObject({ status: 'finished', score: expect.any(Number) });
    expect(now.progress).toBeNull();
    const run = now.run!;
    const counts = run.counts!;
    expect(counts.pass + counts.fail + counts.not_applicable + counts.error).toBe(allChecks.length);
    expect(run.failed_by_level!.danger).toBeGreaterThan(0);

    const all = await client.call('audit.results', { offset: 0, limit: 200 });
    expect(all.total).toBe(allChecks.length);
    const rootLogin = all.list.find((r) => r.id === 'ssh.permit_root_login')!;
    expect(rootLogin).toMatchObject({ outcome: 'fail', fixable: true, category: 'ssh', title: { 'en-US': expect.any(String), 'zh-CN': expect.any(String) } });
    expect(rootLogin.evidence[0]).toMatchObject({ file: '/etc/ssh/sshd_config', line: 2, found: 'PermitRootLogin yes' });

    const dangerFails = await client.call('audit.results', { level: 'danger', outcome: 'fail', offset: 0, limit: 200 });
    expect(dangerFails.total).toBe(run.failed_by_level!.danger);
    expect(dangerFails.list.every((r) => r.level === 'danger' && r.outcome === 'fail')).toBe(true);
    const page2 = await client.call('audit.results', { offset: 10, limit: 10 });
    expect(page2.list.map((r) => r.id)).toEqual(all.list.slice(10, 20).map((r) => r.id));

    expect(await client.call('audit.start', { account: 'tech' })).toMatchObject({ started: true });
    await until(status, (s) => !s.running);
    const history = await client.call('audit.history', { offset: 0, limit: 20 });
    expect(history.total).toBe(2);
    expect(history.list.map((r) => [r.status, r.account])).toEqual([['finished', 'tech'], ['finished', 'admin']]);
    // An older run's results stay readable by id.
    expect((await client.call('audit.results', { run_id: run.id, offset: 0, limit: 1 })).run?.id).toBe(run.id);
    await expect(client.call('audit.results', { level: 'severe', offset: 0, limit: 10 } as never)).rejects.toThrow();
  });

  it('applies selected items with progress, lists them as applied, reverts one and all with the bytes back', async () => {
    const root = makeRoot(weakRoot);
    const { client, release, status, calls } = await setup(root);
    release();
    await client.call('audit.start', { account: 'admin' });
    await until(status, (s) => !s.running);

    const items = (await client.call('audit.reinforce.items', {})).list;
    const ids = items.map((i) => i.id);
    expect(ids).toEqual(expect.arrayContaining(['ssh.permit_root_login', 'ssh.x11_forwarding', 'pam.pass_max_days']));
    expect(items.every((i) => !i.applied && i.last === null)).toBe(true);

    // Nothing selected: refused by the contract with the spec's message.
    await expect(client.call('audit.reinforce.apply', { checkIds: [], account: 'admin' })).rejects.toThrow(/audit_reinforce_nothing_selected/);

    const before = readFileSync(path.join(root, 'etc/login.defs'));
    const beforeMtime = statSync(path.join(root, 'etc/login.defs')).mtimeMs;
    expect(await client.call('audit.reinforce.apply', { checkIds: ['pam.pass_max_days', 'ssh.x11_forwarding', 'accounts.uid0_only_root'], account: 'admin' })).toEqual({ started: true, refused: null });
    const done = await until(status, (s) => !s.reinforce.running);
    expect(done.reinforce).toMatchObject({ done: 3, total: 3 });
    expect(done.reinforce.results.map((r) => [r.checkId, r.status, r.reason?.key])).toEqual([
      ['accounts.uid0_only_root', 'refused', 'audit_not_fixable'],
      ['pam.pass_max_days', 'applied', undefined],
      ['ssh.x11_forwarding', 'applied', undefined],
    ]);
    expect(readFileSync(path.join(root, 'etc/login.defs'), 'utf8')).toMatch(/^PASS_MAX_DAYS\t365$/m);
    const dropIn = path.join(root, 'etc/ssh/sshd_config.d/60-rampart-ssh-x11-forwarding.conf');
    expect(readFileSync(dropIn, 'utf8')).toContain('X11Forwarding no');
    expect(calls).toContain('sshd -t');
    expect(calls).toContain('systemctl reload ssh');

    const after = (await client.call('audit.reinforce.items', {})).list;
    expect(after.find((i) => i.id === 'pam.pass_max_days')).toMatchObject({ applied: true, effect: 'none', last: { status: 'applied' } });
    expect(after.find((i) => i.id === 'ssh.x11_forwarding')).toMatchObject({ applied: true, effect: 'reload', service: 'ssh' });

    const one = await client.call('audit.reinforce.revert', { checkIds: ['pam.pass_max_days'], account: 'admin' });
    expect(one).toMatchObject({ refused: null, results: [{ checkId: 'pam.pass_max_days', status: 'reverted' }] });
    expect(readFileSync(path.join(root, 'etc/login.defs')).equals(before)).toBe(true);
    expect(statSync(path.join(root, 'etc/login.defs')).mtimeMs).toBe(beforeMtime);
    expect((await client.call('audit.reinforce.items', {})).list.find((i) => i.id === 'pam.pass_max_days')).toMatchObject({ applied: false, last: { status: 'reverted' } });

    const rest = await client.call('audit.reinforce.revert', { account: 'admin' });
    expect(rest.results.map((r) => [r.checkId, r.status])).toEqual([['ssh.x11_forwarding', 'reverted']]);
    expect(existsSync(dropIn)).toBe(false);
    expect((await client.call('audit.reinforce.revert', { checkIds: ['ssh.x11_forwarding'], account: 'admin' })).results[0]?.reason?.key).toBe('audit_nothing_to_revert');
  });

  it('marks a run the agent stopped in as interrupted, and keeps the journal across a restart', async () => {
    const root = makeRoot(weakRoot);
    const first = await setup(root);
    first.release();
    await first.client.call('audit.start', { account: 'admin' });
    await until(first.status, (s) => !s.running);
    await first.client.call('audit.reinforce.apply', { checkIds: ['pam.pass_max_days'], account: 'admin' });
    await until(first.status, (s) => !s.reinforce.running);
    await first.close();

    // Stopped in the middle of a run.
    const second = await setup(root, first.dir);
    await second.client.call('audit.start', { account: 'admin' });
    expect((await second.status()).running).toBe(true);
    await second.close();

    const third = await setup(root, first.dir);
    third.release();
    const history = await third.client.call('audit.history', { offset: 0, limit: 20 });
    expect(history.list.map((r) => r.status)).toEqual(['interrupted', 'finished']);
    expect((await third.status()).run?.status).toBe('interrupted');
    // The latest finished run's items, with the fix applied before the restart still revertable.
    const items = (await third.client.call('audit.reinforce.items', {})).list;
    expect(items.find((i) => i.id === 'pam.pass_max_days')).toMatchObject({ applied: true });
    expect((await third.client.call('audit.reinforce.revert', { account: 'admin' })).results.map((r) => r.checkId)).toEqual(['pam.pass_max_days']);
    expect(readFileSync(path.join(root, 'etc/login.defs'), 'utf8')).toBe(loginDefs);
  });

  it('an agent without an audit root refuses to audit or reinforce', async () => {
    const agent = await startTestAgent({ logs: { background: false } });
    const client = new AgentClient(agent.socketPath, { timeoutMs: 5000 });
    cleanups.push(async () => {
      client.close();
      await agent.dispose();
    });
    expect(await client.call('audit.status', {})).toMatchObject({ available: false, running: false, run: null });
    expect(await client.call('audit.start', { account: '' })).toEqual({ started: false, run_id: null, refused: 'audit_not_available' });
    expect(await client.call('audit.reinforce.apply', { checkIds: ['pam.pass_max_days'], account: '' })).toMatchObject({ refused: 'audit_not_available' });
    expect(await client.call('audit.reinforce.items', {})).toEqual({ list: [] });
  });
});
