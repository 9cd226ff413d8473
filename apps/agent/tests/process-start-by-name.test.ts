import { describe, expect, it } from 'vitest';
import { maxMountRoots, parseMountRoots, readMountRoots } from '../src/process/mount-roots.ts';
import { processSourceRules, startNamePattern } from '../src/process/process-service.ts';
import type { StoredProcessRule } from '../src/process/rules-repo.ts';

/* Process protection's deny start by a `*name` pattern: which name the kernel matches, and where. */

// Lines as Debian 12 writes them (a separate /var, tmpfs /tmp and /dev/shm, a bind mount, noexec mounts).
const mountinfo = [
  '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw,errors=remount-ro',
  '23 22 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw',
  '24 22 0:22 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw',
  '25 22 0:5 / /dev rw,nosuid,relatime shared:2 - devtmpfs udev rw,size=4000k',
  '26 25 0:23 / /dev/shm rw,nosuid,nodev shared:3 - tmpfs tmpfs rw',
  '27 22 0:24 / /run rw,nosuid,nodev,noexec,relatime shared:5 - tmpfs tmpfs rw,size=800k',
  '28 23 0:25 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw',
  '30 22 8:2 / /var rw,relatime shared:20 - ext4 /dev/sda2 rw',
  '31 22 0:30 / /tmp rw,nosuid,nodev shared:21 - tmpfs tmpfs rw',
  '32 22 8:2 /www /srv/www rw,relatime shared:20 - ext4 /dev/sda2 rw',
  '33 22 8:3 / /mnt/my\\040disk rw,relatime shared:22 - ext4 /dev/sda3 rw',
  '34 22 8:3 / /mnt/again rw,relatime shared:22 - ext4 /dev/sda3 rw',
  '35 22 0:40 / /sys/fs/bpf rw,nosuid,nodev,noexec,relatime shared:10 - bpf bpf rw,mode=700',
].join('\n');

describe("the filesystems' roots", () => {
  it('lists each filesystem once at its own root: no noexec mounts, no kernel interfaces, no bind mount of a subfolder', () => {
    expect(parseMountRoots(mountinfo)).toEqual(['/', '/dev', '/tmp', '/var', '/dev/shm', '/mnt/again']);
  });

  it('reads octal escapes in mount points', () => {
    expect(parseMountRoots('33 22 8:3 / /mnt/my\\040disk rw,relatime - ext4 /dev/sda3 rw')).toEqual(['/mnt/my disk']);
  });

  it(`keeps at most ${maxMountRoots}, the shortest paths first, and skips lines it cannot read`, () => {
    const many = Array.from({ length: 100 }, (_, i) => `${40 + i} 22 0:${100 + i} / /var/lib/c/${String(i).padStart(3, '0')}/merged rw - overlay overlay rw`);
    const roots = parseMountRoots([mountinfo, 'garbage', '', ...many].join('\n'));
    expect(roots).toHaveLength(maxMountRoots);
    expect(roots.slice(0, 6)).toEqual(['/', '/dev', '/tmp', '/var', '/dev/shm', '/mnt/again']);
  });

  it("this host's roots start with /; an unreadable mountinfo gives / alone", async () => {
    expect((await readMountRoots())[0]).toBe('/');
    expect(await readMountRoots('/nonexistent/mountinfo')).toEqual(['/']);
  });
});

describe('the name a start pattern denies', () => {
  it('reads *name and */name exactly, *name* as a contained name (narrower than the path), and refuses patterns naming folders', () => {
    expect(startNamePattern('*xmrig')).toEqual({ name: '*xmrig', exact: true });
    expect(startNamePattern('*/xmrig')).toEqual({ name: 'xmrig', exact: true });
    expect(startNamePattern('*xmr*')).toEqual({ name: '*xmr*', exact: false });
    expect(startNamePattern('*/xmr*')).toEqual({ name: 'xmr*', exact: false });
    expect(startNamePattern('*bin/xmrig')).toBeNull();
    expect(startNamePattern('*/')).toBeNull();
    expect(startNamePattern('/usr/bin/nc')).toBeNull();
    expect(startNamePattern('*')).toBeNull();
  });

  const rule = (process: string): StoredProcessRule => ({
    id: 7, enabled: true, process, deny_start: true, deny_tcp: false, deny_udp: false, allow_ips: [], allow_areas: [], files: [], whitelist: ['/usr/bin/ok'], notify: true, remark: '', created_at: 0, updated_at: 0,
  });

  it('a start rule by name is one source rule anchored at every root, for every process but the whitelist; a path pattern is its own object', () => {
    expect(processSourceRules(rule('*/xmrig'), ['/', '/tmp'])).toEqual([
      { id: '7:start', path: '/', anchorPaths: ['/', '/tmp'], sub_path: 'xmrig', process: '*', exempt: ['/usr/bin/ok'], level: 1, ops: ['x'], notify: true, parentWalk: true },
    ]);
    expect(processSourceRules(rule('/usr/bin/nc*'), ['/', '/tmp'])).toEqual([
      { id: '7:start', path: '/usr/bin/nc*', sub_path: '*', process: '*', exempt: ['/usr/bin/ok'], level: 1, ops: ['x'], notify: true },
    ]);
    expect(processSourceRules(rule('*bin/xmrig'), ['/'])).toEqual([]);
  });
});
