/** Server messages of the basic tab: temporary disable, alias, NTP. */
const zh = {
  basic_alias_invalid: '服务器别名最多 64 个字符，且不能含控制字符',
  basic_minutes_invalid: '临时关闭时间须为 1-525600 之间的整数分钟',
  protection_paused: '系统防护已临时关闭 {minutes} 分钟，到时自动恢复',
  protection_stopped: '系统防护已关闭，需手动开启',
  protection_resumed: '系统防护已开启',
  ntp_server_invalid: '请输入有效的 NTP 服务器（IP 或域名，可带 :端口）',
  ntp_servers_max: '最多 10 个 NTP 服务器',
  ntp_servers_required: '开启自动同步时至少需要一个 NTP 服务器',
  ntp_interval_invalid: '同步间隔须为 1-10080 之间的整数分钟',
  ntp_failed: '从NTP服务器获取时间失败！',
  ntp_synced: '已从 {server} 同步时间',
} as const;

const en: Record<keyof typeof zh, string> = {
  basic_alias_invalid: 'The server alias has at most 64 characters and no control characters',
  basic_minutes_invalid: 'Minutes is a whole number from 1 to 525600',
  protection_paused: 'Protection is off for {minutes} minutes; it comes back by itself',
  protection_stopped: 'Protection is off until it is turned on by hand',
  protection_resumed: 'Protection is on',
  ntp_server_invalid: 'Enter a valid NTP server (IP or domain name, optionally with :port)',
  ntp_servers_max: 'At most 10 NTP servers',
  ntp_servers_required: 'Add at least one NTP server to sync automatically',
  ntp_interval_invalid: 'The interval is a whole number of minutes from 1 to 10080',
  ntp_failed: 'Failed to fetch time from NTP server!',
  ntp_synced: 'Time synchronized from {server}',
};

export const systemBasicMessages = { zh, en };
