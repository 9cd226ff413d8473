import type { Language } from './i18n.ts';
import { localDateTime } from './local-time.ts';
import { websiteAttackNames } from './website-event-names.ts';

type Texts = Record<Language, string>;

/*
 * Administrative actions as the event log tells them (kind `panel.action`). The console stores data,
 * never words: `action` (a key below), `module`, `result`, an optional `target` (the account, site or
 * rule the call was about) and `changes`, a JSON list made by encodePanelChanges. The log renders it
 * in the reader's language when it is read, from these tables.
 */

/** What the account did, by action key; `{target}` is the object's name when the call names one. */
export const panelActionNames = {
  'firewall.rule_add': { 'zh-CN': '添加了防火墙规则', 'en-US': 'added a firewall rule' },
  'firewall.rule_edit': { 'zh-CN': '修改了防火墙规则 #{target}', 'en-US': 'edited firewall rule #{target}' },
  'firewall.rule_enable': { 'zh-CN': '启用了防火墙规则', 'en-US': 'enabled firewall rules' },
  'firewall.rule_disable': { 'zh-CN': '停用了防火墙规则', 'en-US': 'disabled firewall rules' },
  'firewall.rule_delete': { 'zh-CN': '删除了防火墙规则', 'en-US': 'deleted firewall rules' },
  'firewall.attack': { 'zh-CN': '修改了防火墙攻击防护设置', 'en-US': 'changed the firewall\'s attack protection settings' },
  'firewall.list_add': { 'zh-CN': '添加了防火墙名单条目', 'en-US': 'added firewall list entries' },
  'firewall.list_delete': { 'zh-CN': '删除了防火墙名单条目', 'en-US': 'deleted firewall list entries' },
  'firewall.list_import': { 'zh-CN': '导入了防火墙名单', 'en-US': 'imported a firewall list' },
  'firewall.intercept_add': { 'zh-CN': '手动拦截了 IP', 'en-US': 'blocked addresses by hand' },
  'firewall.intercept_delete': { 'zh-CN': '解除了 IP 拦截', 'en-US': 'unblocked addresses' },
  'firewall.confirm': { 'zh-CN': '确认保留了防火墙变更', 'en-US': 'confirmed a firewall change' },
  'remote.access': { 'zh-CN': '修改了远程登录访问设置', 'en-US': 'changed the remote-login access settings' },
  'remote.bruteforce': { 'zh-CN': '修改了远程登录防暴力破解设置', 'en-US': 'changed the remote-login brute-force settings' },
  'remote.confirm': { 'zh-CN': '确认保留了远程防护变更', 'en-US': 'confirmed a remote protection change' },
  'tamper.rule_add': { 'zh-CN': '添加了防篡改规则', 'en-US': 'added tamper rules' },
  'tamper.rule_edit': { 'zh-CN': '修改了防篡改规则 {target}', 'en-US': 'edited tamper rule {target}' },
  'tamper.rule_enable': { 'zh-CN': '启用或停用了防篡改规则', 'en-US': 'switched tamper rules' },
  'tamper.rule_delete': { 'zh-CN': '删除了防篡改规则', 'en-US': 'deleted tamper rules' },
  'tamper.name_add': { 'zh-CN': '添加了命名规则', 'en-US': 'added a naming rule' },
  'tamper.name_edit': { 'zh-CN': '修改了命名规则 {target}', 'en-US': 'edited naming rule {target}' },
  'tamper.name_enable': { 'zh-CN': '启用或停用了命名规则', 'en-US': 'switched naming rules' },
  'tamper.name_delete': { 'zh-CN': '删除了命名规则', 'en-US': 'deleted naming rules' },
  'process.rule_add': { 'zh-CN': '添加了进程防护规则', 'en-US': 'added a process protection rule' },
  'process.rule_edit': { 'zh-CN': '修改了进程防护规则 {target}', 'en-US': 'edited process protection rule {target}' },
  'process.rule_enable': { 'zh-CN': '启用或停用了进程防护规则', 'en-US': 'switched process protection rules' },
  'process.rule_delete': { 'zh-CN': '删除了进程防护规则', 'en-US': 'deleted process protection rules' },
  'account.settings': { 'zh-CN': '修改了用户防护设置', 'en-US': 'changed the user protection settings' },
  'account.unlock': { 'zh-CN': '临时解锁了系统账户文件', 'en-US': 'unlocked the account files for a while' },
  'account.relock': { 'zh-CN': '重新锁定了系统账户文件', 'en-US': 'locked the account files again' },
  'account.root_login': { 'zh-CN': '修改了 root 直接 SSH 登录设置', 'en-US': 'changed direct root SSH login' },
  'audit.start': { 'zh-CN': '开始了安全体检', 'en-US': 'started a security audit' },
  'audit.reinforce_apply': { 'zh-CN': '执行了系统加固', 'en-US': 'applied reinforcement items' },
  'audit.reinforce_revert': { 'zh-CN': '撤销了系统加固', 'en-US': 'reverted reinforcement items' },
  'audit.patch_check': { 'zh-CN': '检查了系统补丁', 'en-US': 'checked for patches' },
  'audit.patch_download': { 'zh-CN': '下载了系统补丁', 'en-US': 'downloaded patches' },
  'audit.patch_install': { 'zh-CN': '安装了系统补丁', 'en-US': 'installed patches' },
  'audit.patch_settings': { 'zh-CN': '修改了补丁自动更新设置', 'en-US': 'changed the patch auto update settings' },
  'website.site_add': { 'zh-CN': '添加了防护站点 {target}', 'en-US': 'added protected site {target}' },
  'website.site_edit': { 'zh-CN': '修改了防护站点 {target}', 'en-US': 'edited protected site {target}' },
  'website.site_delete': { 'zh-CN': '删除了防护站点', 'en-US': 'deleted protected sites' },
  'website.site_status': { 'zh-CN': '开启或关闭了站点防护', 'en-US': 'switched site protection' },
  'website.site_running': { 'zh-CN': '启动或停止了站点', 'en-US': 'started or stopped sites' },
  'website.base': { 'zh-CN': '修改了网站防护的基础设置', 'en-US': 'changed website protection\'s basic settings' },
  'website.request': { 'zh-CN': '修改了网站防护的请求设置', 'en-US': 'changed website protection\'s request settings' },
  'website.request_content': { 'zh-CN': '修改了网站防护的上传文件设置', 'en-US': 'changed website protection\'s upload settings' },
  'website.protect': { 'zh-CN': '修改了网站防护的防护设置', 'en-US': 'changed website protection\'s protection settings' },
  'website.sql': { 'zh-CN': '修改了网站防护的 SQL 注入设置', 'en-US': 'changed website protection\'s SQL injection settings' },
  'trojan.settings': { 'zh-CN': '修改了木马防护的扫描设置', 'en-US': 'changed the trojan scan settings' },
  'trojan.library': { 'zh-CN': '修改了木马防护的自定义库', 'en-US': 'changed the trojan custom library' },
  'trojan.dir_add': { 'zh-CN': '添加了木马防护目录', 'en-US': 'added trojan-protected directories' },
  'trojan.dir_edit': { 'zh-CN': '修改了木马防护目录', 'en-US': 'edited a trojan-protected directory' },
  'trojan.dir_enable': { 'zh-CN': '启用或停用了木马防护目录', 'en-US': 'switched trojan-protected directories' },
  'trojan.dir_delete': { 'zh-CN': '删除了木马防护目录', 'en-US': 'deleted trojan-protected directories' },
  'trojan.scan_start': { 'zh-CN': '开始了木马扫描', 'en-US': 'started a trojan scan' },
  'trojan.scan_cancel': { 'zh-CN': '停止了木马扫描', 'en-US': 'stopped a trojan scan' },
  'trojan.result_handle': { 'zh-CN': '处理了木马扫描结果', 'en-US': 'handled trojan scan results' },
  'trojan.isolate_restore': { 'zh-CN': '还原了隔离文件', 'en-US': 'restored isolated files' },
  'trojan.isolate_delete': { 'zh-CN': '删除了隔离文件', 'en-US': 'deleted isolated files' },
  'cloud.key_add': { 'zh-CN': '信任了情报签名公钥 {target}', 'en-US': 'trusted the feed signing key {target}' },
  'cloud.key_delete': { 'zh-CN': '删除了情报签名公钥', 'en-US': 'removed feed signing keys' },
  'cloud.feed_import': { 'zh-CN': '导入了威胁情报包', 'en-US': 'imported a threat-intel bundle' },
  'cloud.feed_add_url': { 'zh-CN': '按地址添加了威胁情报源 {target}', 'en-US': 'added a threat-intel feed from {target}' },
  'cloud.feed_update': { 'zh-CN': '立即更新了威胁情报源', 'en-US': 'updated a threat-intel feed now' },
  'cloud.feed_edit': { 'zh-CN': '修改了威胁情报源的更新间隔', 'en-US': 'changed a threat-intel feed\'s update interval' },
  'cloud.feed_enable': { 'zh-CN': '启用或停用了威胁情报源', 'en-US': 'switched threat-intel feeds' },
  'cloud.feed_delete': { 'zh-CN': '删除了威胁情报源', 'en-US': 'deleted threat-intel feeds' },
  'cloud.settings': { 'zh-CN': '修改了云防护的自有地址', 'en-US': 'changed cloud protection\'s own addresses' },
  'dynamic.settings': { 'zh-CN': '修改了态势感知设置', 'en-US': 'changed the situational-awareness settings' },
  'audit.trojan_scan': { 'zh-CN': '开始了木马审计扫描', 'en-US': 'started a trojan audit scan' },
  'audit.trojan_cancel': { 'zh-CN': '停止了木马审计扫描', 'en-US': 'stopped a trojan audit scan' },
  'audit.trojan_handle': { 'zh-CN': '处理了木马审计结果', 'en-US': 'handled trojan audit results' },
  'website.attack': { 'zh-CN': '修改了网站防护的攻击防护设置', 'en-US': 'changed website protection\'s attack settings' },
  'website.attack_header': { 'zh-CN': '修改了网站防护检测的请求头', 'en-US': 'changed the headers website protection inspects' },
  'website.response': { 'zh-CN': '修改了网站防护的响应设置', 'en-US': 'changed website protection\'s response settings' },
  'website.lists': { 'zh-CN': '修改了网站防护的黑白名单', 'en-US': 'changed website protection\'s black and white lists' },
  'website.intercept_add': { 'zh-CN': '在网站防护中拦截了 IP', 'en-US': 'blocked addresses in website protection' },
  'website.intercept_delete': { 'zh-CN': '解除了网站防护的 IP 拦截', 'en-US': 'unblocked addresses in website protection' },
  'website.author_add': { 'zh-CN': '添加了网站防护授权 IP', 'en-US': 'authorized addresses in website protection' },
  'website.author_delete': { 'zh-CN': '删除了网站防护授权 IP', 'en-US': 'removed authorized addresses from website protection' },
  'system.basic': { 'zh-CN': '修改了基础设置', 'en-US': 'changed the basic settings' },
  'system.ntp': { 'zh-CN': '修改或执行了时间同步', 'en-US': 'changed or ran the time sync' },
  'system.log_settings': { 'zh-CN': '修改了日志设置', 'en-US': 'changed the log settings' },
  'system.log_backup': { 'zh-CN': '修改了日志备份规则', 'en-US': 'changed the log backup rules' },
  'system.log_backup_run': { 'zh-CN': '立即执行了日志备份', 'en-US': 'ran the log backup' },
  'system.alerts': { 'zh-CN': '修改了消息通知设置', 'en-US': 'changed the alert settings' },
  'system.alert_queue': { 'zh-CN': '清空了通知队列', 'en-US': 'cleared the alert queue' },
  'system.alert_test': { 'zh-CN': '发送了测试通知', 'en-US': 'sent a test alert' },
  'system.portal': { 'zh-CN': '修改了面板访问设置', 'en-US': 'changed the panel access settings' },
  'system.area_save': { 'zh-CN': '保存了常用区域', 'en-US': 'saved a common area' },
  'system.area_delete': { 'zh-CN': '删除了常用区域', 'en-US': 'deleted common areas' },
  'system.trust_add': { 'zh-CN': '添加了超级白名单条目', 'en-US': 'added super whitelist entries' },
  'system.trust_delete': { 'zh-CN': '删除了超级白名单条目', 'en-US': 'deleted super whitelist entries' },
  'system.trust_renew': { 'zh-CN': '续期了超级白名单条目', 'en-US': 'renewed super whitelist entries' },
  'system.trust_auto': { 'zh-CN': '修改了超级白名单自动添加设置', 'en-US': 'changed the super whitelist\'s automatic additions' },
  'home.wizard_state': { 'zh-CN': '完成或跳过了快速配置向导', 'en-US': 'finished or skipped the quick configuration wizard' },
  'home.update_kernel': { 'zh-CN': '执行了驱动更新（内核能力重新检测、防护助手重启）', 'en-US': 'ran the driver update (kernel re-detection, guard helper restart)' },
  'home.update_virlib': { 'zh-CN': '更新了云端库（情报源与规则库）', 'en-US': 'updated the cloud library (feeds and rule sets)' },
  'home.update_release': { 'zh-CN': '下载或配置了 Rampart 版本更新', 'en-US': 'downloaded or configured a Rampart release update' },
  'home.wizard_trust': { 'zh-CN': '在快速配置向导中把自己的地址加入了超级白名单', 'en-US': 'added their own address to the super whitelist in the quick configuration wizard' },
  'system.shortcut_save': { 'zh-CN': '保存了快捷链接', 'en-US': 'saved a shortcut link' },
  'system.shortcut_reissue': { 'zh-CN': '重新生成了快捷链接', 'en-US': 'reissued a shortcut link' },
  'system.shortcut_delete': { 'zh-CN': '删除了快捷链接', 'en-US': 'deleted shortcut links' },
  'system.shortcut_test': { 'zh-CN': '测试了快捷链接', 'en-US': 'tested a shortcut link' },
  'system.shortcut_send': { 'zh-CN': '发送了快捷链接', 'en-US': 'sent a shortcut link' },
  'system.user_add': { 'zh-CN': '添加了面板账号 {target}', 'en-US': 'added panel account {target}' },
  'system.user_edit': { 'zh-CN': '修改了面板账号 {target}', 'en-US': 'edited panel account {target}' },
  'system.user_delete': { 'zh-CN': '删除了面板账号 {target}', 'en-US': 'deleted panel account {target}' },
  'system.user_logout': { 'zh-CN': '强制下线了终端 {target}', 'en-US': 'signed out terminal {target}' },
  'system.reg': { 'zh-CN': '注册了授权', 'en-US': 'registered the licence' },
  'system.reg_refresh': { 'zh-CN': '刷新了授权信息', 'en-US': 'refreshed the licence' },
  'system.config_import': { 'zh-CN': '导入了配置', 'en-US': 'imported a configuration' },
  'system.config_upload': { 'zh-CN': '上传了配置文件', 'en-US': 'uploaded a configuration file' },
  'system.config_restore': { 'zh-CN': '恢复了配置', 'en-US': 'restored the configuration' },
  'system.config_backup': { 'zh-CN': '备份了配置', 'en-US': 'backed up the configuration' },
  'system.config_backup_delete': { 'zh-CN': '删除了配置备份 {target}', 'en-US': 'deleted configuration backup {target}' },
  'system.config_backup_restore': { 'zh-CN': '从备份 {target} 恢复了配置', 'en-US': 'restored the configuration from backup {target}' },
  'system.restart': { 'zh-CN': '重启了面板', 'en-US': 'restarted the panel' },
  'self.password': { 'zh-CN': '修改了自己的密码', 'en-US': 'changed their password' },
  'self.totp_new': { 'zh-CN': '开始设置两步验证', 'en-US': 'started setting up two-step verification' },
  'self.totp_confirm': { 'zh-CN': '开启了两步验证', 'en-US': 'turned on two-step verification' },
  'self.totp_disable': { 'zh-CN': '关闭了两步验证', 'en-US': 'turned off two-step verification' },
  'log.notice_read': { 'zh-CN': '将通知标为已读', 'en-US': 'marked notices as read' },
  'log.notice_delete': { 'zh-CN': '删除了通知', 'en-US': 'deleted notices' },
  'log.photos_clear': { 'zh-CN': '清空了请求快照', 'en-US': 'cleared the request snapshots' },
  'log.download_cancel': { 'zh-CN': '取消了日志下载', 'en-US': 'cancelled a log download' },
} satisfies Record<string, Texts>;
export type PanelActionKey = keyof typeof panelActionNames;
const actionTable: Record<string, Texts | undefined> = panelActionNames;

