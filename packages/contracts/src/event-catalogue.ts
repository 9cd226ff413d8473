import type { Language } from './i18n.ts';
import type { EventCategory, EventParams } from './events.ts';
import { legacyActionModule, panelActionResults, panelChangesSuffix, renderPanelAction } from './panel-actions.ts';
import { websiteAttackNames, websiteInterceptReasonNames, websiteRuleName } from './website-event-names.ts';
import { trojanHandledNames, trojanHandlingNames, trojanReasonName, trojanRiskNames, trojanScanKindNames } from './trojan-event-names.ts';
import { cloudMessages } from './messages/cloud.ts';

type Texts = Record<Language, string>;

interface EventKindDef {
  category: EventCategory;
  /**
   * Simple log mode folds repeats of this kind from one IP on one day into one row. Administrative
   * actions are never folded: each one is kept with its account and IP.
   */
  foldable: boolean;
  /**
   * Parameters that tell two events of a foldable kind apart (the attack kind, the rule, the reason,
   * the site): simple mode folds only events equal in all of them, so an SQL injection and an XSS
   * from one address stay two rows.
   */
  foldBy?: readonly string[];
  content: Texts;
  solution?: Texts;
}

/** Names of the modules and of the panel, as events and notices show them (the same words as the menu). */
export const eventModuleNames: Record<string, Texts> = {
  system: { 'zh-CN': '系统', 'en-US': 'System' },
  firewall: { 'zh-CN': '防火墙', 'en-US': 'Firewall' },
  trojan: { 'zh-CN': '木马防护', 'en-US': 'Trojan protection' },
  remote: { 'zh-CN': '远程防护', 'en-US': 'Remote protection' },
  account: { 'zh-CN': '用户防护', 'en-US': 'User protection' },
  tamper: { 'zh-CN': '防篡改', 'en-US': 'Tamper protection' },
  process: { 'zh-CN': '进程防护', 'en-US': 'Process protection' },
  website: { 'zh-CN': '网站防护', 'en-US': 'Website protection' },
  cloud: { 'zh-CN': '云防护', 'en-US': 'Cloud protection' },
};

export const eventLevelNames: Record<string, Texts> = {
  info: { 'zh-CN': '信息', 'en-US': 'Info' },
  warning: { 'zh-CN': '警告', 'en-US': 'Warning' },
  critical: { 'zh-CN': '严重', 'en-US': 'Critical' },
};

/**
 * Every event kind. Placeholders: `{name}` is the raw parameter; `{name|module}` shows a module
 * key by its name; `{name|onoff}` shows 1/0 as on/off; `{name|reason}` names a block reason;
 * `{name|attack}`, `{name|webrule}`, `{name|webreason}` name the website gateway's attack kinds,
 * rules and interception reasons (website-event-names.ts); `{name|tamperop}` a tamper operation letter,
 * `{name|tamperaction}` a rule change (add, edit, enable, disable, delete); `{name|action}`,
 * `{name|changes}` and `{name|result}` an administrative action, the fields it changed and how it
 * ended (panel-actions.ts); `{name|trojanrisk}`, `{name|trojanhandled}`, `{name|trojanhandling}`,
 * `{name|trojanscan}` and `{name|trojanreason}` trojan protection's words (trojan-event-names.ts);
 * `{name|cloudreason}` a cloud protection message key (messages/cloud.ts), `{detail}` filled in.
 */
