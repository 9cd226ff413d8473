import { protectView, type PanelActionKey } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { ConsoleContext } from '../context.ts';
import { findLiveSessionByPublicId } from '../db/sessions.ts';
import { getSetting } from '../db/settings.ts';
import { findUserById } from '../db/users.ts';
import { alertSettingsView } from '../services/alert-settings.ts';
import { readWebsiteSettings } from '../website/settings-store.ts';

/** What a call was about and how things stood before it, read before the handler runs. */
export interface AuditBefore {
  /** The object named in the action's words (an account, a site). */
  target?: string;
  /** The state the body changes, in the body's shape: fields that differ are recorded old → new, equal ones left out. */
  state?: unknown;
}

/**
 * How the event log tells one administrative call (audit-trail.ts records it):
 * - action: the catalogue key of its words (packages/contracts/src/panel-actions.ts);
 * - target: a body or query field that names the object (kept out of the fields);
 * - omit: body or query fields (a top-level name or a dotted path) that are not a change (a confirmation, an uploaded file);
 * - before: reads the target and the state before the call (settings routes), so a setting reads old → new;
 * - ownEventWhenDone: the route records a more telling event when it succeeds; only a failed or refused call is recorded here.
 * null: the call is not an action (a read sent as POST, a language switch) and is not recorded.
 */
export interface AuditSpec {
  action: PanelActionKey;
  target?: string;
  omit?: readonly string[];
  before?: (ctx: ConsoleContext, request: FastifyRequest) => AuditBefore | Promise<AuditBefore>;
  ownEventWhenDone?: boolean;
}

const query = (request: FastifyRequest) => request.query as Record<string, unknown>;
const agentState = (call: 'firewall.attack.get' | 'logs.settings.get' | 'ntp.get') => async (ctx: ConsoleContext): Promise<AuditBefore> =>
  ({ state: call === 'ntp.get' ? { settings: (await ctx.agent.call(call, {})).settings } : await ctx.agent.call(call, {}) });
const remoteState = (part: 'access' | 'bruteforce') => async (ctx: ConsoleContext): Promise<AuditBefore> => ({ state: (await ctx.agent.call('remote.get', {}))[part] });
const websiteState = (tab: 'base' | 'request' | 'sql' | 'attack' | 'response' | 'lists') => (ctx: ConsoleContext): AuditBefore => ({ state: readWebsiteSettings(ctx.db)[tab] });
const userBefore = (ctx: ConsoleContext, request: FastifyRequest): AuditBefore => {
  const user = findUserById(ctx.db, Number(query(request)['uid']));
  return user ? { target: user.username, state: { username: user.username, role: user.role, status: user.status, remark: user.remark } } : {};
};

