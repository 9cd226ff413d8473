import type { Language } from './i18n.ts';
import { localDateTime } from './local-time.ts';

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
  'tamper.rule_edit': { 'zh-CN': '修改了防篡改规则', 'en-US': 'edited a tamper rule' },
  'tamper.rule_enable': { 'zh-CN': '启用或停用了防篡改规则', 'en-US': 'switched tamper rules' },
  'tamper.rule_delete': { 'zh-CN': '删除了防篡改规则', 'en-US': 'deleted tamper rules' },
  'tamper.name_add': { 'zh-CN': '添加了命名规则', 'en-US': 'added a naming rule' },
  'tamper.name_edit': { 'zh-CN': '修改了命名规则', 'en-US': 'edited a naming rule' },
  'tamper.name_enable': { 'zh-CN': '启用或停用了命名规则', 'en-US': 'switched naming rules' },
  'tamper.name_delete': { 'zh-CN': '删除了命名规则', 'en-US': 'deleted naming rules' },
  'process.rule_add': { 'zh-CN': '添加了进程防护规则', 'en-US': 'added a process protection rule' },
  'process.rule_edit': { 'zh-CN': '修改了进程防护规则', 'en-US': 'edited a process protection rule' },
  'process.rule_enable': { 'zh-CN': '启用或停用了进程防护规则', 'en-US': 'switched process protection rules' },
  'process.rule_delete': { 'zh-CN': '删除了进程防护规则', 'en-US': 'deleted process protection rules' },
  'account.settings': { 'zh-CN': '修改了用户防护设置', 'en-US': 'changed the user protection settings' },
  'account.unlock': { 'zh-CN': '临时解锁了系统账户文件', 'en-US': 'unlocked the account files for a while' },
  'account.relock': { 'zh-CN': '重新锁定了系统账户文件', 'en-US': 'locked the account files again' },
  'account.root_login': { 'zh-CN': '修改了 root 直接 SSH 登录设置', 'en-US': 'changed direct root SSH login' },
  'audit.start': { 'zh-CN': '开始了安全体检', 'en-US': 'started a security audit' },
  'audit.reinforce_apply': { 'zh-CN': '执行了系统加固', 'en-US': 'applied reinforcement items' },
  'audit.reinforce_revert': { 'zh-CN': '撤销了系统加固', 'en-US': 'reverted reinforcement items' },
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
};

/** Names of values that are codes (direction, action, list, ...), by field; other values show as they are. */
const valueNames: Record<string, Record<string, Texts>> = {
  direction: { in: { 'zh-CN': '入站', 'en-US': 'inbound' }, out: { 'zh-CN': '出站', 'en-US': 'outbound' } },
  action: { allow: { 'zh-CN': '允许', 'en-US': 'allow' }, deny: { 'zh-CN': '拒绝', 'en-US': 'deny' } },
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

function fieldName(field: string, lang: Language): string {
  const last = field.split('.').filter((part) => !/^\d+$/.test(part)).pop() ?? field;
  return panelFieldNames[field]?.[lang] ?? panelFieldNames[last]?.[lang] ?? last;
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
  return texts[lang].replace('{target}', target);
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