export const eventKinds = {
  'panel.action': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} {action|action}{changes|changes}（{result|result}）', 'en-US': '{account} {action|action}{changes|changes} ({result|result})' },
  },
  'panel.login_ok': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '账号 {account} 登录面板成功', 'en-US': 'Account {account} signed in to the panel' },
  },
  'panel.login_failed': {
    category: 'security', foldable: true,
    content: { 'zh-CN': '账号 {account} 登录面板失败', 'en-US': 'Failed panel sign-in for account {account}' },
    solution: { 'zh-CN': '如非本人操作，请将该 IP 加入黑名单并修改密码', 'en-US': 'If this was not you, blacklist the IP and change the password' },
  },
  'panel.login_locked': {
    category: 'security', foldable: true,
    content: { 'zh-CN': '登录失败次数过多，IP {ip} 今日已被锁定', 'en-US': 'Too many failed sign-ins: IP {ip} is locked for today' },
    solution: { 'zh-CN': '确认是否为暴力破解；可在面板设置中调整登录错误次数', 'en-US': 'Check for password guessing; the login error count is in the panel settings' },
  },
  'panel.login_check_skipped': {
    category: 'security', foldable: false,
    content: { 'zh-CN': '登录验证已开启但未设置通知方式，账号 {account} 从本机 {ip} 登录时跳过了验证', 'en-US': 'Sign-in verification is on but no notification method is set: account {account} signed in from this machine ({ip}) without it' },
    solution: { 'zh-CN': '在消息通知中设置通知方式，或为账号启用两步验证（身份验证器）', 'en-US': 'Set a notification method under message notification, or turn on two-step verification (authenticator app) for the account' },
  },
  'panel.logout': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '账号 {account} 退出登录', 'en-US': 'Account {account} signed out' },
  },
  'terminal.signed_in': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '账号 {account} 从 {ip} 登录了信任终端', 'en-US': 'Account {account} signed in to a trust terminal from {ip}' },
  },
  'terminal.started': {
    category: 'operation', foldable: false,
    content: {
      'zh-CN': '信任终端（账号 {account}）开始信任 {ip}，至少 {keep_hours} 小时（0 表示仅在终端运行时）',
      'en-US': 'The trust terminal of {account} started trusting {ip} for at least {keep_hours} hour(s) (0: only while it runs)',
    },
  },
  'terminal.beat_gap': {
    category: 'security', foldable: false,
    content: {
      'zh-CN': '信任终端（账号 {account}，{ip}）中断了 {minutes} 分钟后恢复心跳，该地址重新被信任',
      'en-US': 'The trust terminal of {account} ({ip}) beat again after a gap of {minutes} min: the address is trusted again',
    },
  },
  'terminal.expired': {
    category: 'security', foldable: false,
    content: {
      'zh-CN': '信任终端（账号 {account}）已 {minutes} 分钟没有心跳，{ip} 不再被信任',
      'en-US': 'The trust terminal of {account} has not beaten for {minutes} min: {ip} is no longer trusted',
    },
  },
  'terminal.stopped': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '账号 {account} 停止了信任终端（{ip}）', 'en-US': 'Account {account} stopped its trust terminal ({ip})' },
  },
  'terminal.ended': {
    category: 'operation', foldable: false,
    content: {
      'zh-CN': '{by} 结束了账号 {account} 的信任终端（{ip}）',
      'en-US': '{by} ended the trust terminal of {account} ({ip})',
    },
  },
  'module.switched': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{module|module} 已{status|onoff}', 'en-US': '{module|module} turned {status|onoff}' },
  },
  'log.retention': {
    category: 'system', foldable: false,
    content: { 'zh-CN': '按保留天数（{days} 天）清理了 {count} 条日志', 'en-US': 'Removed {count} log records older than {days} days' },
  },
  'log.disk_alert': {
    category: 'system', foldable: false,
    content: { 'zh-CN': '日志占用磁盘 {size_mb} MB，超过告警值 {limit_mb} MB', 'en-US': 'Logs use {size_mb} MB of disk, above the alert limit of {limit_mb} MB' },
    solution: { 'zh-CN': '缩短日志保留天数，或配置日志备份后清理', 'en-US': 'Shorten the keep days, or back the logs up and clear them' },
  },
  'log.backup_ok': {
    category: 'system', foldable: false,
    content: { 'zh-CN': '日志归档 {file} 已备份到 {target}', 'en-US': 'Log archive {file} backed up to {target}' },
  },
  'log.backup_failed': {
    category: 'system', foldable: false,
    content: { 'zh-CN': '日志归档 {file} 备份到 {target} 失败：{reason}', 'en-US': 'Backing up log archive {file} to {target} failed: {reason}' },
    solution: { 'zh-CN': '检查备份规则的地址、账号和密钥；系统会自动重试', 'en-US': 'Check the rule\'s address, account and keys; it is retried automatically' },
  },
  'log.photos_cleared': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 清空了请求快照（{count} 条）', 'en-US': '{account} cleared the request snapshots ({count})' },
  },
  'firewall.blocked': {
    category: 'security', foldable: true, foldBy: ['reason'],
    content: { 'zh-CN': '{ip} 触发{reason|reason}防护，已拦截 {minutes} 分钟', 'en-US': '{ip}: {reason|reason}; blocked for {minutes} minutes' },
    solution: { 'zh-CN': '如为误拦截，可在拦截列表中解除，并将该 IP 加入白名单', 'en-US': 'If this is a mistake, unblock it in the interception list and whitelist the IP' },
  },
  'firewall.restored': {
    category: 'system', foldable: false,
    content: { 'zh-CN': '防火墙规则在内核中被清除或修改，已自动恢复', 'en-US': 'The firewall ruleset was flushed or edited in the kernel; it was restored' },
    solution: { 'zh-CN': '检查是否有其他程序或脚本执行了 nft flush ruleset', 'en-US': 'Check for another program or script running nft flush ruleset' },
  },
  'firewall.rolled_back': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 的防火墙变更会阻断其自身 IP，{seconds} 秒内未确认，已自动回滚', 'en-US': 'A firewall change by {account} would block their own IP and was not confirmed within {seconds} s; it was rolled back' },
  },
  'firewall.apply_failed': {
    category: 'system', foldable: false,
    content: { 'zh-CN': '防火墙规则写入内核失败：{reason}', 'en-US': 'The firewall ruleset could not be applied: {reason}' },
    solution: { 'zh-CN': '确认 nftables 已安装且服务以 root 运行', 'en-US': 'Make sure nftables is installed and the agent runs as root' },
  },
  // Remote-login protection: every accepted SSH login, read from sshd's journal entries.
  'remote.login': {
    category: 'security', foldable: false,
    content: { 'zh-CN': '用户 {user} 从 {ip}（{area}）通过 {method} 登录了 SSH', 'en-US': 'User {user} logged in over SSH from {ip} ({area}) by {method}' },
    solution: { 'zh-CN': '如非本人操作，请立即修改该账号密码并检查远程防护的授权 IP', 'en-US': 'If this was not you, change the account\'s password at once and check the authorized IPs of remote protection' },
  },
  // System protection (basic tab): the agent records these, its timer's own resume included.
  'protection.paused': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 临时关闭了系统防护 {minutes} 分钟，将于 {until} 自动恢复', 'en-US': '{account} turned protection off for {minutes} minutes; it resumes by itself at {until}' },
  },
  'protection.stopped': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 关闭了系统防护（需手动开启）', 'en-US': '{account} turned protection off (until it is turned on by hand)' },
  },
  'protection.resumed': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 开启了系统防护', 'en-US': '{account} turned protection on' },
  },
  'protection.auto_resumed': {
    category: 'system', foldable: false,
    content: { 'zh-CN': '临时关闭时间已到，系统防护已自动恢复', 'en-US': 'The temporary disable ended; protection is back on by itself' },
  },
  // Tamper protection: the guard's denials (rate-limited per rule, packages/guard/src/denials.ts) and rule changes.
  // `{op|tamperop}` names the operation; `{rule}` is `tamper:<id>` or `name:<id>`.
  'tamper.denied': {
    category: 'security', foldable: true, foldBy: ['rule'],
    content: { 'zh-CN': '进程 {process}（PID {pid}，UID {uid}）对 {path} 的{op|tamperop}操作已被拦截（规则 {rule}）', 'en-US': '{op|tamperop} of {path} by {process} (PID {pid}, UID {uid}) denied (rule {rule})' },
    solution: { 'zh-CN': '如为正常业务，可在防篡改规则的高级设置中放行该进程，或调整规则', 'en-US': 'If this is expected, exempt the process in the rule\'s advanced settings, or adjust the rule' },
  },
  'tamper.name_denied': {
    category: 'security', foldable: true, foldBy: ['rule'],
    content: { 'zh-CN': '进程 {process}（PID {pid}，UID {uid}）创建 {path} 被命名规则拦截（规则 {rule}）', 'en-US': 'Creating {path} by {process} (PID {pid}, UID {uid}) denied by a naming rule (rule {rule})' },
    solution: { 'zh-CN': '如为正常文件，请调整该命名规则的禁止名称', 'en-US': 'If the name is legitimate, adjust the naming rule\'s denied names' },
  },
  'tamper.denials_suppressed': {
    category: 'security', foldable: false,
    content: { 'zh-CN': '规则 {rule} 在 {seconds} 秒内又拦截了 {count} 次，为免日志过多未逐条记录', 'en-US': 'Rule {rule} denied {count} more accesses within {seconds} s; they were not recorded one by one' },
    solution: { 'zh-CN': '某个进程在反复尝试被禁止的操作，请检查该进程', 'en-US': 'A process keeps retrying a denied operation: check that process' },
  },
  'tamper.rules_changed': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} {action|tamperaction}了防篡改规则：{what}', 'en-US': '{account}: tamper rules {action|tamperaction}: {what}' },
  },
  'tamper.apply_failed': {
    category: 'system', foldable: false,
    content: { 'zh-CN': '防篡改规则下发到内核失败：{reason}', 'en-US': 'The tamper rules could not be applied in the kernel: {reason}' },
    solution: { 'zh-CN': '确认防护代理以 root 运行且 rampart-guard 已安装', 'en-US': 'Make sure the agent runs as root and rampart-guard is installed' },
  },
  // Process protection (apps/agent/src/process): the guard's denials of `process:<id>:start` and
  // `process:<id>:file<n>` slots (kind chosen in packages/guard/src/denials.ts) and rule changes.
  'process.start_denied': {
    category: 'security', foldable: true, foldBy: ['rule'],
    content: { 'zh-CN': '程序 {path} 的启动已被拦截（进程 {process}，PID {pid}，UID {uid}，规则 {rule}）', 'en-US': 'Start of {path} denied (by {process}, PID {pid}, UID {uid}, rule {rule})' },
    solution: { 'zh-CN': '如为正常程序，请在进程防护页面停用或修改该规则', 'en-US': 'If the program is legitimate, disable or edit the rule on the process protection page' },
  },
  'process.file_denied': {
    category: 'security', foldable: true, foldBy: ['rule'],
    content: { 'zh-CN': '进程 {process}（PID {pid}，UID {uid}）对 {path} 的{op|tamperop}操作已被拦截（规则 {rule}）', 'en-US': '{op|tamperop} of {path} by {process} (PID {pid}, UID {uid}) denied (rule {rule})' },
    solution: { 'zh-CN': '如为正常访问，请在进程防护页面修改该规则的文件访问规则', 'en-US': 'If the access is legitimate, edit the rule\'s file access rules on the process protection page' },
  },
  'process.net_denied': {
    category: 'security', foldable: true, foldBy: ['rule'],
    content: { 'zh-CN': '进程 {process}（PID {pid}，UID {uid}）访问 {peer} 端口 {port}（{proto}）已被拦截（规则 {rule}）', 'en-US': '{proto} to {peer} port {port} by {process} (PID {pid}, UID {uid}) denied (rule {rule})' },
    solution: { 'zh-CN': '如为正常通信，请在进程防护页面将对端加入允许列表', 'en-US': 'If the traffic is legitimate, add the peer to the rule\'s allowed list on the process protection page' },
  },
  'process.denials_suppressed': {
    category: 'security', foldable: false,
    content: { 'zh-CN': '规则 {rule} 在 {seconds} 秒内又拦截了 {count} 次，为免日志过多未逐条记录', 'en-US': 'Rule {rule} denied {count} more accesses within {seconds} s; they were not recorded one by one' },
  },
  'process.rules_changed': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} {action|tamperaction}了进程防护规则：{what}', 'en-US': '{account}: process protection rules {action|tamperaction}: {what}' },
  },
  // Trojan protection (apps/agent/src/trojan): web shells found by the watch and by scans, and the
  // administrator's changes. `{found_by}` is realtime, scan, audit or manual.
  'trojan.detected': {
    category: 'security', foldable: false,
    content: { 'zh-CN': '发现木马文件 {path}（{risk|trojanrisk}，{reason|trojanreason}），{handled|trojanhandled}', 'en-US': 'Web shell found: {path} ({risk|trojanrisk}, {reason|trojanreason}); {handled|trojanhandled}' },
    solution: { 'zh-CN': '检查网站是否存在上传或代码执行漏洞；如为误报，可在扫描结果中信任该文件', 'en-US': 'Look for the upload or code-execution hole it came through; if it is a false positive, trust the file in the scan results' },
  },
  'trojan.settings_changed': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 修改了木马防护设置：{what}', 'en-US': '{account} changed trojan protection settings: {what}' },
  },
  'trojan.dirs_changed': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} {action|tamperaction}了木马防护目录：{what}', 'en-US': '{account}: trojan protection directories {action|tamperaction}: {what}' },
  },
  'trojan.library_changed': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 修改了自定义木马库（{rules} 条规则，{hashes} 个哈希）', 'en-US': '{account} changed the custom library ({rules} rules, {hashes} hashes)' },
  },
  'trojan.scan_started': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 开始了{scan_kind|trojanscan}：{paths}', 'en-US': '{account} started a {scan_kind|trojanscan}: {paths}' },
  },
  'trojan.scan_cancelled': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 停止了{scan_kind|trojanscan}（已扫描 {done}/{total} 个文件）', 'en-US': '{account} stopped a {scan_kind|trojanscan} ({done} of {total} files done)' },
  },
  'trojan.result_handled': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 将可疑文件 {path} {handling|trojanhandling}', 'en-US': '{account}: suspicious file {path} {handling|trojanhandling}' },
  },
  'trojan.isolate_restored': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 将隔离文件还原到 {path}', 'en-US': '{account} restored an isolated file to {path}' },
  },
  'trojan.isolate_deleted': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 删除了隔离文件（原路径 {path}）', 'en-US': '{account} deleted an isolated file (from {path})' },
  },
  // Cloud protection (apps/agent/src/cloud): threat-intel feeds installed, updated, failing to update,
  // and the administrator's changes. A failure's `{error}` is a cloud_* message key, `{detail}` what fills it.
  'cloud.feed_updated': {
    category: 'system', foldable: false,
    content: { 'zh-CN': '威胁情报源 {name} 已更新到版本 {version}（IPv4 {v4} 段，IPv6 {v6} 段）', 'en-US': 'Threat-intel feed {name} updated to version {version} ({v4} IPv4 and {v6} IPv6 ranges)' },
  },
  'cloud.update_failed': {
    category: 'system', foldable: false,
    content: { 'zh-CN': '威胁情报源 {name} 更新失败：{error|cloudreason}', 'en-US': 'Threat-intel feed {name} failed to update: {error|cloudreason}' },
    solution: { 'zh-CN': '检查更新地址是否可达、签名公钥是否仍受信任；原有名单继续生效', 'en-US': 'Check that the address is reachable and the signing key still trusted; the installed list keeps blocking' },
  },
  'cloud.feeds_changed': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} {action|tamperaction}了威胁情报源：{what}', 'en-US': '{account}: threat-intel feeds {action|tamperaction}: {what}' },
  },
  'cloud.keys_changed': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} {action|tamperaction}了情报签名公钥：{what}', 'en-US': '{account}: feed signing keys {action|tamperaction}: {what}' },
  },
  'cloud.settings_changed': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 修改了云防护的自有地址（{count} 条）', 'en-US': '{account} changed cloud protection\'s own addresses ({count})' },
  },
  // User protection (apps/agent/src/account): the guard's denials on the account files (rules `account:<file>`,
  // kind chosen in packages/guard/src/denials.ts), the timed unlock and the root SSH login switch.
  'account.file_denied': {
    category: 'security', foldable: true, foldBy: ['rule'],
    content: { 'zh-CN': '进程 {process}（PID {pid}，UID {uid}）对系统账户文件 {path} 的{op|tamperop}操作已被拦截（规则 {rule}）', 'en-US': '{op|tamperop} of the account file {path} by {process} (PID {pid}, UID {uid}) denied (rule {rule})' },
    solution: { 'zh-CN': '如需修改用户或组，请在用户防护页面临时解锁', 'en-US': 'To change users or groups, unlock the account files for a while on the user protection page' },
  },
  'account.user_create_denied': {
    category: 'security', foldable: true, foldBy: ['rule'],
    content: { 'zh-CN': '进程 {process}（PID {pid}，UID {uid}）试图新建系统用户（替换 {path}），已被拦截（规则 {rule}）', 'en-US': '{process} (PID {pid}, UID {uid}) tried to create a system user (replacing {path}); denied (rule {rule})' },
    solution: { 'zh-CN': '如为管理员操作，请在用户防护页面临时解锁后重试', 'en-US': 'If an administrator is doing this, unlock for a while on the user protection page and retry' },
  },
  'account.denials_suppressed': {
    category: 'security', foldable: false,
    content: { 'zh-CN': '规则 {rule} 在 {seconds} 秒内又拦截了 {count} 次，为免日志过多未逐条记录', 'en-US': 'Rule {rule} denied {count} more accesses within {seconds} s; they were not recorded one by one' },
  },
  'account.unlocked': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 临时解锁了系统账户文件 {minutes} 分钟', 'en-US': '{account} unlocked the account files for {minutes} min' },
  },
  'account.relocked': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '临时解锁时间已到，系统账户文件已自动重新锁定', 'en-US': 'The unlock time ended; the account files are locked again by themselves' },
  },
  'account.settings_changed': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 修改了用户防护设置：{what}', 'en-US': '{account} changed user protection settings: {what}' },
  },
  'account.root_login_disabled': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 禁止了 root 直接 SSH 登录（{file}）', 'en-US': '{account} disabled direct root SSH login ({file})' },
  },
  'account.root_login_restored': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '{account} 撤销了对 root 直接 SSH 登录的禁止', 'en-US': '{account} reverted the ban on direct root SSH login' },
  },
  // Runs of a shortcut link (system settings, shortcut management); the client IP is the event's IP.
  'shortcut.pause_protection': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '快捷链接「{name}」暂停了系统防护 {minutes} 分钟', 'en-US': 'Shortcut "{name}" paused protection for {minutes} minutes' },
  },
  'shortcut.resume_protection': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '快捷链接「{name}」恢复了系统防护', 'en-US': 'Shortcut "{name}" turned protection back on' },
  },
  'shortcut.unblock_ip': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '快捷链接「{name}」解除了对 {ip} 的拦截（{count} 条）', 'en-US': 'Shortcut "{name}" unblocked {ip} ({count})' },
  },
  'shortcut.restart_panel': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '快捷链接「{name}」重启了面板', 'en-US': 'Shortcut "{name}" restarted the panel' },
  },
  'shortcut.failed': {
    category: 'operation', foldable: false,
    content: { 'zh-CN': '快捷链接「{name}」执行失败：{reason}', 'en-US': 'Shortcut "{name}" failed: {reason}' },
    solution: { 'zh-CN': '确认防护服务（agent）正在运行', 'en-US': 'Make sure the protection service (agent) is running' },
  },
  'alert.delivery_failed': {
    category: 'system', foldable: false,
    content: { 'zh-CN': '通知「{title}」通过{method}发送失败：{reason}', 'en-US': 'The notification "{title}" could not be sent by {method}: {reason}' },
    solution: { 'zh-CN': '在系统设置 - 消息通知中检查该通知方式的配置并发送测试消息', 'en-US': 'Check the method in System settings - Alerts and send a test message' },
  },
  // Website protection: what the gateway did, drained by the console (apps/console/src/website/gateway-events.ts).
  // `{site}` is the site's name, `{attack|attack}` the attack kind, `{rule|webrule}` the rule or settings group.
  'website.attack': {
    category: 'security', foldable: true, foldBy: ['attack', 'site'],
    content: { 'zh-CN': '{ip} 对站点「{site}」的{attack|attack}攻击已拦截', 'en-US': '{ip}: {attack|attack} attack on site "{site}" blocked' },
    solution: { 'zh-CN': '如为误拦截，可将该 URL 或 IP 加入网站防护的白名单，或在攻击防护中调整该检测', 'en-US': 'If this is a mistake, whitelist the URL or IP in the website lists, or adjust the detection on the attack tab' },
  },
  'website.policy_block': {
    category: 'security', foldable: true, foldBy: ['rule', 'site'],
    content: { 'zh-CN': '{ip} 访问站点「{site}」被{rule|webrule}拦截', 'en-US': '{ip}: request to site "{site}" blocked by {rule|webrule}' },
    solution: { 'zh-CN': '如为误拦截，请检查网站防护中对应的设置', 'en-US': 'If this is a mistake, check that setting of the website protection' },
  },
  'website.challenge': {
    category: 'security', foldable: true, foldBy: ['rule', 'site'],
    content: { 'zh-CN': '{ip} 访问站点「{site}」需通过人机验证（{rule|webrule}）', 'en-US': '{ip}: human verification asked on site "{site}" ({rule|webrule})' },
  },
  'website.record': {
    category: 'security', foldable: true, foldBy: ['rule', 'site'],
    content: { 'zh-CN': '{ip} 访问站点「{site}」命中{rule|webrule}，已记录（未拦截）', 'en-US': '{ip}: request to site "{site}" matched {rule|webrule}; recorded, not blocked' },
  },
  'website.intercepted': {
    category: 'security', foldable: true, foldBy: ['reason'],
    content: { 'zh-CN': '{ip} 触发{reason|webreason}，网站防护已拦截 {minutes} 分钟', 'en-US': '{ip}: {reason|webreason}; blocked by website protection for {minutes} minutes' },
    solution: { 'zh-CN': '如为误拦截，可在网站防护的拦截列表中解除', 'en-US': 'If this is a mistake, remove it from the website interception list' },
  },
  'website.authorized': {
    category: 'security', foldable: false,
    content: { 'zh-CN': '{ip} 通过授权密码验证，授权访问 {minutes} 分钟', 'en-US': '{ip} gave the authorization password; authorized for {minutes} minutes' },
  },
  'website.events_lost': {
    category: 'system', foldable: false,
    content: { 'zh-CN': '网站防护网关的事件缓冲区已满，{count} 条事件未能记录', 'en-US': 'The website gateway\'s event buffer was full: {count} events were not recorded' },
    solution: { 'zh-CN': '通常是短时间内大量攻击所致；确认面板服务正常运行', 'en-US': 'Usually a burst of attacks; make sure the panel service is running' },
  },
} satisfies Record<string, EventKindDef>;

