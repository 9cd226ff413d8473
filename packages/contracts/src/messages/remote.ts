/** Server messages of remote-login protection (`remote_`). */
const zh = {
  remote_time_invalid: '时间格式为 HH:MM',
  remote_days_required: '请选择星期',
  remote_window_order: '结束时间必须晚于开始时间',
  remote_too_many_windows: '最多 20 个时间段',
  remote_nothing_authorized: '远程防护已开启但未授权任何 IP 或地区：除超级白名单外，所有人都将无法远程登录',
  remote_firewall_off: '远程防护的规则由防火墙下发，防火墙关闭时不生效',
  remote_computer_name_windows_only: '客户端计算机名只在 Windows 远程桌面（RDP）中可见；SSH 不发送计算机名，此规则在 Linux 上不可用',
  remote_sshd_missing: '未找到 sshd，无法读取远程端口',
  remote_saved: '远程防护设置已保存',
} as const;

const en: Record<keyof typeof zh, string> = {
  remote_time_invalid: 'Times are HH:MM',
  remote_days_required: 'Choose the days',
  remote_window_order: 'The end time must be later than the start time',
  remote_too_many_windows: 'At most 20 time windows',
  remote_nothing_authorized: 'Remote protection is on but authorizes no IP or area: everyone except the super whitelist is locked out of remote login',
  remote_firewall_off: 'Remote protection is enforced by the firewall: it has no effect while the firewall is off',
  remote_computer_name_windows_only: 'The client computer name is only seen by Windows Remote Desktop (RDP); SSH sends none, so this rule is not available on Linux',
  remote_sshd_missing: 'sshd was not found: the remote port cannot be read',
  remote_saved: 'Remote protection settings saved',
} as const;

export const remoteMessages = { zh, en } as const;
