import { describe, expect, it } from 'vitest';
import { parseMounts, realFilesystems } from '../src/index.ts';
import { diskUsageFrom } from '../src/host/disks.ts';
import { fixture } from './fixtures.ts';

describe('mounts', () => {
  const entries = parseMounts(fixture('mounts.txt'));

  it('parses every line and decodes octal escapes in paths', () => {
    expect(entries).toHaveLength(13);
    expect(entries).toContainEqual({ device: '/dev/vdb1', mount: '/srv/my data', fstype: 'xfs' });
  });

  it('keeps real filesystems only, one per device, at the shortest mount', () => {
    expect(realFilesystems(entries)).toEqual([
      { device: '/dev/vda', mount: '/', fstype: 'ext4' },
      { device: '/dev/vdb1', mount: '/srv/my data', fstype: 'xfs' },
      { device: 'rpool/home', mount: '/home', fstype: 'zfs' },
      { device: 'overlay', mount: '/var/lib/docker/overlay2/abc/merged', fstype: 'overlay' },
      { device: '/dev/sda1', mount: '/boot/efi', fstype: 'vfat' },
    ]);
  });

  it('prefers the shorter mount even when the bind mount comes first', () => {
    const bindFirst = parseMounts('/dev/vda /etc/hosts ext4 rw 0 0\n/dev/vda / ext4 rw 0 0\n');
    expect(realFilesystems(bindFirst)).toEqual([{ device: '/dev/vda', mount: '/', fstype: 'ext4' }]);
  });

  it('computes sizes as df does', () => {
    const usage = diskUsageFrom(
      { device: '/dev/vda', mount: '/', fstype: 'ext4' },
      { bsize: 4096, blocks: 1000, bfree: 300, bavail: 250 },
    );
    expect(usage).toEqual({ device: '/dev/vda', mount: '/', fstype: 'ext4', size: 4096000, used: 700 * 4096, available: 250 * 4096 });
  });
});
