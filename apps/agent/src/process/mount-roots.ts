import { readFile } from 'node:fs/promises';

/*
 * The root folder of every filesystem a program can be started from. The guard's BPF LSM walk goes
 * up the dentries of one filesystem and stops at its root: a rule meant for "a file of this name,
 * anywhere" is anchored at each of these roots (`/`, a separate /var or /home, the tmpfs of /tmp
 * and /dev/shm where droppers like to run from).
 */

/** Kernel interfaces and other filesystems that hold no programs to start. */
const holdsNoPrograms = new Set([
  'proc', 'sysfs', 'cgroup', 'cgroup2', 'bpf', 'securityfs', 'debugfs', 'tracefs', 'pstore', 'configfs', 'fusectl',
  'mqueue', 'hugetlbfs', 'devpts', 'autofs', 'binfmt_misc', 'efivarfs', 'rpc_pipefs', 'nsfs', 'selinuxfs', 'ramfs',
]);

/** More roots than any plain server has; container hosts with many overlay mounts get the first ones by path length. */
export const maxMountRoots = 64;

/** mountinfo writes space, tab, newline and backslash in paths as octal escapes (`\040`). */
function unescapeMountPath(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_match, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/**
 * From `/proc/self/mountinfo`: the mount point of each filesystem's own root (a bind mount of a
 * subfolder shows another root and is skipped: the same filesystem is reached through its own
 * mount), once per device, without `noexec` mounts (nothing starts there) and kernel interfaces.
 */
export function parseMountRoots(mountinfo: string): string[] {
  const byDevice = new Map<string, string>();
  for (const line of mountinfo.split('\n')) {
    const fields = line.trim().split(' ');
    const separator = fields.indexOf('-');
    if (fields.length < 7 || separator < 6) continue;
    const [, , device = '', root = '', mountPoint = '', options = ''] = fields;
    const fsType = fields[separator + 1] ?? '';
    if (root !== '/' || holdsNoPrograms.has(fsType) || options.split(',').includes('noexec')) continue;
    const at = unescapeMountPath(mountPoint);
    const known = byDevice.get(device);
    if (known === undefined || at.length < known.length) byDevice.set(device, at);
  }
  return [...byDevice.values()].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)).slice(0, maxMountRoots);
}

/** This host's roots; `/` alone when mountinfo cannot be read. */
export async function readMountRoots(file = '/proc/self/mountinfo'): Promise<string[]> {
  try {
    const roots = parseMountRoots(await readFile(file, 'utf8'));
    return roots.length ? roots : ['/'];
  } catch {
    return ['/'];
  }
}
