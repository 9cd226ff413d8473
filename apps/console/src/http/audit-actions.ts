import { protectView, type PanelActionKey } from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { ConsoleContext } from '../context.ts';
import { findLiveSessionByPublicId } from '../db/sessions.ts';
import { getSetting } from '../db/settings.ts';
import { findUserById } from '../db/users.ts';
import { alertSettingsView } from '../services/alert-settings.ts';
import { listShortcuts } from '../shortcuts/store.ts';
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

/** The id an edit names: top-level (`{ id, ... }`) or in a `rule` object (`{ rule: { id, ... } }`). */
function editedId(request: FastifyRequest): number | null {
  const body = request.body as { id?: unknown; rule?: { id?: unknown } } | undefined;
  const id = body?.rule?.id ?? body?.id;
  return typeof id === 'number' ? id : null;
}

/**
 * A rule edit reads the stored rule first, so its fields read old → new. `nested`: the body holds
 * the rule under `rule`; `name`: the rule's field that names it in the log (its path, its program).
 */
const storedRule = (call: 'firewall.rules.get' | 'tamper.rules.get' | 'tamper.names.get' | 'process.rules.get', nested: boolean, name?: string) =>
  async (ctx: ConsoleContext, request: FastifyRequest): Promise<AuditBefore> => {
    const id = editedId(request);
    const rule = id === null ? null : ((await ctx.agent.call(call, { id })) as Record<string, unknown> | null);
    if (!rule) return {};
    const named = name && typeof rule[name] === 'string' ? `#${id} ${String(rule[name])}` : undefined;
    return { ...(named ? { target: named } : {}), state: nested ? { rule } : rule };
  };

/** A shortcut edit reads the stored one (an add has no id and nothing before it). */
const shortcutBefore = (ctx: ConsoleContext, request: FastifyRequest): AuditBefore => {
  const id = editedId(request);
  const stored = id === null ? undefined : listShortcuts(ctx.db).find((s) => s.id === id);
  return stored ? { target: stored.name, state: { name: stored.name, action: stored.action, enabled: stored.enabled, expires_at: stored.expires_at, max_uses: stored.max_uses } } : {};
};

/** Every state-changing call of the console, by method and URL (without the /magapi prefix). A test checks none is missing. */
export const auditSpecs: Record<string, AuditSpec | null> = {
  'POST /firewall/rules/add': { action: 'firewall.rule_add' },
  'POST /firewall/rules/edit': { action: 'firewall.rule_edit', target: 'id', before: storedRule('firewall.rules.get', false) },
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
  'POST /tamper/rules/edit': { action: 'tamper.rule_edit', omit: ['rule.id'], before: storedRule('tamper.rules.get', true, 'path') },
  'POST /tamper/rules/enable': { action: 'tamper.rule_enable' },
  'POST /tamper/rules/delete': { action: 'tamper.rule_delete' },
  'POST /tamper/names/add': { action: 'tamper.name_add' },
  'POST /tamper/names/edit': { action: 'tamper.name_edit', omit: ['rule.id'], before: storedRule('tamper.names.get', true, 'dir') },
  'POST /tamper/names/enable': { action: 'tamper.name_enable' },
  'POST /tamper/names/delete': { action: 'tamper.name_delete' },
  'POST /process/rules/add': { action: 'process.rule_add' },
  'POST /process/rules/edit': { action: 'process.rule_edit', omit: ['rule.id'], before: storedRule('process.rules.get', true, 'process') },
  'POST /process/rules/enable': { action: 'process.rule_enable' },
  'POST /process/rules/delete': { action: 'process.rule_delete' },
  'POST /trojan/settings': { action: 'trojan.settings', before: async (ctx) => ({ state: { settings: await ctx.agent.call('trojan.settings.get', {}) } }) },
  'POST /trojan/library': { action: 'trojan.library', omit: ['library'] },
  'POST /trojan/dirs/add': { action: 'trojan.dir_add' },
  'POST /trojan/dirs/edit': { action: 'trojan.dir_edit' },
  'POST /trojan/dirs/enable': { action: 'trojan.dir_enable' },
  'POST /trojan/dirs/delete': { action: 'trojan.dir_delete' },
  'POST /trojan/scan/start': { action: 'trojan.scan_start' },
  'POST /trojan/scan/cancel': { action: 'trojan.scan_cancel' },
  'POST /trojan/results/handle': { action: 'trojan.result_handle' },
  'POST /trojan/isolate/restore': { action: 'trojan.isolate_restore' },
  'POST /trojan/isolate/delete': { action: 'trojan.isolate_delete' },
  'POST /cloud/keys/add': { action: 'cloud.key_add', target: 'name' },
  'POST /cloud/keys/delete': { action: 'cloud.key_delete' },
  // The bundle is a file, not a change to show field by field.
  'POST /cloud/feeds/import': { action: 'cloud.feed_import', omit: ['bundle'] },
  'POST /cloud/feeds/add_url': { action: 'cloud.feed_add_url', target: 'url' },
  'POST /cloud/feeds/update': { action: 'cloud.feed_update' },
  'POST /cloud/feeds/edit': { action: 'cloud.feed_edit' },
  'POST /cloud/feeds/enable': { action: 'cloud.feed_enable' },
  'POST /cloud/feeds/delete': { action: 'cloud.feed_delete' },
  'POST /cloud/settings': { action: 'cloud.settings', before: async (ctx) => ({ state: { settings: (await ctx.agent.call('cloud.status', {})).settings } }) },
  'POST /audit/trojan/scan': { action: 'audit.trojan_scan' },
  'POST /audit/trojan/cancel': { action: 'audit.trojan_cancel' },
  'POST /audit/trojan/handle': { action: 'audit.trojan_handle' },
  'POST /account/settings': { action: 'account.settings' },
  'POST /account/unlock': { action: 'account.unlock', ownEventWhenDone: true },
  'POST /account/relock': { action: 'account.relock' },
  'POST /account/root_login': { action: 'account.root_login' },
  'POST /audit/start': { action: 'audit.start' },
  'POST /audit/reinforce/apply': { action: 'audit.reinforce_apply' },
  'POST /audit/reinforce/revert': { action: 'audit.reinforce_revert' },
  'POST /audit/patch/check': { action: 'audit.patch_check' },
  'POST /audit/patch/download': { action: 'audit.patch_download' },
  'POST /audit/patch/install': { action: 'audit.patch_install' },
  'POST /audit/patch/settings': { action: 'audit.patch_settings', before: async (ctx) => ({ state: (await ctx.agent.call('audit.patch.status', {})).settings }) },
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
  'POST /system/log_backup': { action: 'system.log_backup', before: async (ctx) => ({ state: await ctx.agent.call('logs.backup.get', {}) }) },
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
  'POST /dynamic/settings': { action: 'dynamic.settings', before: (ctx) => ({ state: { settings: getSetting(ctx.db, 'dynamic_settings') } }) },
  'POST /home/wizard': { action: 'home.wizard_state', before: (ctx) => ({ state: { state: getSetting(ctx.db, 'wizard_state') } }) },
  'POST /home/wizard/trust': { action: 'home.wizard_trust' },
  'POST /home/update_kernel': { action: 'home.update_kernel' },
  'POST /home/update_virlib': { action: 'home.update_virlib' },
  'POST /home/update': { action: 'home.update_release' },
  'POST /system/shortcut': { action: 'system.shortcut_save', omit: ['id'], before: shortcutBefore },
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