/** Why the firewall blocked an address, as the interception list, events and notices show it (one table for all three). */
export const interceptReasonNames: Record<string, Texts> = {
  port_scan: { 'zh-CN': '端口扫描', 'en-US': 'Port scan' },
  ssh_bruteforce: { 'zh-CN': 'SSH 暴力破解', 'en-US': 'SSH brute force' },
  http_404_scan: { 'zh-CN': '404 扫描', 'en-US': '404 scan' },
  http_cc: { 'zh-CN': 'CC 攻击', 'en-US': 'CC attack' },
  manual: { 'zh-CN': '手动拦截', 'en-US': 'Blocked by hand' },
};

/** Tamper protection's operations (tamper.ts flag letters) and rule actions, as events show them. */
const tamperOpNames: Record<string, Texts> = {
  r: { 'zh-CN': '读取', 'en-US': 'Read' },
  x: { 'zh-CN': '执行', 'en-US': 'Execute' },
  d: { 'zh-CN': '删除', 'en-US': 'Delete' },
  c: { 'zh-CN': '创建', 'en-US': 'Create' },
  n: { 'zh-CN': '重命名', 'en-US': 'Rename' },
  w: { 'zh-CN': '修改', 'en-US': 'Modify' },
  t: { 'zh-CN': '修改时间', 'en-US': 'Time change' },
};
const tamperActionNames: Record<string, Texts> = {
  add: { 'zh-CN': '添加', 'en-US': 'added' },
  edit: { 'zh-CN': '修改', 'en-US': 'edited' },
  enable: { 'zh-CN': '启用', 'en-US': 'enabled' },
  disable: { 'zh-CN': '停用', 'en-US': 'disabled' },
  delete: { 'zh-CN': '删除', 'en-US': 'deleted' },
};

