export interface MountEntry {
  device: string;
  mount: string;
  fstype: string;
}

/** Filesystem types that hold real data even when their device is not a /dev node. */
export const realFilesystemTypes: ReadonlySet<string> = new Set([
  'ext2', 'ext3', 'ext4', 'xfs', 'btrfs', 'zfs', 'f2fs', 'vfat', 'exfat', 'ntfs3', 'overlay',
]);

/** Read-only images (snaps, live media) are always "full" and say nothing about free space. */
const imageFilesystemTypes: ReadonlySet<string> = new Set(['squashfs', 'iso9660']);

/** Parses /proc/self/mounts; the kernel writes space, tab, newline and backslash as octal escapes. */
export function parseMounts(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const [device, mount, fstype] = line.trim().split(/\s+/);
    if (!device || !mount || !fstype) continue;
    entries.push({ device: unescapeOctal(device), mount: unescapeOctal(mount), fstype });
  }
  return entries;
}

function unescapeOctal(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/**
 * Real filesystems only (a /dev device or a known data filesystem type), one per device.
 * A device mounted in several places (bind mounts) is reported at its shortest mount path.
 */
export function realFilesystems(entries: readonly MountEntry[]): MountEntry[] {
  const byDevice = new Map<string, MountEntry>();
  for (const entry of entries) {
    if (imageFilesystemTypes.has(entry.fstype)) continue;
    if (!entry.device.startsWith('/dev/') && !realFilesystemTypes.has(entry.fstype)) continue;
    const seen = byDevice.get(entry.device);
    if (!seen || entry.mount.length < seen.mount.length) byDevice.set(entry.device, entry);
  }
  return [...byDevice.values()];
}
