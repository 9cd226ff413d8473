import { z } from 'zod';
import type { Language } from './i18n.ts';
import { eventParamsSchema, type EventParams } from './events.ts';
import { fillTemplate } from './event-catalogue.ts';

type Texts = Record<Language, string>;

/**
 * Notices the product raises for a human to read. Like events, a notice stores its kind and
 * params; title and content come from this catalogue in the reader's language.
 */
export const noticeKinds = {
  licence_expiring: {
    title: { 'zh-CN': '授权即将到期', 'en-US': 'Licence about to expire' },
    content: { 'zh-CN': '软件授权将在 {days} 天后（{date}）到期，请及时续期。', 'en-US': 'The licence expires in {days} days ({date}). Please renew it.' },
  },
  disk_alert: {
    title: { 'zh-CN': '日志磁盘占用告警', 'en-US': 'Log disk use alert' },
    content: { 'zh-CN': '日志占用磁盘 {size_mb} MB，超过告警值 {limit_mb} MB。', 'en-US': 'Logs use {size_mb} MB of disk, above the alert limit of {limit_mb} MB.' },
  },
  module_off: {
    title: { 'zh-CN': '防护模块已关闭', 'en-US': 'Protection module turned off' },
    content: { 'zh-CN': '{account} 关闭了{module|module}，该模块的防护已停止。', 'en-US': '{account} turned {module|module} off; its protection has stopped.' },
  },
  protection_temp_off: {
    title: { 'zh-CN': '系统防护已临时关闭', 'en-US': 'Protection temporarily off' },
    content: { 'zh-CN': '{account} 临时关闭了系统防护，将于 {until} 自动恢复。', 'en-US': '{account} turned protection off temporarily; it resumes by itself at {until}.' },
  },
  backup_failed: {
    title: { 'zh-CN': '日志备份失败', 'en-US': 'Log backup failed' },
    content: { 'zh-CN': '日志归档 {file} 备份到 {target} 失败：{reason}。系统会自动重试。', 'en-US': 'Backing up {file} to {target} failed: {reason}. It is retried automatically.' },
  },
  firewall_block: {
    title: { 'zh-CN': '防火墙拦截了攻击', 'en-US': 'The firewall blocked an attack' },
    content: { 'zh-CN': '{ip} 触发{reason|reason}防护，已拦截 {minutes} 分钟。', 'en-US': '{ip}: {reason|reason}; blocked for {minutes} minutes.' },
  },
  /** The portal tab's login notice: one per successful panel sign-in. */
  panel_login: {
    title: { 'zh-CN': '面板登录提醒', 'en-US': 'Panel sign-in' },
    content: { 'zh-CN': '账号 {account} 从 {ip} 登录了面板。', 'en-US': 'The account {account} signed in to the panel from {ip}.' },
  },
  /** Remote protection's login notification: one per accepted SSH login. */
  remote_login: {
    title: { 'zh-CN': '远程登录提醒', 'en-US': 'Remote login' },
    content: { 'zh-CN': '用户 {user} 从 {ip}（{area}）通过 {method} 登录了 SSH。', 'en-US': 'User {user} logged in over SSH from {ip} ({area}) by {method}.' },
  },
  /**
   * A guard denial (tamper, naming or user protection) of a rule whose notification is on. One per
   * rule, operation and process while unread (dedupe), so a looping process raises one notice.
   */
  guard_denied: {
    title: { 'zh-CN': '文件防护拦截了操作', 'en-US': 'The file guard denied an operation' },
    content: {
      'zh-CN': '{module|module}：进程 {process}（PID {pid}）对 {path} 的{op|tamperop}操作已被拦截（规则 {rule}）。',
      'en-US': '{module|module}: {op|tamperop} of {path} by {process} (PID {pid}) was denied (rule {rule}).',
    },
  },
  /**
   * Process protection denied a restricted program's connection or datagram (rule notification on).
   * One per rule, protocol and process while unread, whatever the peers.
   */
  process_net_denied: {
    title: { 'zh-CN': '进程防护拦截了网络访问', 'en-US': 'Process protection denied network access' },
    content: {
      'zh-CN': '进程 {process}（PID {pid}）访问 {peer} 端口 {port}（{proto}）已被拦截（规则 {rule}）。',
      'en-US': '{proto} to {peer} port {port} by {process} (PID {pid}) was denied (rule {rule}).',
    },
  },
  attack: {
    title: { 'zh-CN': '检测到攻击', 'en-US': 'Attack detected' },
    content: { 'zh-CN': '{module|module}：{summary}', 'en-US': '{module|module}: {summary}' },
  },
  /**
   * A request the website gateway blocked that its alert settings (area) chose to send. `{rule}` is
   * the attack kind for an attack, the rule for a settings group; `{methods}` (comma-separated)
   * narrows the alert service's methods to the website's own choice (alert-dispatcher.ts).
   */
  website_attack: {
    title: { 'zh-CN': '网站防护拦截了攻击', 'en-US': 'Website protection blocked an attack' },
    content: { 'zh-CN': '{ip} 对站点「{site}」的请求（{method} {url}）因{rule|webrule}被拦截。', 'en-US': '{ip}: a request to site "{site}" ({method} {url}) was blocked: {rule|webrule}.' },
  },
} satisfies Record<string, { title: Texts; content: Texts }>;

export const noticeKindSchema = z.enum(Object.keys(noticeKinds) as [keyof typeof noticeKinds, ...(keyof typeof noticeKinds)[]]);
export type NoticeKind = z.infer<typeof noticeKindSchema>;

export const noticeInputSchema = z
  .object({
    kind: noticeKindSchema,
    params: eventParamsSchema.default({}),
    /** A notice with the same key that is still unread is not raised twice (e.g. one disk alert a day). */
    dedupe_key: z.string().max(128).optional(),
  })
  .strict();
export type NoticeInput = z.input<typeof noticeInputSchema>;

export const noticeRecordSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  add_time: z.number().int(),
  readed: z.union([z.literal(0), z.literal(1)]),
});
export type NoticeRecord = z.infer<typeof noticeRecordSchema>;

export function renderNotice(kind: string, params: EventParams, lang: Language): { title: string; content: string } {
  const def = (noticeKinds as Record<string, { title: Texts; content: Texts } | undefined>)[kind];
  if (!def) return { title: kind, content: JSON.stringify(params) };
  return { title: fillTemplate(def.title[lang], params, lang), content: fillTemplate(def.content[lang], params, lang) };
}

/** Which notices a call acts on: the listed ids, or all of them. */
export const noticeTargetSchema = z.union([z.literal('all'), z.array(z.number().int().positive()).min(1).max(1000)]);
export type NoticeTarget = z.infer<typeof noticeTargetSchema>;