/** Field names as the log shows them; a nested field is named by its last part (`rule.ports` → ports). */
export const panelFieldNames: Record<string, Texts> = {
  own_ranges: { 'zh-CN': '云防护自有地址', 'en-US': 'cloud protection own addresses' },
  sound: { 'zh-CN': '攻击提示音', 'en-US': 'attack sound' },
  location: { 'zh-CN': '服务器位置', 'en-US': 'server location' },
  state: { 'zh-CN': '状态', 'en-US': 'state' },
  direction: { 'zh-CN': '方向', 'en-US': 'direction' },
  protocol: { 'zh-CN': '协议', 'en-US': 'protocol' },
  ports: { 'zh-CN': '端口', 'en-US': 'ports' },
  port: { 'zh-CN': '端口', 'en-US': 'port' },
  ips: { 'zh-CN': '来源 IP', 'en-US': 'sources' },
  areas: { 'zh-CN': '区域', 'en-US': 'areas' },
  action: { 'zh-CN': '动作', 'en-US': 'action' },
  priority: { 'zh-CN': '优先级', 'en-US': 'priority' },
  enabled: { 'zh-CN': '启用', 'en-US': 'enabled' },
  remark: { 'zh-CN': '备注', 'en-US': 'remark' },
  list: { 'zh-CN': '名单', 'en-US': 'list' },
  addresses: { 'zh-CN': '地址', 'en-US': 'addresses' },
  expires_at: { 'zh-CN': '有效期至', 'en-US': 'valid until' },
  days: { 'zh-CN': '有效期（天）', 'en-US': 'validity (days)' },
  minutes: { 'zh-CN': '时长（分钟）', 'en-US': 'minutes' },
  ids: { 'zh-CN': '编号', 'en-US': 'ids' },
  id: { 'zh-CN': '编号', 'en-US': 'id' },
  mode: { 'zh-CN': '模式', 'en-US': 'mode' },
  keep_days: { 'zh-CN': '保留天数', 'en-US': 'keep days' },
  server_alias: { 'zh-CN': '服务器别名', 'en-US': 'server alias' },
  temp_minutes: { 'zh-CN': '临时关闭时长（分钟）', 'en-US': 'temporary disable (minutes)' },
  username: { 'zh-CN': '账号', 'en-US': 'account' },
  role: { 'zh-CN': '角色', 'en-US': 'role' },
  status: { 'zh-CN': '状态', 'en-US': 'status' },
  password: { 'zh-CN': '密码', 'en-US': 'password' },
  old: { 'zh-CN': '原密码', 'en-US': 'current password' },
  new: { 'zh-CN': '新密码', 'en-US': 'new password' },
  confirm: { 'zh-CN': '确认密码', 'en-US': 'password confirmation' },
  enabled_methods: { 'zh-CN': '通知方式', 'en-US': 'methods' },
  methods: { 'zh-CN': '通知方式', 'en-US': 'methods' },
  interval: { 'zh-CN': '发送间隔', 'en-US': 'interval' },
  recipients: { 'zh-CN': '收件人', 'en-US': 'recipients' },
  disk_limit_mb: { 'zh-CN': '磁盘告警值（MB）', 'en-US': 'disk alert (MB)' },
  name: { 'zh-CN': '名称', 'en-US': 'name' },
  path: { 'zh-CN': '路径', 'en-US': 'path' },
  method: { 'zh-CN': '方式', 'en-US': 'method' },
  host: { 'zh-CN': '主机', 'en-US': 'host' },
  user: { 'zh-CN': '用户', 'en-US': 'user' },
  email: { 'zh-CN': '邮箱', 'en-US': 'email' },
  disable: { 'zh-CN': '禁止', 'en-US': 'disable' },
  running: { 'zh-CN': '运行', 'en-US': 'running' },
  realtime: { 'zh-CN': '实时防护', 'en-US': 'real-time watch' },
  sizeLimitKb: { 'zh-CN': '文件大小阈值（KB）', 'en-US': 'size threshold (KB)' },
  handling: { 'zh-CN': '处理方式', 'en-US': 'handling' },
  isolateRetentionDays: { 'zh-CN': '隔离文件保留天数', 'en-US': 'keep isolated files (days)' },
  schedule: { 'zh-CN': '定时扫描', 'en-US': 'scheduled scan' },
  time: { 'zh-CN': '时间', 'en-US': 'time' },
  dirs: { 'zh-CN': '防护目录', 'en-US': 'protected directories' },
  site: { 'zh-CN': '站点', 'en-US': 'site' },
  overwrite: { 'zh-CN': '覆盖已有文件', 'en-US': 'overwrite existing file' },
  paths: { 'zh-CN': '扫描路径', 'en-US': 'scan paths' },
  names: { 'zh-CN': '软件包', 'en-US': 'packages' },
  auto_update: { 'zh-CN': '自动更新', 'en-US': 'auto update' },
  // Parts of nested settings' paths: a field reads as its parts joined (`port_scan.seconds`: port scan · window (s)).
  access_id: { 'zh-CN': '访问密钥 ID', 'en-US': 'access key ID' },
  access_logs: { 'zh-CN': '访问日志', 'en-US': 'access logs' },
  address: { 'zh-CN': '地址', 'en-US': 'address' },
  agree: { 'zh-CN': '同意协议', 'en-US': 'agreement accepted' },
  alert: { 'zh-CN': '告警', 'en-US': 'alert' },
  aliyun: { 'zh-CN': '阿里云', 'en-US': 'Aliyun' },
  all: { 'zh-CN': '全部', 'en-US': 'all' },
  allow_areas: { 'zh-CN': '允许的地区', 'en-US': 'allowed areas' },
  allow_ips: { 'zh-CN': '允许的 IP', 'en-US': 'allowed IPs' },
  area: { 'zh-CN': '地区', 'en-US': 'area' },
  attempts: { 'zh-CN': '次数', 'en-US': 'attempts' },
  attempts_per_hour: { 'zh-CN': '每小时失败次数', 'en-US': 'failures per hour' },
  authorization: { 'zh-CN': '授权访问', 'en-US': 'authorization' },
  block: { 'zh-CN': '拦截', 'en-US': 'block' },
  block_minutes: { 'zh-CN': '封锁时长（分钟）', 'en-US': 'block minutes' },
  block_mode: { 'zh-CN': '拦截模式', 'en-US': 'block mode' },
  bucket: { 'zh-CN': '存储桶', 'en-US': 'bucket' },
  cc: { 'zh-CN': 'CC 防护', 'en-US': 'CC protection' },
  charset: { 'zh-CN': '字符集', 'en-US': 'charset' },
  checkIds: { 'zh-CN': '检查项', 'en-US': 'check items' },
  confirm_move: { 'zh-CN': '确认迁移', 'en-US': 'move confirmed' },
  confirmations: { 'zh-CN': '确认', 'en-US': 'confirmations' },
  content: { 'zh-CN': '内容', 'en-US': 'content' },
  cookie: { 'zh-CN': 'Cookie', 'en-US': 'cookie' },
  denied_methods: { 'zh-CN': '禁止的请求方法', 'en-US': 'denied methods' },
  deny_dirs: { 'zh-CN': '禁止的目录名', 'en-US': 'denied folder names' },
  deny_files: { 'zh-CN': '禁止的文件名', 'en-US': 'denied file names' },
  deny_malformed: { 'zh-CN': '禁止畸形文件名', 'en-US': 'deny malformed names' },
  deny_start: { 'zh-CN': '禁止启动', 'en-US': 'deny start' },
  deny_tcp: { 'zh-CN': '禁止 TCP', 'en-US': 'deny TCP' },
  deny_udp: { 'zh-CN': '禁止 UDP', 'en-US': 'deny UDP' },
  dir: { 'zh-CN': '目录', 'en-US': 'folder' },
  domain: { 'zh-CN': '域名', 'en-US': 'domain' },
  domains: { 'zh-CN': '域名', 'en-US': 'domains' },
  empty_referer: { 'zh-CN': '空来源', 'en-US': 'empty referer' },
  end: { 'zh-CN': '结束', 'en-US': 'end' },
  endpoint: { 'zh-CN': '接入点', 'en-US': 'endpoint' },
  entries: { 'zh-CN': '条目', 'en-US': 'entries' },
  exempt: { 'zh-CN': '例外进程', 'en-US': 'exempt processes' },
  extensions: { 'zh-CN': '扩展名', 'en-US': 'extensions' },
  fake_check: { 'zh-CN': '识别伪造爬虫', 'en-US': 'fake spider check' },
  fake_mode: { 'zh-CN': '伪造爬虫处理', 'en-US': 'fake spider handling' },
  file_types: { 'zh-CN': '文件类型', 'en-US': 'file types' },
  files: { 'zh-CN': '文件访问', 'en-US': 'file access' },
  filter: { 'zh-CN': '过滤', 'en-US': 'filter' },
  format: { 'zh-CN': '格式', 'en-US': 'format' },
  frame_options: { 'zh-CN': 'X-Frame-Options', 'en-US': 'X-Frame-Options' },
  from: { 'zh-CN': '发件人', 'en-US': 'sender' },
  header: { 'zh-CN': '请求头', 'en-US': 'header' },
  header_bytes: { 'zh-CN': '请求头大小（字节）', 'en-US': 'header size (bytes)' },
  header_name: { 'zh-CN': '请求头名称', 'en-US': 'header name' },
  header_rules: { 'zh-CN': '请求头规则', 'en-US': 'header rules' },
  header_value: { 'zh-CN': '请求头值', 'en-US': 'header value' },
  headers: { 'zh-CN': '请求头', 'en-US': 'headers' },
  hotlink: { 'zh-CN': '防盗链', 'en-US': 'hotlink protection' },
  http: { 'zh-CN': 'HTTP 接口', 'en-US': 'HTTP API' },
  http_only: { 'zh-CN': 'HttpOnly', 'en-US': 'HttpOnly' },
  interval_minutes: { 'zh-CN': '同步间隔（分钟）', 'en-US': 'interval (minutes)' },
  ip: { 'zh-CN': 'IP', 'en-US': 'IP' },
  journal: { 'zh-CN': '读取 journald', 'en-US': 'read journald' },
  keywords: { 'zh-CN': '关键字', 'en-US': 'keywords' },
  lang: { 'zh-CN': '语言', 'en-US': 'language' },
  level: { 'zh-CN': '级别', 'en-US': 'level' },
  limits: { 'zh-CN': '大小限制', 'en-US': 'size limits' },
  listen: { 'zh-CN': '监听', 'en-US': 'listen' },
  local: { 'zh-CN': '本地文件包含', 'en-US': 'local inclusion' },
  lock_files: { 'zh-CN': '锁定账号文件', 'en-US': 'lock account files' },
  locked_groups: { 'zh-CN': '锁定的用户组', 'en-US': 'locked groups' },
  log_files: { 'zh-CN': '日志文件', 'en-US': 'log files' },
  login_check_mode: { 'zh-CN': '登录验证方式', 'en-US': 'sign-in verification' },
  login_error_count: { 'zh-CN': '登录失败次数上限', 'en-US': 'sign-in failure limit' },
  login_notice: { 'zh-CN': '登录通知', 'en-US': 'sign-in notice' },
  max_bytes: { 'zh-CN': '最大字节数', 'en-US': 'max bytes' },
  max_uses: { 'zh-CN': '使用次数上限', 'en-US': 'use limit' },
  members: { 'zh-CN': '成员', 'en-US': 'members' },
  notify: { 'zh-CN': '通知', 'en-US': 'notify' },
  notify_login: { 'zh-CN': '登录通知', 'en-US': 'login notification' },
  operation: { 'zh-CN': '操作', 'en-US': 'operation' },
  ops: { 'zh-CN': '操作', 'en-US': 'operations' },
  origin: { 'zh-CN': '面板地址', 'en-US': 'panel address' },
  per_minute: { 'zh-CN': '每分钟次数', 'en-US': 'per minute' },
  phones: { 'zh-CN': '手机号', 'en-US': 'phone numbers' },
  port_scan: { 'zh-CN': '端口扫描', 'en-US': 'port scan' },
  post_bytes: { 'zh-CN': 'POST 大小（字节）', 'en-US': 'POST size (bytes)' },
  process: { 'zh-CN': '进程', 'en-US': 'process' },
  provider: { 'zh-CN': '服务商', 'en-US': 'provider' },
  record: { 'zh-CN': '记录', 'en-US': 'record' },
  redirect_url: { 'zh-CN': '跳转地址', 'en-US': 'redirect URL' },
  referer_black: { 'zh-CN': '来源黑名单', 'en-US': 'referer blacklist' },
  referer_white: { 'zh-CN': '来源白名单', 'en-US': 'referer whitelist' },
  referers: { 'zh-CN': '允许的来源', 'en-US': 'allowed referers' },
  region: { 'zh-CN': '地域', 'en-US': 'region' },
  remaining: { 'zh-CN': '剩余条数', 'en-US': 'remaining' },
  remote: { 'zh-CN': '远程文件包含', 'en-US': 'remote inclusion' },
  retention_days: { 'zh-CN': '保留天数', 'en-US': 'keep days' },
  safe_entry: { 'zh-CN': '安全入口', 'en-US': 'safe entry' },
  same_site: { 'zh-CN': 'SameSite', 'en-US': 'SameSite' },
  save_path: { 'zh-CN': '保存路径', 'en-US': 'save path' },
  scan_404: { 'zh-CN': '404 扫描', 'en-US': '404 scan' },
  scope: { 'zh-CN': '范围', 'en-US': 'scope' },
  sdk_app_id: { 'zh-CN': 'SDK App ID', 'en-US': 'SDK app ID' },
  seconds: { 'zh-CN': '时间窗口（秒）', 'en-US': 'window (s)' },
  security: { 'zh-CN': '加密方式', 'en-US': 'encryption' },
  server_names: { 'zh-CN': '域名', 'en-US': 'server names' },
  servers: { 'zh-CN': '服务器', 'en-US': 'servers' },
  session_timeout: { 'zh-CN': '会话超时（分钟）', 'en-US': 'session timeout (minutes)' },
  sign_name: { 'zh-CN': '短信签名', 'en-US': 'signature' },
  sms: { 'zh-CN': '短信', 'en-US': 'SMS' },
  snapshot: { 'zh-CN': '请求快照', 'en-US': 'request snapshots' },
  snapshot_bytes: { 'zh-CN': '快照大小（字节）', 'en-US': 'snapshot size (bytes)' },
  spider: { 'zh-CN': '爬虫', 'en-US': 'spiders' },
  spiders: { 'zh-CN': '爬虫', 'en-US': 'spiders' },
  ssh_bruteforce: { 'zh-CN': 'SSH 暴力破解', 'en-US': 'SSH brute force' },
  start: { 'zh-CN': '开始', 'en-US': 'start' },
  sub_path: { 'zh-CN': '子路径', 'en-US': 'sub path' },
  sync: { 'zh-CN': '立即同步', 'en-US': 'sync now' },
  syslog: { 'zh-CN': 'Syslog 转发', 'en-US': 'syslog forwarding' },
  template: { 'zh-CN': '模板', 'en-US': 'template' },
  template_id: { 'zh-CN': '模板 ID', 'en-US': 'template ID' },
  template_param: { 'zh-CN': '模板参数', 'en-US': 'template parameter' },
  tencent: { 'zh-CN': '腾讯云', 'en-US': 'Tencent Cloud' },
  time_limits: { 'zh-CN': '限时访问', 'en-US': 'time-limited URLs' },
  tls: { 'zh-CN': 'HTTPS', 'en-US': 'HTTPS' },
  tls_cert: { 'zh-CN': '证书', 'en-US': 'certificate' },
  transport: { 'zh-CN': '传输协议', 'en-US': 'transport' },
  trusted_proxies: { 'zh-CN': '可信代理', 'en-US': 'trusted proxies' },
  type: { 'zh-CN': '类型', 'en-US': 'type' },
  types: { 'zh-CN': '类型', 'en-US': 'types' },
  ua_black: { 'zh-CN': 'UA 黑名单', 'en-US': 'user-agent blacklist' },
  ua_white: { 'zh-CN': 'UA 白名单', 'en-US': 'user-agent whitelist' },
  upload: { 'zh-CN': '上传', 'en-US': 'uploads' },
  upstreams: { 'zh-CN': '源站', 'en-US': 'origins' },
  url: { 'zh-CN': 'URL', 'en-US': 'URL' },
  url_black: { 'zh-CN': 'URL 黑名单', 'en-US': 'URL blacklist' },
  url_bytes: { 'zh-CN': 'URL 长度（字节）', 'en-US': 'URL size (bytes)' },
  url_white: { 'zh-CN': 'URL 白名单', 'en-US': 'URL whitelist' },
  validity_minutes: { 'zh-CN': '有效期（分钟）', 'en-US': 'validity (minutes)' },
  verification: { 'zh-CN': '验证方式', 'en-US': 'verification' },
  whitelist: { 'zh-CN': '白名单', 'en-US': 'whitelist' },
  windows: { 'zh-CN': '时间段', 'en-US': 'time windows' },
};

