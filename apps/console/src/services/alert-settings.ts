import { hostname } from 'node:os';
import { splitWebhook, joinWebhook } from '@rampart/notify';
import type { AlertSettingsInput, AlertSettingsView, AlertStoredSecrets, Language, MessageKey } from '@rampart/contracts';
import type { Db } from '../db/database.ts';
import { getSetting, setSetting } from '../db/settings.ts';
import { findFirstAdmin } from '../db/users.ts';
import { secretBox } from '../security/secret-box.ts';

/** The settings with every secret opened: what the senders use. Never leaves the console. */
export type AlertConfig = AlertSettingsInput;

function stored(sealed: { smtp_password: string; aliyun_secret: string; tencent_secret: string; http_header_value: string; wecom_key: string }): AlertStoredSecrets {
  return {
    smtp_password: sealed.smtp_password !== '',
    aliyun_secret: sealed.aliyun_secret !== '',
    tencent_secret: sealed.tencent_secret !== '',
    http_header_value: sealed.http_header_value !== '',
    wecom_key: sealed.wecom_key !== '',
  };
}

/** GET /system/alerts: secrets blank, and which are stored. */
export function alertSettingsView(db: Db): AlertSettingsView {
  const { settings, sealed } = getSetting(db, 'alerts');
  return { ...settings, stored: stored(sealed) };
}

export function alertConfig(db: Db): AlertConfig {
  const { settings, sealed } = getSetting(db, 'alerts');
  const box = secretBox(db);
  const wecomKey = box.open(sealed.wecom_key);
  return {
    ...settings,
    email: { ...settings.email, password: box.open(sealed.smtp_password) },
    sms: {
      ...settings.sms,
      aliyun: { ...settings.sms.aliyun, access_key_secret: box.open(sealed.aliyun_secret) },
      tencent: { ...settings.sms.tencent, secret_key: box.open(sealed.tencent_secret) },
      http: { ...settings.sms.http, header_value: box.open(sealed.http_header_value) },
    },
    wechat: { webhook: settings.wechat.webhook && wecomKey ? joinWebhook(settings.wechat.webhook, wecomKey) : settings.wechat.webhook },
  };
}

export interface SaveProblem {
  field: string;
  message: MessageKey;
}

/**
 * Stores validated input: a blank secret keeps the stored one, a given one replaces it (sealed).
 * A chosen method whose secret is neither given nor stored is refused, naming the field.
 */
export function saveAlertSettings(db: Db, input: AlertSettingsInput): SaveProblem | null {
  const { sealed: old } = getSetting(db, 'alerts');
  const box = secretBox(db);
  const keep = (given: string, sealedOld: string) => (given === '' ? sealedOld : box.seal(given));
  let webhookBase = '';
  let webhookKey = '';
  if (input.wechat.webhook) {
    const { base, key } = splitWebhook(input.wechat.webhook);
    webhookBase = base;
    webhookKey = key;
  }
  const sealed = {
    smtp_password: keep(input.email.password, old.smtp_password),
    aliyun_secret: keep(input.sms.aliyun.access_key_secret, old.aliyun_secret),
    tencent_secret: keep(input.sms.tencent.secret_key, old.tencent_secret),
    http_header_value: input.sms.http.header_name === '' ? '' : keep(input.sms.http.header_value, old.http_header_value),
    // No webhook: the key goes with it. A webhook without a key keeps the stored key.
    wecom_key: webhookBase === '' ? '' : keep(webhookKey, old.wecom_key),
  };
  const methods = new Set(input.methods);
  if (methods.has('sms') && input.sms.provider === 'aliyun' && !sealed.aliyun_secret) return { field: 'sms.aliyun.access_key_secret', message: 'alert_secret_required' };
  if (methods.has('sms') && input.sms.provider === 'tencent' && !sealed.tencent_secret) return { field: 'sms.tencent.secret_key', message: 'alert_secret_required' };
  if (methods.has('wechat') && !sealed.wecom_key) return { field: 'wechat.webhook', message: 'alert_webhook_key_required' };
  const settings: AlertSettingsInput = {
    ...input,
    email: { ...input.email, password: '' },
    sms: {
      ...input.sms,
      aliyun: { ...input.sms.aliyun, access_key_secret: '' },
      tencent: { ...input.sms.tencent, secret_key: '' },
      http: { ...input.sms.http, header_value: '' },
    },
    wechat: { webhook: webhookBase },
  };
  setSetting(db, 'alerts', { settings, sealed });
  return null;
}

/** Takes `count` SMS off the remaining budget (never below 0). */
export function spendSms(db: Db, count: number): void {
  const current = getSetting(db, 'alerts');
  const remaining = Math.max(0, current.settings.sms.remaining - count);
  setSetting(db, 'alerts', { ...current, settings: { ...current.settings, sms: { ...current.settings.sms, remaining } } });
}

/** Choice: alerts go out in the language set on the tab; 'auto' follows the first administrator. */
export function alertLanguage(db: Db, config: Pick<AlertConfig, 'lang'>): Language {
  if (config.lang !== 'auto') return config.lang;
  return findFirstAdmin(db)?.lang ?? 'zh-CN';
}

/** How messages name this server: its alias (basic settings), else the host name. */
export function serverName(db: Db): string {
  return getSetting(db, 'server_alias') || hostname();
}