export type EventKind = keyof typeof eventKinds;
const kindTable: Record<string, EventKindDef | undefined> = eventKinds;

export function eventKindDef(kind: string): EventKindDef | undefined {
  return kindTable[kind];
}

const onOff: Record<string, Texts> = {
  '1': { 'zh-CN': '开启', 'en-US': 'on' },
  '0': { 'zh-CN': '关闭', 'en-US': 'off' },
};

/** Fills a catalogue template; a missing parameter shows as an empty string, never as `{name}`. */
export function fillTemplate(template: string, params: EventParams, lang: Language): string {
  return template.replace(/\{([a-z_][a-z0-9_]*)(?:\|(module|onoff|reason|attack|webrule|webreason|tamperop|tamperaction|action|changes|result|trojanrisk|trojanhandled|trojanhandling|trojanscan|trojanreason|cloudreason))?\}/g, (_, name: string, format?: string) => {
    const raw = params[name];
    if (raw === undefined) return '';
    const text = String(raw);
    if (format === 'action') {
      const module = String(params['module'] ?? legacyActionModule(text) ?? 'system');
      return renderPanelAction(text, String(params['target'] ?? ''), eventModuleNames[module]?.[lang] ?? eventModuleNames['system']![lang], lang);
    }
    if (format === 'changes') return panelChangesSuffix(text, lang);
    if (format === 'result') return panelActionResults[text]?.[lang] ?? text;
    if (format === 'module') return eventModuleNames[text]?.[lang] ?? text;
    if (format === 'onoff') return onOff[text]?.[lang] ?? text;
    if (format === 'reason') return interceptReasonNames[text]?.[lang] ?? text;
    if (format === 'attack') return websiteAttackNames[text]?.[lang] ?? text;
    if (format === 'webrule') return websiteRuleName(text, lang);
    if (format === 'webreason') return websiteInterceptReasonNames[text]?.[lang] ?? text;
    if (format === 'tamperop') return tamperOpNames[text]?.[lang] ?? text;
    if (format === 'tamperaction') return tamperActionNames[text]?.[lang] ?? text;
    if (format === 'trojanrisk') return trojanRiskNames[text]?.[lang] ?? text;
    if (format === 'trojanhandled') return trojanHandledNames[text]?.[lang] ?? text;
    if (format === 'trojanhandling') return trojanHandlingNames[text]?.[lang] ?? text;
    if (format === 'trojanscan') return trojanScanKindNames[text]?.[lang] ?? text;
    if (format === 'trojanreason') return trojanReasonName(text, String(params['rule'] ?? ''), lang);
    if (format === 'cloudreason') {
      const words = (cloudMessages[lang === 'zh-CN' ? 'zh' : 'en'] as Record<string, string | undefined>)[text];
      return words ? words.replace('{detail}', String(params['detail'] ?? '')) : text;
    }
    return text;
  });
}

