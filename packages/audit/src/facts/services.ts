import path from 'node:path';
import type { Executor } from '../executor.ts';
import type { RootFs } from '../root-fs.ts';

/**
 * Whether services run: `systemctl is-active` through the executor when systemd answers, otherwise
 * (a chroot, a fixture) whether the unit is enabled, from the symlinks in /etc/systemd/system/*.wants.
 */
export interface ServiceFacts {
  source: 'systemctl' | 'enabled links';
  active: Set<string>;
}

/** The units the checks ask about. */
export const watchedServices = ['chrony', 'systemd-timesyncd', 'ntp', 'ntpsec', 'openntpd', 'rsyslog', 'auditd', 'cron', 'atd', 'ssh', 'systemd-journald'];

function enabledUnits(fs: RootFs): Set<string> {
  const enabled = new Set<string>();
  for (const dir of fs.list('/etc/systemd/system')) {
    if (!dir.endsWith('.wants')) continue;
    for (const unit of fs.list(path.posix.join('/etc/systemd/system', dir))) enabled.add(unit.replace(/\.service$/, ''));
  }
  return enabled;
}

export async function collectServices(fs: RootFs, exec: Executor): Promise<ServiceFacts> {
  const result = await exec('systemctl', ['is-active', ...watchedServices]);
  const states = result.stdout.split('\n').filter(Boolean);
  // is-active exits non-zero when any unit is inactive; one answer line per unit means systemd answered.
  if (states.length === watchedServices.length && states.every((s) => /^[a-z-]+$/.test(s)) && !states.every((s) => s === 'offline')) {
    return { source: 'systemctl', active: new Set(watchedServices.filter((_, i) => states[i] === 'active')) };
  }
  return { source: 'enabled links', active: enabledUnits(fs) };
}