/** Names of values that are codes (direction, action, list, ...), by field; other values show as they are. */
const valueNames: Record<string, Record<string, Texts>> = {
  direction: { in: { 'zh-CN': '入站', 'en-US': 'inbound' }, out: { 'zh-CN': '出站', 'en-US': 'outbound' } },
  action: {
    allow: { 'zh-CN': '允许', 'en-US': 'allow' }, deny: { 'zh-CN': '拒绝', 'en-US': 'deny' },
    // Handling a trojan scan result.
    trust: { 'zh-CN': '信任', 'en-US': 'trust' }, isolate: { 'zh-CN': '隔离', 'en-US': 'isolate' },
    delete: { 'zh-CN': '删除', 'en-US': 'delete' }, record: { 'zh-CN': '仅记录', 'en-US': 'record only' },
  },
  handling: { isolate: { 'zh-CN': '隔离', 'en-US': 'isolate' }, delete: { 'zh-CN': '删除', 'en-US': 'delete' }, record: { 'zh-CN': '仅记录', 'en-US': 'record only' } },
  protocol: { tcp: { 'zh-CN': 'TCP', 'en-US': 'TCP' }, udp: { 'zh-CN': 'UDP', 'en-US': 'UDP' }, tcp_udp: { 'zh-CN': 'TCP+UDP', 'en-US': 'TCP+UDP' }, icmp: { 'zh-CN': 'ICMP', 'en-US': 'ICMP' }, all: { 'zh-CN': '全部', 'en-US': 'all' } },
  list: { white: { 'zh-CN': '白名单', 'en-US': 'whitelist' }, black: { 'zh-CN': '黑名单', 'en-US': 'blacklist' } },
  mode: { simple: { 'zh-CN': '精简', 'en-US': 'simple' }, full: { 'zh-CN': '完整', 'en-US': 'full' } },
  role: {
    admin: { 'zh-CN': '管理员', 'en-US': 'Administrator' },
    technician: { 'zh-CN': '技术员', 'en-US': 'Technician' },
    auditor: { 'zh-CN': '审计员', 'en-US': 'Auditor' },
    other: { 'zh-CN': '其他', 'en-US': 'Other' },
  },
  // An account's status (1/0) and a site's protection (on/off).
  status: {
    '1': { 'zh-CN': '启用', 'en-US': 'enabled' },
    '0': { 'zh-CN': '停用', 'en-US': 'disabled' },
    on: { 'zh-CN': '开启', 'en-US': 'on' },
    off: { 'zh-CN': '关闭', 'en-US': 'off' },
  },
};

