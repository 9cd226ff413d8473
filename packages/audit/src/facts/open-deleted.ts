import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseStat, readFdTargets } from '../inventory/processes.ts';

/** A file a process still holds open after it was deleted (Lynis LOGG-2190). */
export interface OpenDeletedFile {
  pid: number;
  name: string;
  fd: number;
  path: string;
}

/**
 * Deleted-by-design files are left out: memfd and shared-memory segments (`/memfd:…`, `/SYSV…`,
 * `/dev/shm/…`) and anonymous files (`/[aio]`) never had a name anyone would look for.
 */
const byDesign = /^\/(memfd:|SYSV[0-9a-f]|dev\/shm\/|dev\/zero|\[aio\]|anon_hugepage)/;

/** Reads `<root>/proc` — /proc itself on a live host; null when the root has none (an unbooted image). */
export function collectOpenDeleted(root: string): OpenDeletedFile[] | null {
  const procDir = path.join(root, 'proc');
  if (!existsSync(procDir)) return null;
  const found: OpenDeletedFile[] = [];
  for (const entry of readdirSync(procDir)) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    for (const { fd, target } of readFdTargets(procDir, pid)) {
      if (!target.endsWith(' (deleted)') || !target.startsWith('/')) continue;
      const file = target.slice(0, -' (deleted)'.length);
      if (byDesign.test(file)) continue;
      let stat = '';
      try {
        stat = readFileSync(path.join(procDir, entry, 'stat'), 'utf8');
      } catch {
        // Ended meanwhile: the name stays unknown.
      }
      found.push({ pid, name: parseStat(stat)?.name ?? '?', fd, path: file });
    }
  }
  return found;
}
