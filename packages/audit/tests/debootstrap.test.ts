import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, checksById, gatherFacts, judge, planReinforcement, revertItems, systemExecutor, type Executor } from '../src/index.ts';
import { sysctlKeys } from '../src/checks/sysctl.ts';

/**
 * The audit and reinforcement for real against a Debian 12 root built with debootstrap (minutes,
 * and it needs the package mirror): opt-in with RAMPART_AUDIT_DEBOOTSTRAP=1, as root. Commands run
 * chrooted into that root; reloads and live sysctl writes are recorded, never run, because a chroot
 * shares the host's kernel and service manager.
 */
const enabled = process.env.RAMPART_AUDIT_DEBOOTSTRAP === '1';
const mirror = (): string => process.env.RAMPART_AUDIT_MIRROR ?? hostMirror();

/** The Debian mirror this host's apt already uses (deb822 or one-line sources), so no host is written here. */
function hostMirror(): string {
  const files = ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list'].filter((file) => existsSync(file));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const uri = /^URIs:\s*(\S+)/m.exec(text)?.[1] ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+bookworm\s/m.exec(text)?.[1];
    if (uri && !uri.includes('security')) return uri;
  }
  throw new Error('no Debian mirror in the host apt sources: set RAMPART_AUDIT_MIRROR');
}

describe.runIf(enabled)('a debootstrapped Debian 12 root', () => {
  let root = '';
  let state = '';
  const held: string[] = [];
  const chrooted = (): Executor => {
    const inside = systemExecutor(root);
    return async (command, args) => {
      if (command === 'systemctl' || (command === 'sysctl' && args[0] !== '-e')) {
        held.push([command, ...args].join(' '));
        return { code: 0, stdout: '', stderr: '' };
      }
      return inside(command, args);
    };
  };

  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'rampart-audit-debootstrap-'));
    state = mkdtempSync(path.join(os.tmpdir(), 'rampart-audit-debootstrap-state-'));
    execFileSync('debootstrap', ['--variant=minbase', '--include=openssh-server,cron,sudo', 'bookworm', root, mirror()], { stdio: 'ignore', timeout: 20 * 60_000 });
    // sshd -t wants its privilege-separation directory and host keys.
    execFileSync('chroot', [root, 'sh', '-c', 'mkdir -p /run/sshd && ssh-keygen -A'], { stdio: 'ignore' });
  }, 25 * 60_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    if (state) rmSync(state, { recursive: true, force: true });
  });

  it('audits, reinforces, verifies, reverts to the same bytes, mode and mtime', async () => {
    const exec = chrooted();
    const before = await gatherFacts({ root, exec, sysctlKeys });
    expect(before.sshd.present).toBe(true);
    expect(before.sshd.dumped).not.toBeNull(); // sshd -T answered inside the chroot
    const ids = ['ssh.x11_forwarding', 'ssh.max_auth_tries', 'pam.pass_max_days', 'pam.umask', 'cron.crontab', 'sysctl.kernel.dmesg_restrict'];
    const original = readFileSync(path.join(root, 'etc/login.defs'));
    const originalStat = statSync(path.join(root, 'etc/login.defs'));
    const crontabStat = statSync(path.join(root, 'etc/crontab'));
    const plan = planReinforcement(before, ids);
    const results = await applyPlan(plan, { root, exec, stateDir: state });
    expect(results.filter((r) => r.status !== 'applied')).toEqual([]);
    expect(held).toContain('systemctl reload ssh');

    const after = await gatherFacts({ root, exec, sysctlKeys });
    for (const id of ids) expect(judge(checksById.get(id)!, after).outcome, id).toBe('pass');
    expect(after.sshd.dumped?.get('x11forwarding')).toBe('no');

    await revertItems({ root, exec, stateDir: state });
    expect(readFileSync(path.join(root, 'etc/login.defs')).equals(original)).toBe(true);
    const restored = statSync(path.join(root, 'etc/login.defs'));
    // The journal keeps mtime in milliseconds (Node's utimes takes no nanoseconds).
    expect([restored.mode, restored.uid, Math.floor(restored.mtimeMs)]).toEqual([originalStat.mode, originalStat.uid, Math.floor(originalStat.mtimeMs)]);
    expect(statSync(path.join(root, 'etc/crontab')).mode).toBe(crontabStat.mode);
    expect(existsSync(path.join(root, 'etc/ssh/sshd_config.d/60-rampart-ssh-x11-forwarding.conf'))).toBe(false);
  }, 120_000);
});