const words = {
  yes: { 'zh-CN': '是', 'en-US': 'yes' },
  no: { 'zh-CN': '否', 'en-US': 'no' },
  none: { 'zh-CN': '（空）', 'en-US': '(none)' },
  permanent: { 'zh-CN': '永久', 'en-US': 'permanent' },
  all: { 'zh-CN': '全部', 'en-US': 'all' },
  hidden: { 'zh-CN': '已修改（不显示）', 'en-US': 'changed (not shown)' },
  more: { 'zh-CN': '等另外 {n} 项', 'en-US': 'and {n} more' },
  changedModule: { 'zh-CN': '修改了{module}设置', 'en-US': 'changed {module} settings' },
  colon: { 'zh-CN': '：', 'en-US': ': ' },
  sep: { 'zh-CN': '；', 'en-US': '; ' },
} satisfies Record<string, Texts>;

export const panelActionResults: Record<string, Texts> = {
  ok: { 'zh-CN': '成功', 'en-US': 'done' },
  failed: { 'zh-CN': '失败', 'en-US': 'failed' },
  refused: { 'zh-CN': '被拒绝', 'en-US': 'refused' },
};

/** A value as stored: lists are joined before they are stored. */
export type PanelValue = string | number | boolean | null;
/** One stored change: [field, value] (what was given), [field, old, new] (a setting), [field] (a secret changed, never its value), ['+', n] (n more). */
export type PanelChange = [string] | [string, PanelValue] | [string, PanelValue, PanelValue];

