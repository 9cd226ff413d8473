import {
  computeSystemStatus, defaultModuleFlags, eventLevels, eventModules, logPeriods, permissionsOf,
  type BackupRuleView, type HomeIndex, type LogBase, type LogRow, type PhotoRecord, type RoleId, type UserInfo,
} from '@rampart/contracts';

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
    client_ip: '',
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
    // Every module off, protection paused: what the console computes for these figures.
    system_status: computeSystemStatus({ modules: defaultModuleFlags(), protection: 'temp_off', agent: 'connected', health: {} }),
    ...extra,
  };
}

export function logRow(id: number, extra: Partial<LogRow> = {}): LogRow {
  return {
    id,
    time: new Date(2025, 4, 6, 10, 0, id % 60).getTime(),
    account: 'admin',
    module: 'firewall',
    source: 'nft',
    ip: '203.0.113.7',
    level: 'warning',
    content: `Blocked a port scan #${id}`,
    solution: 'Blacklist the IP',
    detail: 'SRC=203.0.113.7 DST=10.0.0.2 DPT=22',
    repeats: 1,
    ...extra,
  };
}

/** Rows id = from, from-1, … (newest first), `count` of them. */
export function logRows(from: number, count: number): LogRow[] {
  return Array.from({ length: count }, (_v, i) => logRow(from - i));
}

export function logBaseFixture(extra: Partial<LogBase> = {}): LogBase {
  return {
    modules: [...eventModules],
    levels: [...eventLevels],
    periods: [...logPeriods],
    mode: 'simple',
    keep_days: 180,
    events: 1234,
    bytes: 5 * 1024 * 1024,
    ...extra,
  };
}

export function photoRecord(id: number, extra: Partial<PhotoRecord> = {}): PhotoRecord {
  return {
    id,
    time: new Date(2025, 4, 6, 11, 0, 0).getTime(),
    site: 'shop.example.com',
    ip: '198.51.100.9',
    method: 'POST',
    url: `https://shop.example.com/login.php?id=${id}`,
    headers: 'Host: shop.example.com\nUser-Agent: sqlmap/1.7',
    post_data: `user=admin' OR 1=1 --&pass=x${'A'.repeat(100)}`,
    kind: 'website.attack',
    ...extra,
  };
}

export function backupRuleView(id: number, extra: Partial<BackupRuleView> = {}): BackupRuleView {
  return {
    id,
    enabled: true,
    type: 'ftp',
    bucket: '',
    domain: 'ftp.example.com',
    ip: '',
    port: 21,
    username: 'backup',
    has_password: true,
    access_id: '',
    has_access_secret: false,
    save_path: '/logs',
    remark: 'office NAS',
    last: null,
    ...extra,
  };
}
