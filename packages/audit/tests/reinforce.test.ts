import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPlan, checksById, judge, loadJournal, planReinforcement, recordedExecutor, revertItems, type Plan } from '../src/index.ts';
import { baseAccounts, factsOf, makeRoot, removeRoots, roots, type FixtureEntry } from './fixture-root.ts';

afterAll(removeRoots);

/** Compares with tests/golden/<name>.json; `UPDATE_GOLDEN=1` rewrites the files after a deliberate change. */
function golden(name: string, plan: Plan): void {
  const file = path.join(import.meta.dirname, 'golden', `${name}.json`);
  const text = `${JSON.stringify(plan, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  expect(text).toBe(readFileSync(file, 'utf8'));
}

const loginDefs = '# login.defs\nMAIL_DIR\t/var/mail\nPASS_MAX_DAYS\t99999\nPASS_MIN_DAYS\t0\nUMASK\t\t022\n';
const mtime = 1_600_000_000; // whole seconds: the restored mtime must be this exactly

const weakRoot: Record<string, FixtureEntry> = {
  ...baseAccounts,
  '/etc/ssh/sshd_config': { mode: 0o644, text: 'Include /etc/ssh/sshd_config.d/*.conf\nPermitRootLogin yes\nX11Forwarding yes\n', mtime },
  '/etc/ssh/sshd_config.d': { dir: true },
  '/etc/login.defs': { text: loginDefs, mode: 0o644, mtime },
  '/etc/crontab': { text: '# crontab\n', mode: 0o644, mtime },
  '/etc/sysctl.d/10-base.conf': 'kernel.randomize_va_space = 0\n',
  '/etc/systemd/journald.conf': '[Journal]\nStorage=volatile\n',
  '/var/lib/dpkg/status': 'Package: cron\nStatus: install ok installed\n',
};
const liveSysctl = recordedExecutor({ sysctl: { stdout: 'kernel.randomize_va_space = 0\n' } });
const selection = ['ssh.permit_root_login', 'ssh.x11_forwarding', 'pam.pass_max_days', 'pam.umask', 'cron.crontab', 'sysctl.kernel.randomize_va_space', 'logging.persistent', 'modules.usb_storage'];
const stateDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rampart-audit-state-'));
  roots.push(dir);
  return dir;
};

describe('the reinforcement planner', () => {
  it('turns selected failing checks into drop-ins and journaled in-place edits (golden)', async () => {
    const facts = await factsOf(makeRoot(weakRoot), liveSysctl);
    const plan = planReinforcement(facts, [...selection, 'ssh.weak_ciphers', 'accounts.uid0_only_root', 'no.such_check']);
    golden('plan-weak-root', plan);
    expect(plan.refused.map((r) => [r.checkId, r.reason?.key])).toEqual([
      ['ssh.weak_ciphers', 'audit_already_passing'],
      ['accounts.uid0_only_root', 'audit_not_fixable'],
      ['no.such_check', 'audit_unknown_check'],
    ]);
  });

  it('refuses password login off when no sudo-capable account has a key', async () => {
    const { '/home/admin/.ssh/authorized_keys': _key, ...noKeys } = baseAccounts;
    const facts = await factsOf(makeRoot({ ...noKeys, '/etc/ssh/sshd_config': 'Include /etc/ssh/sshd_config.d/*.conf\nPasswordAuthentication yes\n' }));
    expect(planReinforcement(facts, ['ssh.password_authentication']).refused).toEqual([{ checkId: 'ssh.password_authentication', status: 'refused', effect: 'none', reason: { key: 'audit_lockout_password_auth' } }]);
    const withKey = await factsOf(makeRoot({ ...baseAccounts, '/etc/ssh/sshd_config': 'Include /etc/ssh/sshd_config.d/*.conf\nPasswordAuthentication yes\n' }));
    expect(planReinforcement(withKey, ['ssh.password_authentication']).items).toHaveLength(1);
  });

  it('refuses root login off when no other sudo account with a shell and a password or key exists', async () => {
    const onlyRoot: Record<string, FixtureEntry> = {
      '/etc/passwd': 'root:x:0:0:root:/root:/bin/bash\nadmin:x:1000:1000::/home/admin:/usr/sbin/nologin\n',
      '/etc/group': 'root:x:0:\nsudo:x:27:admin\n',
      '/etc/shadow': 'root:$y$abc:1::::::\nadmin:$y$def:1::::::\n',
      '/root/.ssh/authorized_keys': 'ssh-ed25519 AAAA root@x\n',
      '/etc/ssh/sshd_config': 'Include /etc/ssh/sshd_config.d/*.conf\nPermitRootLogin yes\n',
    };
    const facts = await factsOf(makeRoot(onlyRoot));
    const plan = planReinforcement(facts, ['ssh.permit_root_login', 'ssh.permit_root_login_password']);
    expect(plan.refused).toEqual([{ checkId: 'ssh.permit_root_login', status: 'refused', effect: 'none', reason: { key: 'audit_lockout_root_login' } }]);
    // prohibit-password keeps root's key login: allowed.
    expect(plan.items.map((i) => i.checkId)).toEqual(['ssh.permit_root_login_password']);
    // Both off in one selection: the second is judged with the first in place.
    const both = planReinforcement(await factsOf(makeRoot({ ...baseAccounts, '/etc/passwd': (baseAccounts['/etc/passwd'] as { text: string }).text, '/home/admin/.ssh/authorized_keys': '' , '/root/.ssh/authorized_keys': 'ssh-ed25519 AAAA root@x\n', '/etc/ssh/sshd_config': 'Include /etc/ssh/sshd_config.d/*.conf\nPermitRootLogin yes\n' })), ['ssh.password_authentication', 'ssh.permit_root_login']);
    expect(both.items.map((i) => i.checkId)).toEqual(['ssh.password_authentication']);
    expect(both.refused.map((r) => r.reason?.key)).toEqual(['audit_lockout_root_login']);
  });

  it('refuses a drop-in an earlier sshd setting or a later sysctl file would shadow', async () => {
    const facts = await factsOf(
      makeRoot({
        ...baseAccounts,
        '/etc/ssh/sshd_config': 'X11Forwarding yes\nInclude /etc/ssh/sshd_config.d/*.conf\n',
        '/etc/ssh/sshd_config.d/50-cloud-init.conf': 'MaxAuthTries 10\n',
        '/etc/sysctl.conf': 'net.ipv4.ip_forward = 1\n',
      }),
    );
    const plan = planReinforcement(facts, ['ssh.x11_forwarding', 'ssh.max_auth_tries', 'sysctl.net.ipv4.ip_forward']);
    expect(plan.refused.map((r) => r.reason)).toEqual([
      { key: 'audit_fix_shadowed', values: { file: '/etc/ssh/sshd_config', line: '1', key: 'X11Forwarding' } },
      { key: 'audit_fix_shadowed', values: { file: '/etc/ssh/sshd_config.d/50-cloud-init.conf', line: '1', key: 'MaxAuthTries' } },
      { key: 'audit_fix_shadowed', values: { file: '/etc/sysctl.conf', line: '1', key: 'net.ipv4.ip_forward' } },
    ]);
  });
});

describe('applying and reverting', () => {
  it('applies with progress, passes the re-audit, reverts to the same bytes, mode and mtime', async () => {
    const root = makeRoot(weakRoot);
    const state = stateDir();
    const calls: string[] = [];
    const exec = recordedExecutor({ 'sshd -t': {}, systemctl: {}, sysctl: { stdout: 'kernel.randomize_va_space = 0\n' } }, calls);
    const before = await factsOf(root, exec);
    const plan = planReinforcement(before, selection);
    const progress: string[] = [];
    const results = await applyPlan(plan, { root, exec, stateDir: state, onProgress: (p) => progress.push(`${p.done}/${p.total} ${p.result.checkId} ${p.result.status}`), now: () => 1 });
    expect(results.map((r) => [r.checkId, r.status, r.effect])).toEqual([
      ['ssh.permit_root_login', 'applied', 'reload'],
      ['ssh.x11_forwarding', 'applied', 'reload'],
      ['pam.pass_max_days', 'applied', 'none'],
      ['pam.umask', 'applied', 'none'],
      ['cron.crontab', 'applied', 'none'],
      ['sysctl.kernel.randomize_va_space', 'applied', 'reload'],
      ['logging.persistent', 'applied', 'reload'],
      ['modules.usb_storage', 'applied', 'reboot'],
    ]);
    expect(progress[0]).toBe('1/8 ssh.permit_root_login applied');
    // sshd -t before each sshd item; one reload of ssh for the run.
    expect(calls.filter((c) => c === 'sshd -t')).toHaveLength(2);
    expect(calls.filter((c) => c === 'systemctl reload ssh')).toHaveLength(1);
    expect(calls).toContain('sysctl -p /etc/sysctl.d/60-rampart-sysctl-kernel-randomize-va-space.conf');

    const after = await factsOf(root, recordedExecutor({}));
    for (const id of selection) expect(judge(checksById.get(id)!, after).outcome, id).toBe('pass');
    expect(readFileSync(path.join(root, 'etc/login.defs'), 'utf8')).toBe('# login.defs\nMAIL_DIR\t/var/mail\nPASS_MAX_DAYS\t365\nPASS_MIN_DAYS\t0\nUMASK\t027\n');
    expect(statSync(path.join(root, 'etc/crontab')).mode & 0o7777).toBe(0o600);
    expect(loadJournal(state).entries.map((e) => e.status)).toEqual(Array(8).fill('applied'));

    // A new process (the console restarted) reverts from the journal on disk.
    const reverted = await revertItems({ root, exec, stateDir: state });
    expect(reverted.map((r) => r.status)).toEqual(Array(8).fill('reverted'));
    expect(readFileSync(path.join(root, 'etc/login.defs'), 'utf8')).toBe(loginDefs);
    for (const file of ['etc/login.defs', 'etc/crontab']) {
      const stat = statSync(path.join(root, file));
      expect(stat.mode & 0o7777, file).toBe(0o644);
      expect(stat.mtimeMs, file).toBe(mtime * 1000);
    }
    expect(existsSync(path.join(root, 'etc/ssh/sshd_config.d/60-rampart-ssh-permit-root-login.conf'))).toBe(false);
    expect(existsSync(path.join(root, 'etc/systemd/journald.conf.d'))).toBe(false); // created by the item, removed with it
    expect(existsSync(path.join(root, 'etc/ssh/sshd_config.d'))).toBe(true); // was there before
    expect(calls).toContain('sysctl -w kernel.randomize_va_space=0');
    expect(loadJournal(state).entries).toEqual([]);
    const again = await factsOf(root, recordedExecutor({}));
    expect(judge(checksById.get('ssh.permit_root_login')!, again).outcome).toBe('fail');
  });

  it('reverts one item and leaves the others', async () => {
    const root = makeRoot(weakRoot);
    const state = stateDir();
    const exec = recordedExecutor({ 'sshd -t': {}, systemctl: {}, sysctl: {} });
    await applyPlan(planReinforcement(await factsOf(root, exec), ['pam.pass_max_days', 'cron.crontab']), { root, exec, stateDir: state });
    const results = await revertItems({ root, exec, stateDir: state, checkIds: ['cron.crontab', 'ssh.x11_forwarding'] });
    expect(results.map((r) => [r.checkId, r.status, r.reason?.key])).toEqual([
      ['ssh.x11_forwarding', 'failed', 'audit_nothing_to_revert'],
      ['cron.crontab', 'reverted', undefined],
    ]);
    expect(statSync(path.join(root, 'etc/crontab')).mode & 0o777).toBe(0o644);
    expect(readFileSync(path.join(root, 'etc/login.defs'), 'utf8')).toContain('PASS_MAX_DAYS\t365');
    expect(loadJournal(state).entries.map((e) => e.checkId)).toEqual(['pam.pass_max_days']);
  });

  it('reverting one in-place edit of a shared file reverts the later edits of that file with it', async () => {
    const root = makeRoot(weakRoot);
    const state = stateDir();
    const exec = recordedExecutor({});
    await applyPlan(planReinforcement(await factsOf(root, exec), ['pam.pass_max_days', 'cron.crontab', 'pam.umask']), { root, exec, stateDir: state });
    const results = await revertItems({ root, exec, stateDir: state, checkIds: ['pam.pass_max_days'] });
    expect(results.map((r) => r.checkId)).toEqual(['pam.umask', 'pam.pass_max_days']);
    expect(readFileSync(path.join(root, 'etc/login.defs'), 'utf8')).toBe(loginDefs);
    expect(loadJournal(state).entries.map((e) => e.checkId)).toEqual(['cron.crontab']);
  });

  it('rolls an sshd item back when sshd -t rejects it, and reloads nothing', async () => {
    const root = makeRoot(weakRoot);
    const state = stateDir();
    const calls: string[] = [];
    const exec = recordedExecutor({ 'sshd -t': { code: 255, stderr: '/etc/ssh/sshd_config.d/60-rampart-ssh-x11-forwarding.conf line 2: Bad configuration option' }, systemctl: {} }, calls);
    const results = await applyPlan(planReinforcement(await factsOf(root, exec), ['ssh.x11_forwarding', 'pam.umask']), { root, exec, stateDir: state });
    expect(results[0]).toEqual({ checkId: 'ssh.x11_forwarding', status: 'rolled_back', effect: 'reload', service: 'ssh', reason: { key: 'audit_sshd_test_failed', values: { error: 'sshd -t: /etc/ssh/sshd_config.d/60-rampart-ssh-x11-forwarding.conf line 2: Bad configuration option' } } });
    expect(results[1]?.status).toBe('applied');
    expect(existsSync(path.join(root, 'etc/ssh/sshd_config.d/60-rampart-ssh-x11-forwarding.conf'))).toBe(false);
    expect(calls).not.toContain('systemctl reload ssh');
    expect(loadJournal(state).entries.map((e) => e.checkId)).toEqual(['pam.umask']);
  });

  it('never writes through a symlink out of the root, and refuses a file edited since the audit', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'rampart-audit-outside-'));
    roots.push(outside);
    writeFileSync(path.join(outside, 'crontab'), 'host file\n', { mode: 0o644 });
    const root = makeRoot({ ...weakRoot, '/etc/crontab': { link: path.join(outside, 'crontab') } });
    const state = stateDir();
    const exec = recordedExecutor({});
    const facts = await factsOf(root, exec);
    // The link is re-rooted: the audit sees no /etc/crontab in this root at all.
    expect(judge(checksById.get('cron.crontab')!, facts).outcome).toBe('not_applicable');
    const plan = planReinforcement(facts, ['pam.pass_max_days']);
    plan.items.push({ checkId: 'cron.crontab', steps: [{ kind: 'attributes', path: '/etc/crontab', mode: 0o600 }], validate: [], activate: [], deactivate: [], effect: 'none' });
    writeFileSync(path.join(root, 'etc/login.defs'), `${loginDefs}# edited meanwhile\n`);
    const results = await applyPlan(plan, { root, exec, stateDir: state });
    expect(results.map((r) => [r.status, r.reason?.key])).toEqual([
      ['failed', 'audit_apply_failed'],
      ['failed', 'audit_unsafe_path'],
    ]);
    expect(statSync(path.join(outside, 'crontab')).mode & 0o777).toBe(0o644);
    expect(readFileSync(path.join(root, 'etc/login.defs'), 'utf8')).toContain('edited meanwhile');
    expect(loadJournal(state).entries).toEqual([]);
  });
});