/**
 * Field names whose values are never stored: passwords, tokens, TOTP secrets and codes, keys
 * (SMTP and SMS passwords, access secrets, private keys, webhook keys). The console also redacts
 * the fields a body schema marks secret.
 */
const secretName = /pass(word|wd|phrase)?|secret|token|totp|(^|_)key(_|$)|private|webhook|(^|_)code$|cookie|credential|sealed/i;
export function isSecretField(name: string): boolean {
  return secretName.test(name);
}

const secretSchemas = new WeakSet<object>();
/**
 * Marks a schema as holding a secret (a password, a key): the console never stores the value of a
 * body field that has it, whatever the field is called. Returns the schema itself.
 */
export function secretField<T extends object>(schema: T): T {
  secretSchemas.add(schema);
  return schema;
}
export function isSecretSchema(schema: object): boolean {
  return secretSchemas.has(schema);
}

const maxValueChars = 120;
const maxChangesChars = 1000;

/** The stored form of a change list (an event parameter holds at most 1000 characters): values cut, the rest counted as "n more". */
export function encodePanelChanges(changes: readonly PanelChange[]): string {
  const cut = (v: PanelValue): PanelValue => (typeof v === 'string' && v.length > maxValueChars ? `${v.slice(0, maxValueChars - 1)}…` : v);
  const kept: PanelChange[] = [];
  for (let i = 0; i < changes.length; i++) {
    const [field, ...values] = changes[i]!;
    const next = [field.slice(0, 64), ...values.map(cut)] as PanelChange;
    const rest = changes.length - i - 1;
    const tail = rest > 0 ? JSON.stringify(['+', rest]).length + 1 : 0;
    if (JSON.stringify([...kept, next]).length + tail > maxChangesChars) {
      kept.push(['+', changes.length - i]);
      return JSON.stringify(kept);
    }
    kept.push(next);
  }
  return JSON.stringify(kept);
}

