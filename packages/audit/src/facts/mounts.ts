import type { RootFs } from '../root-fs.ts';

/**
 * Mount points and their options. The running system's /proc/mounts (under the root) says what is
 * mounted now; a root without /proc (a chroot, a fixture) is judged by its /etc/fstab instead.
 */
export interface MountEntry {
  mountPoint: string;
  fsType: string;
  options: string[];
  line: number;
}
export interface MountFacts {
  source: '/proc/mounts' | '/etc/fstab';
  entries: MountEntry[];
}

export function parseMountTable(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const [, mountPoint, fsType, options] = line.split(/\s+/);
    if (!mountPoint || !fsType) return;
    // Octal escapes (\040 for a space) as the kernel and fstab(5) write them.
    const point = mountPoint.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    entries.push({ mountPoint: point, fsType, options: (options ?? '').split(','), line: index + 1 });
  });
  return entries;
}

export function collectMounts(fs: RootFs): MountFacts {
  const proc = fs.read('/proc/mounts');
  if (proc && proc.text.trim() !== '') return { source: '/proc/mounts', entries: parseMountTable(proc.text) };
  return { source: '/etc/fstab', entries: parseMountTable(fs.read('/etc/fstab')?.text ?? '') };
}

/** The last entry wins: a later mount over the same point hides the earlier one. */
export function mountOf(facts: MountFacts, mountPoint: string): MountEntry | undefined {
  return facts.entries.filter((e) => e.mountPoint === mountPoint).at(-1);
}
