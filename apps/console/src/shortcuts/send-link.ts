import { translate, type Language, type MessageKey, type ShortcutAction } from '@rampart/contracts';
import type { ConsoleContext } from '../context.ts';
import { getSetting } from '../db/settings.ts';
import { newToken } from '../security/tokens.ts';
import { defaultPorts, deliver } from '../services/alert-delivery.ts';
import { alertConfig, alertLanguage, serverName } from '../services/alert-settings.ts';
import { linkPath, listShortcuts, reissueShortcut } from './store.ts';

const operationKeys: Record<ShortcutAction['operation'], MessageKey> = {
  pause_protection: 'sc_op_pause_protection',
  resume_protection: 'sc_op_resume_protection',
  unblock_ip: 'sc_op_unblock_ip',
  restart_panel: 'sc_op_restart_panel',
};

/** What an operation does, in words, for the message that carries its link. */
export function describeAction(lang: Language, action: ShortcutAction): string {
  const params = { ...('minutes' in action ? { minutes: action.minutes } : {}), ...('ip' in action ? { ip: action.ip } : {}) };
  return translate(lang, operationKeys[action.operation], params);
}

export type SendOutcome =
  | { ok: true; sent: number; failed: number; reason: string }
  | { ok: false; msg: 'sc_not_found' | 'alert_method_not_set' | 'sc_send_failed'; reason: string };

/**
 * Sends a fresh link for a shortcut by every method the notification service uses (alerts tab),
 * in its language. The link is shown to nobody else and the console cannot rebuild an old one, so
 * sending means issuing a new one; it replaces the old one only once a method took it (a send
 * that fails everywhere leaves the current link working).
 */
export async function sendShortcutLink(ctx: ConsoleContext, id: number, origin: string): Promise<SendOutcome> {
  const shortcut = listShortcuts(ctx.db).find((s) => s.id === id);
  if (!shortcut) return { ok: false, msg: 'sc_not_found', reason: '' };
  const { settings } = getSetting(ctx.db, 'alerts');
  if (!settings.enabled || settings.methods.length === 0) return { ok: false, msg: 'alert_method_not_set', reason: '' };

  const lang = alertLanguage(ctx.db, alertConfig(ctx.db));
  const token = newToken();
  const url = `${origin}${linkPath(token)}`;
  const text = {
    subject: `[${serverName(ctx.db)}] ${translate(lang, 'sc_send_subject', { name: shortcut.name })}`,
    body: translate(lang, 'sc_send_body', { name: shortcut.name, operation: describeAction(lang, shortcut.action), url }),
  };
  const ports = defaultPorts(ctx.now);
  const reasons: string[] = [];
  let sent = 0;
  for (const method of settings.methods) {
    try {
      await deliver(ctx.db, method, text, ports);
      sent++;
    } catch (error) {
      reasons.push(`${method}: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300));
    }
  }
  if (sent === 0) return { ok: false, msg: 'sc_send_failed', reason: reasons.join('; ') };
  reissueShortcut(ctx.db, id, token);
  return { ok: true, sent, failed: reasons.length, reason: reasons.join('; ') };
}