function decodeChanges(text: string): PanelChange[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((c): c is PanelChange => Array.isArray(c) && typeof c[0] === 'string') : [];
  } catch {
    return [];
  }
}

/** Objects that only hold the fields (`rule.level` reads "level", `kinds.xss` "XSS"). */
const wrapperFields = new Set(['rule', 'rules', 'settings', 'kinds']);

/** The words of a changed field (a dotted path of the body), or undefined when the catalogue has none. */
export function panelFieldLabel(field: string, lang: Language): string | undefined {
  const whole = panelFieldNames[field]?.[lang];
  if (whole) return whole;
  const parts = field.split('.').filter((part) => !/^\d+$/.test(part) && !wrapperFields.has(part));
  const names = parts.map((part) => panelFieldNames[part]?.[lang] ?? websiteAttackNames[part]?.[lang]);
  if (names.length > 0 && names.every((name) => name !== undefined)) return names.join(' · ');
  const last = parts.at(-1);
  return last === undefined ? undefined : panelFieldNames[last]?.[lang];
}

function fieldName(field: string, lang: Language): string {
  return panelFieldLabel(field, lang) ?? field.split('.').pop() ?? field;
}

function valueText(field: string, value: PanelValue | undefined, lang: Language): string {
  const last = field.split('.').pop() ?? field;
  if (value === null || value === undefined || value === '') return last === 'expires_at' ? words.permanent[lang] : words.none[lang];
  if (typeof value === 'boolean') return (value ? words.yes : words.no)[lang];
  if (last === 'expires_at' && typeof value === 'number') return localDateTime(value);
  if (value === 'all' && (last === 'ids' || last === 'target')) return words.all[lang];
  return valueNames[last]?.[String(value)]?.[lang] ?? String(value);
}