const unknownKindWords: Texts = {
  'zh-CN': '本版本无法描述的事件（可能来自其他版本）',
  'en-US': 'An event this version cannot describe (it may come from another version)',
};

/**
 * An event of a kind this build does not know (a newer build wrote it, or a module was removed):
 * a sentence in the reader's language with the parameters as `name: value`, never the raw kind.
 */
function unknownEventContent(params: EventParams, lang: Language): string {
  const pairs = Object.entries(params).map(([name, value]) => `${name}: ${String(value)}`);
  return pairs.length ? `${unknownKindWords[lang]}${lang === 'zh-CN' ? '：' : ': '}${pairs.join(lang === 'zh-CN' ? '；' : '; ')}` : unknownKindWords[lang];
}

/** The words of an event in one language. An unknown kind (from a newer build) still reads. */
export function renderEvent(kind: string, params: EventParams, lang: Language): { content: string; solution: string } {
  const def = kindTable[kind];
  if (!def) return { content: unknownEventContent(params, lang), solution: '' };
  return { content: fillTemplate(def.content[lang], params, lang), solution: def.solution ? fillTemplate(def.solution[lang], params, lang) : '' };
}

/** Kinds whose words (in `lang`) contain `text`: the keyword filter matches these as well as raw fields. */
export function kindsMatching(text: string, lang: Language): string[] {
  const needle = text.toLowerCase();
  const words = (template: string | undefined) => (template ?? '').replace(/\{[^}]*\}/g, ' ').toLowerCase();
  return Object.entries(kindTable)
    .filter(([, def]) => def !== undefined && (words(def.content[lang]).includes(needle) || words(def.solution?.[lang]).includes(needle)))
    .map(([kind]) => kind);
}
