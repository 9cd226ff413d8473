import { describe, expect, it } from 'vitest';
import type { AccountStatus, FirewallStatus, GuardStatus, ProcessStatus, RemoteView, TrojanStatus } from '@rampart/contracts';
import { accountHealth, firewallHealth, guardHealth, processHealth, remoteHealth, trojanHealth, websiteHealth } from '../src/services/system-status.ts';

/* Each engine's report turned into its health for the home page's system status (pure mappings). */

const firewall = (kernel: FirewallStatus['kernel']) => ({ kernel }) as FirewallStatus;
const guard = (g: Partial<GuardStatus>) => ({ backend: 'lsm', running: true, missing_ops: [], ...g }) as GuardStatus;
const account = (a: Partial<AccountStatus>) => ({ backend: 'lsm', notes: [], ...a }) as AccountStatus;
const proc = (p: Partial<ProcessStatus>) => ({ backend: 'lsm', net: true, ...p }) as ProcessStatus;
const remote = (enforced: boolean, ports: number[] = [22]) => ({ enforced, sshd: { ports } }) as unknown as RemoteView;

describe('engine health', () => {
  it('firewall: the ruleset in the kernel, or why not', () => {
    expect(firewallHealth(firewall('ok'))).toEqual({ state: 'ok' });
    expect(firewallHealth(firewall('unavailable'))).toEqual({ state: 'failing', reason: 'firewall_unavailable' });
    expect(firewallHealth(firewall('error'))).toEqual({ state: 'failing', reason: 'firewall_error' });
    expect(firewallHealth(firewall('off'))).toEqual({ state: 'failing', reason: 'firewall_not_applied' });
  });

  it('tamper: BPF LSM is whole, fanotify is partly, no helper is failing', () => {
    expect(guardHealth(guard({}))).toEqual({ state: 'ok' });
    expect(guardHealth(guard({ backend: 'fanotify' }))).toEqual({ state: 'partly', reason: 'guard_fanotify' });
    expect(guardHealth(guard({ missing_ops: ['n'] }))).toEqual({ state: 'partly', reason: 'guard_missing_ops' });
    expect(guardHealth(guard({ backend: 'none', running: false }))).toEqual({ state: 'failing', reason: 'guard_not_running' });
    expect(guardHealth(guard({ running: false }))).toEqual({ state: 'failing', reason: 'guard_not_running' });
  });

  it('user protection: the guard’s backend, and the rename fanotify lets through', () => {
    expect(accountHealth(account({}))).toEqual({ state: 'ok' });
    expect(accountHealth(account({ backend: 'none' }))).toEqual({ state: 'failing', reason: 'guard_not_running' });
    expect(accountHealth(account({ backend: 'fanotify' }))).toEqual({ state: 'partly', reason: 'guard_fanotify' });
    expect(accountHealth(account({ backend: 'fanotify', notes: ['account_fanotify_rename'] }))).toEqual({ state: 'partly', reason: 'account_rename_open' });
  });

  it('process protection: the guard for starts, the network programs for connections', () => {
    expect(processHealth(proc({}))).toEqual({ state: 'ok' });
    expect(processHealth(proc({ backend: 'none' }))).toEqual({ state: 'failing', reason: 'guard_not_running' });
    expect(processHealth(proc({ backend: 'fanotify' }))).toEqual({ state: 'partly', reason: 'guard_fanotify' });
    expect(processHealth(proc({ net: false }))).toEqual({ state: 'partly', reason: 'process_net_off' });
  });

  it('trojan protection: the real-time watch running, unavailable, or off (scans only)', () => {
    const trojan = (watch: TrojanStatus['watch']) => ({ watch }) as TrojanStatus;
    expect(trojanHealth(trojan('watching'))).toEqual({ state: 'ok' });
    expect(trojanHealth(trojan('unavailable'))).toEqual({ state: 'failing', reason: 'trojan_watch_unavailable' });
    expect(trojanHealth(trojan('off'))).toEqual({ state: 'partly', reason: 'trojan_watch_off' });
  });

  it('remote protection: enforced, or needs the firewall, or found no sshd port', () => {
    expect(remoteHealth(remote(true), true)).toEqual({ state: 'ok' });
    expect(remoteHealth(remote(false), false)).toEqual({ state: 'failing', reason: 'remote_needs_firewall' });
    expect(remoteHealth(remote(false, []), true)).toEqual({ state: 'failing', reason: 'remote_no_sshd' });
    expect(remoteHealth(remote(false), true)).toEqual({ state: 'failing', reason: 'remote_not_enforced' });
  });

  it('website protection: the gateway runs and proxies at least one protected site', () => {
    const running = { state: 'answer' as const, value: { ok: true, generation: 1 } };
    expect(websiteHealth(running, 1)).toEqual({ state: 'ok' });
    expect(websiteHealth(running, 0)).toEqual({ state: 'failing', reason: 'no_site_protected' });
    expect(websiteHealth({ state: 'not_running' }, 3)).toEqual({ state: 'failing', reason: 'gateway_not_running' });
    expect(websiteHealth({ state: 'unreachable', reason: 'permission denied' }, 3)).toEqual({ state: 'unknown', reason: 'gateway_unreachable' });
    expect(websiteHealth({ state: 'answer', value: { ok: false } }, 3)).toEqual({ state: 'unknown', reason: 'gateway_unreachable' });
  });
});
