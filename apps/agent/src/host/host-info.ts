import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { loadLevel, type HostInfo } from '@rampart/contracts';
import { readDisks } from './disks.ts';
import { effectiveUid, findExecutable, kernelStatusFrom } from './kernel-status.ts';
import { parseMeminfo } from './meminfo.ts';
import { parseOsRelease, prettyOsName } from './os-release.ts';

async function readOsName(): Promise<string> {
  const fallback = `${os.type()} ${os.release()}`;
  for (const file of ['/etc/os-release', '/usr/lib/os-release']) {
    try {
      return prettyOsName(parseOsRelease(await readFile(file, 'utf8')), fallback);
    } catch {
      // try the next location
    }
  }
  return fallback;
}

function cpuCount(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : Math.max(1, os.cpus().length);
}

/**
 * A fresh snapshot of the machine, read on every call (the console caches if it wants).
 * `guardCauses`: why tamper protection's guard is degraded (GuardService.kernelCauses).
 */
export async function collectHostInfo(guardCauses: readonly string[] = []): Promise<HostInfo> {
  const [osName, meminfo, disks, nftPath] = await Promise.all([
    readOsName(),
    readFile('/proc/meminfo', 'utf8'),
    readDisks(),
    findExecutable('nft'),
  ]);
  const cores = cpuCount();
  const [one = 0, five = 0, fifteen = 0] = os.loadavg();
  const kernel = os.release();
  return {
    os: osName,
    osType: 'linux',
    hostname: os.hostname(),
    kernel,
    arch: os.arch(),
    cores,
    memory: parseMeminfo(meminfo),
    load: { one, five, fifteen, level: loadLevel(one, cores) },
    disks,
    uptime: os.uptime(),
    kernelStatus: kernelStatusFrom({ euid: effectiveUid(), nftPath, os: osName, kernel, guardCauses }),
  };
}
