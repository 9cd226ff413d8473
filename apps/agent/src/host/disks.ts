import { readFile, statfs } from 'node:fs/promises';
import type { DiskUsage } from '@rampart/contracts';
import { parseMounts, realFilesystems, type MountEntry } from './mounts.ts';

export interface StatfsLike {
  bsize: number;
  blocks: number;
  bfree: number;
  bavail: number;
}

/** Sizes in bytes: used counts blocks reserved for root as used, as df does. */
export function diskUsageFrom(entry: MountEntry, stats: StatfsLike): DiskUsage {
  const size = stats.blocks * stats.bsize;
  return {
    mount: entry.mount,
    device: entry.device,
    fstype: entry.fstype,
    size,
    used: Math.max(0, (stats.blocks - stats.bfree) * stats.bsize),
    available: Math.max(0, stats.bavail * stats.bsize),
  };
}

/** Usage of every real filesystem; a mount that cannot be measured is left out, not fatal. */
export async function readDisks(mountsPath = '/proc/self/mounts'): Promise<DiskUsage[]> {
  const entries = realFilesystems(parseMounts(await readFile(mountsPath, 'utf8')));
  const measured = await Promise.all(
    entries.map(async (entry) => {
      try {
        return diskUsageFrom(entry, await statfs(entry.mount));
      } catch {
        return undefined;
      }
    }),
  );
  return measured.filter((disk): disk is DiskUsage => disk !== undefined);
}
