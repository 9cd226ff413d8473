import { defaultModuleFlags, permissionsOf, type HomeIndex, type RoleId, type UserInfo } from '@rampart/contracts';

export function userInfoFor(role: RoleId, extra: Partial<UserInfo> = {}): UserInfo {
  return {
    username: role === 'admin' ? 'admin' : `${role}01`,
    os: 'Debian GNU/Linux 12 (bookworm)',
    os_type: 'linux',
    server_alias: 'web-01',
    role: { id: role, name: role, permissions: permissionsOf(role) },
    module_list: defaultModuleFlags(),
    demo: null,
    lang: 'en-US',
    ...extra,
  };
}

export const GiB = 1024 ** 3;

export function homeIndexFixture(extra: Partial<HomeIndex> = {}): HomeIndex {
  return {
    protection: { mode: 'temp_off', minutes_left: 42 },
    version: '0.1.0',
    expires_at: new Date(2027, 0, 31).getTime(),
    virlib_version: null,
    host: {
      os: 'Debian GNU/Linux 12 (bookworm)',
      osType: 'linux',
      hostname: 'web-01',
      kernel: '6.1.0-18-amd64',
      arch: 'x64',
      cores: 8,
      memory: { total: 16 * GiB, used: 4 * GiB, available: 12 * GiB },
      load: { one: 0.5, five: 1.25, fifteen: 2, level: 'light' },
      disks: [
        { mount: '/', device: '/dev/sda1', fstype: 'ext4', size: 100 * GiB, used: 25 * GiB, available: 75 * GiB },
        { mount: '/data', device: '/dev/sdb1', fstype: 'xfs', size: 2048 * GiB, used: 1536 * GiB, available: 512 * GiB },
      ],
      uptime: 3600,
      kernelStatus: { status: 'abnormal', os: 'Debian GNU/Linux 12', kernel: '6.1.0-18-amd64', causes: ['not_root', 'nft_missing'] },
    },
    rates: { rx: 1_500_000, tx: 2500, at: 1000 },
    modules: defaultModuleFlags(),
    agent: 'connected',
    ...extra,
  };
}