/** Every state-changing call of the console, by method and URL (without the /magapi prefix). A test checks none is missing. */
export const auditSpecs: Record<string, AuditSpec | null> = {
  'POST /firewall/rules/add': { action: 'firewall.rule_add' },
  'POST /firewall/rules/edit': { action: 'firewall.rule_edit', target: 'id' },
  'POST /firewall/rules/enable': { action: 'firewall.rule_enable' },
  'POST /firewall/rules/disable': { action: 'firewall.rule_disable' },
  'POST /firewall/rules/delete': { action: 'firewall.rule_delete' },
  'POST /firewall/attack': { action: 'firewall.attack', before: agentState('firewall.attack.get') },
  'POST /firewall/lists/add': { action: 'firewall.list_add' },
  'POST /firewall/lists/delete': { action: 'firewall.list_delete' },
  'POST /firewall/lists/import': { action: 'firewall.list_import', omit: ['content'] },
  'POST /firewall/intercept/add': { action: 'firewall.intercept_add' },
  'POST /firewall/intercept/delete': { action: 'firewall.intercept_delete' },
  'POST /firewall/confirm': { action: 'firewall.confirm', omit: ['token'] },
  'POST /remote/access': { action: 'remote.access', before: remoteState('access') },
  'POST /remote/bruteforce': { action: 'remote.bruteforce', before: remoteState('bruteforce') },
  'POST /remote/confirm': { action: 'remote.confirm', omit: ['token'] },
  'POST /tamper/rules/add': { action: 'tamper.rule_add' },
  'POST /tamper/rules/edit': { action: 'tamper.rule_edit' },
  'POST /tamper/rules/enable': { action: 'tamper.rule_enable' },
  'POST /tamper/rules/delete': { action: 'tamper.rule_delete' },
  'POST /tamper/names/add': { action: 'tamper.name_add' },
  'POST /tamper/names/edit': { action: 'tamper.name_edit' },
  'POST /tamper/names/enable': { action: 'tamper.name_enable' },
  'POST /tamper/names/delete': { action: 'tamper.name_delete' },
  'POST /process/rules/add': { action: 'process.rule_add' },
  'POST /process/rules/edit': { action: 'process.rule_edit' },
  'POST /process/rules/enable': { action: 'process.rule_enable' },
  'POST /process/rules/delete': { action: 'process.rule_delete' },
  'POST /account/settings': { action: 'account.settings' },
  'POST /account/unlock': { action: 'account.unlock', ownEventWhenDone: true },
  'POST /account/relock': { action: 'account.relock' },
  'POST /account/root_login': { action: 'account.root_login' },
  'POST /audit/start': { action: 'audit.start' },
  'POST /audit/reinforce/apply': { action: 'audit.reinforce_apply' },
  'POST /audit/reinforce/revert': { action: 'audit.reinforce_revert' },
  'POST /website/server': { action: 'website.site_add', target: 'name' },
  'POST /website/server/edit': { action: 'website.site_edit', target: 'name' },
  'POST /website/server_delete': { action: 'website.site_delete' },
  'POST /website/server_status': { action: 'website.site_status' },
  'POST /website/server_running': { action: 'website.site_running' },
  'POST /website/base': { action: 'website.base', before: websiteState('base') },
  'POST /website/request': { action: 'website.request', before: websiteState('request') },
  'POST /website/request/content': { action: 'website.request_content', before: websiteState('request') },
  'POST /website/protect': { action: 'website.protect', before: (ctx) => ({ state: protectView(readWebsiteSettings(ctx.db).protect) }) },
  'POST /website/sql': { action: 'website.sql', before: websiteState('sql') },
  'POST /website/attack': { action: 'website.attack', before: websiteState('attack') },
  'POST /website/attack_header': { action: 'website.attack_header', before: websiteState('attack') },
  'POST /website/response': { action: 'website.response', before: websiteState('response') },
  'POST /website/lists': { action: 'website.lists', before: websiteState('lists') },
  'POST /website/sql_getkeywords': null,
  'POST /website/intercept_list': { action: 'website.intercept_add' },
  'POST /website/intercept_list_delete': { action: 'website.intercept_delete' },
  'POST /website/author_list': { action: 'website.author_add' },
  'POST /website/author_list_delete': { action: 'website.author_delete' },
  'POST /system/basic': {
    action: 'system.basic',
    before: (ctx) => ({ state: { server_alias: getSetting(ctx.db, 'server_alias'), temp_minutes: getSetting(ctx.db, 'temp_minutes') } }),
  },
  'POST /system/basic/ntp': { action: 'system.ntp', before: agentState('ntp.get') },
  'POST /system/basic/language': null,
  'POST /system/log': { action: 'system.log_settings', before: agentState('logs.settings.get') },
  'POST /system/log_backup': { action: 'system.log_backup' },
  'POST /system/log_backup/run': { action: 'system.log_backup_run' },
  'POST /system/alerts': { action: 'system.alerts', before: (ctx) => ({ state: alertSettingsView(ctx.db) }) },
  'POST /system/alerts/queue': { action: 'system.alert_queue' },
  'POST /system/alerts/test': { action: 'system.alert_test' },
  'POST /system/portal': { action: 'system.portal', omit: ['https.cert', 'confirm'] },
  'POST /system/areas': { action: 'system.area_save' },
  'POST /system/areas_delete': { action: 'system.area_delete' },
  'POST /system/trust/ip': { action: 'system.trust_add' },
  'POST /system/trust/ip_delete': { action: 'system.trust_delete' },
  'POST /system/trust/ip/renewal': { action: 'system.trust_renew' },
  'POST /system/trust/auto': { action: 'system.trust_auto', before: (ctx) => ({ state: getSetting(ctx.db, 'trust_auto_add') }) },
  'POST /system/shortcut': { action: 'system.shortcut_save' },
  'POST /system/shortcut/reissue': { action: 'system.shortcut_reissue' },
  'POST /system/shortcut/delete': { action: 'system.shortcut_delete' },
  'POST /system/shortcut/test': { action: 'system.shortcut_test' },
  'POST /system/shortcut/send': { action: 'system.shortcut_send' },
  'POST /system/user': { action: 'system.user_add', target: 'username' },
  'POST /system/user_edit': { action: 'system.user_edit', omit: ['uid'], before: userBefore },
  'POST /system/user_delete': { action: 'system.user_delete', omit: ['uid'], before: userBefore },
  'POST /system/user/online/logout': {
    action: 'system.user_logout',
    omit: ['id'],
    before: (ctx, request) => {
      const session = findLiveSessionByPublicId(ctx.db, String(query(request)['id']), ctx.now());
      return session ? { target: `${session.username} @ ${session.ip}` } : {};
    },
  },
  'POST /system/reg': { action: 'system.reg' },
  'POST /system/reg/refresh': { action: 'system.reg_refresh' },
  'POST /system/config/import': { action: 'system.config_import' },
  'POST /system/config/upload': { action: 'system.config_upload' },
  'POST /system/config/restore': { action: 'system.config_restore' },
  'POST /system/config/backup': { action: 'system.config_backup' },
  'POST /system/config/backup/delete': { action: 'system.config_backup_delete', target: 'file' },
  'POST /system/config/backup/restore': { action: 'system.config_backup_restore', target: 'fid' },
  'POST /restart': { action: 'system.restart' },
  'POST /setpwd': { action: 'self.password', omit: ['username'] },
  'POST /login/totp/new': { action: 'self.totp_new' },
  'POST /login/totp/confirm': { action: 'self.totp_confirm' },
  'POST /login/totp/disable': { action: 'self.totp_disable' },
  'POST /log/notice/readed': { action: 'log.notice_read' },
  'POST /log/notice/delete': { action: 'log.notice_delete' },
  // Records log.photos_cleared with the count when it clears; refused attempts are recorded here.
  'POST /log/photo': { action: 'log.photos_clear', ownEventWhenDone: true },
  'POST /log/system/download/cancel': { action: 'log.download_cancel' },
};