/** The changes of an action in one language: "direction: inbound; log mode: simple → full; password: changed (not shown)". */
export function renderPanelChanges(text: string, lang: Language): string {
  const parts = decodeChanges(text).map((change) => {
    const [field] = change;
    if (field === '+') return words.more[lang].replace('{n}', String(change[1] ?? 0));
    const name = fieldName(field, lang);
    if (change.length === 1) return `${name}${words.colon[lang]}${words.hidden[lang]}`;
    if (change.length === 2) return `${name}${words.colon[lang]}${valueText(field, change[1], lang)}`;
    return `${name}${words.colon[lang]}${valueText(field, change[1], lang)} → ${valueText(field, change[2], lang)}`;
  });
  return parts.join(words.sep[lang]);
}

/** The changes as they follow the action's words: ": direction: inbound; …", or nothing when there are none. */
export function panelChangesSuffix(text: string, lang: Language): string {
  const changes = renderPanelChanges(text, lang);
  return changes ? `${words.colon[lang]}${changes}` : '';
}

/**
 * What an account did, in one language. An action this build does not know (a newer build's, or
 * a record from before actions had keys, `POST /magapi/...`) reads as "changed <module> settings".
 */
export function renderPanelAction(action: string, target: string, moduleName: string, lang: Language): string {
  const texts = actionTable[action];
  if (!texts) return words.changedModule[lang].replace('{module}', moduleName);
  // An object named only by what the call read first (a rule's path) may be missing: no dangling space.
  return texts[lang].replace('{target}', target).trim();
}

/**
 * What the params of the actions whose words (in `lang`) contain `text` hold: the keyword filter
 * matches these too, as the words themselves are not stored.
 */
export function panelActionsMatching(text: string, lang: Language): string[] {
  const needle = text.toLowerCase();
  return Object.entries(panelActionNames)
    .filter(([, texts]) => texts[lang].replace('{target}', ' ').toLowerCase().includes(needle))
    .map(([key]) => JSON.stringify({ action: key }).slice(1, -1));
}

/** The module of a record from before actions had keys: the first part of its URL, when it is a module. */
export function legacyActionModule(action: string): string | undefined {
  return /^[A-Z]+ \/magapi\/([a-z]+)/.exec(action)?.[1];
}
