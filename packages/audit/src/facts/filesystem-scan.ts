import type { Executor } from '../executor.ts';

/**
 * One `find` pass over the system paths collects everything the file checks need: world-writable
 * files, world-writable directories without the sticky bit, SUID/SGID files and files without a
 * known owner. One walk instead of four keeps the audit fast on a full disk.
 */
export interface FilesystemScan {
  worldWritableFiles: string[];
  worldWritableDirs: string[];
  setId: { path: string; mode: number; owner: string }[];
  unowned: string[];
}

export const scannedPaths = ['/usr', '/etc', '/boot', '/opt', '/srv', '/var', '/root'];

export function findArgs(paths: readonly string[] = scannedPaths): string[] {
  return [
    ...paths,
    '-xdev',
    '(', '-path', '/proc', '-o', '-path', '/sys', '-o', '-path', '/dev', '-o', '-path', '/run', ')', '-prune', '-o',
    '(', '-type', 'f', '-perm', '-0002', '-printf', 'ww %p\\n', ')', '-o',
    '(', '-type', 'd', '-perm', '-0002', '!', '-perm', '-1000', '-printf', 'wd %p\\n', ')', '-o',
    '(', '-type', 'f', '(', '-perm', '-4000', '-o', '-perm', '-2000', ')', '-printf', 'id %m %u %p\\n', ')', '-o',
    '(', '(', '-nouser', '-o', '-nogroup', ')', '-printf', 'no %p\\n', ')',
  ];
}

export function parseScan(stdout: string): FilesystemScan {
  const scan: FilesystemScan = { worldWritableFiles: [], worldWritableDirs: [], setId: [], unowned: [] };
  for (const line of stdout.split('\n')) {
    const tag = line.slice(0, 3);
    const rest = line.slice(3);
    if (tag === 'ww ') scan.worldWritableFiles.push(rest);
    else if (tag === 'wd ') scan.worldWritableDirs.push(rest);
    else if (tag === 'no ') scan.unowned.push(rest);
    else if (tag === 'id ') {
      const match = /^([0-7]+) (\S+) (.*)$/.exec(rest);
      if (match) scan.setId.push({ mode: parseInt(match[1] as string, 8), owner: match[2] as string, path: match[3] as string });
    }
  }
  return scan;
}

export async function collectFilesystemScan(exec: Executor): Promise<FilesystemScan> {
  const result = await exec('find', findArgs());
  // find exits 1 when some directory was unreadable or a start path is missing; what it printed stands.
  if (result.code !== 0 && result.code !== 1) throw new Error(`find: ${result.stderr.trim() || `exit ${result.code}`}`);
  return parseScan(result.stdout);
}
