import { z } from 'zod';
import { secretField } from './panel-actions.ts';
import { isHostOrIp } from './validators.ts';

/**
 * Schemas of the alerts tab: the notification service (on/off, methods, send interval, language)
 * and its three delivery methods. Secrets (SMTP password, SMS keys, gateway header, WeCom robot key)
 * are write-only: blank keeps the stored one, and views only say whether one is stored.
 * Messages are message keys (messages.ts).
 */
export const alertMethods = ['email', 'sms', 'wechat'] as const;
export type AlertMethod = (typeof alertMethods)[number];
export const smtpSecurities = ['none', 'starttls', 'tls'] as const;
export const smsProviders = ['aliyun', 'tencent', 'http'] as const;
export type SmsProvider = (typeof smsProviders)[number];
export const httpMethods = ['GET', 'POST'] as const;
/** 'auto' = the language of the first administrator (the account registration created). */
export const alertLanguages = ['auto', 'zh-CN', 'en-US'] as const;

/** The spec: send interval 0-60 minutes, 0 = no interval, default 3. */
export const alertIntervalMax = 60;
export const alertIntervalDefault = 3;
export const alertRecipientsMax = 20;

const emailPattern = /^[^\s@<>()[\]\\,;:"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && emailPattern.test(value);
}
/** A mobile number: mainland 1xxxxxxxxxx, or an international +<country><number>. */
const phonePattern = /^(?:1[3-9]\d{9}|\+[1-9]\d{6,14})$/;
export function isPhoneNumber(value: string): boolean {
  return phonePattern.test(value);
}
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

const text = (max: number) => z.string().trim().max(max, 'text_too_long');
const secret = secretField(z.string().max(256, 'text_too_long'));
const optionalUrl = (message: string) => z.string().trim().max(1024, 'text_too_long').refine((v) => v === '' || isHttpUrl(v), message);

export const alertEmailSchema = z
  .object({
    host: z.string().trim().max(253, 'alert_smtp_host_invalid').refine((v) => v === '' || isHostOrIp(v), 'alert_smtp_host_invalid'),
    port: z.number({ message: 'port_invalid' }).int('port_invalid').min(1, 'port_invalid').max(65535, 'port_invalid'),
    security: z.enum(smtpSecurities, { message: 'alert_smtp_security_invalid' }),
    user: text(256),
    /** Blank keeps the stored password. */
    password: secret,
    from: z.string().trim().max(254, 'alert_email_from_invalid').refine((v) => v === '' || isEmailAddress(v), 'alert_email_from_invalid'),
    recipients: z.array(z.string().trim().refine(isEmailAddress, 'alert_email_invalid')).max(alertRecipientsMax, 'alert_recipients_max'),
  })
  .strict();
export type AlertEmail = z.infer<typeof alertEmailSchema>;

export const aliyunSmsSchema = z
  .object({
    /** Dysmsapi endpoint; configurable so a test (or a private endpoint) can stand in. */
    endpoint: optionalUrl('alert_endpoint_invalid'),
    region: text(64),
    access_key_id: text(128),
    access_key_secret: secret,
    sign_name: text(64),
    template_code: text(64),
    /** The template variable the alert text fills (TemplateParam {"<name>": text}). */
    template_param: z.string().trim().max(32, 'text_too_long').regex(/^[A-Za-z_][A-Za-z0-9_]*$|^$/, 'alert_template_param_invalid'),
  })
  .strict();

export const tencentSmsSchema = z
  .object({
    endpoint: optionalUrl('alert_endpoint_invalid'),
    region: text(64),
    secret_id: text(128),
    secret_key: secret,
    sdk_app_id: z.string().trim().max(32, 'text_too_long').regex(/^\d*$/, 'alert_sdk_app_id_invalid'),
    sign_name: text(64),
    template_id: z.string().trim().max(32, 'text_too_long').regex(/^\d*$/, 'alert_template_id_invalid'),
  })
  .strict();

export const httpSmsSchema = z
  .object({
    url: optionalUrl('alert_url_invalid'),
    method: z.enum(httpMethods, { message: 'alert_http_method_invalid' }),
    /** POST body (or, for GET, the query string) with {phone} and {text} placeholders. */
    template: z.string().max(2000, 'text_too_long'),
    header_name: z.string().trim().max(64, 'text_too_long').regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]*$/, 'alert_header_name_invalid'),
    /** Often a token: write-only like the other secrets. */
    header_value: secretField(z.string().max(1024, 'text_too_long').refine((v) => !/[\r\n]/.test(v), 'alert_header_value_invalid')),
  })
  .strict();

export const alertSmsSchema = z
  .object({
    provider: z.enum(smsProviders, { message: 'alert_sms_provider_invalid' }),
    phones: z.array(z.string().trim().refine(isPhoneNumber, 'alert_phone_invalid')).max(alertRecipientsMax, 'alert_recipients_max'),
    /**
     * "SMS remaining": a budget the administrator sets; each SMS sent (one per number) takes one
     * off, and at 0 no SMS goes out until it is raised again.
     */
    remaining: z.number({ message: 'alert_sms_remaining_invalid' }).int('alert_sms_remaining_invalid').min(0, 'alert_sms_remaining_invalid').max(1_000_000, 'alert_sms_remaining_invalid'),
    aliyun: aliyunSmsSchema,
    tencent: tencentSmsSchema,
    http: httpSmsSchema,
  })
  .strict();
export type AlertSms = z.infer<typeof alertSmsSchema>;

export const alertWechatSchema = z
  .object({
    /**
     * The WeCom group robot's webhook URL. Its `key` is the secret: stored sealed, shown without
     * it; a URL without a key keeps the stored one.
     */
    webhook: optionalUrl('alert_webhook_invalid'),
  })
  .strict();

const alertSettingsShape = {
  enabled: z.boolean(),
  methods: z.array(z.enum(alertMethods, { message: 'alert_method_invalid' })).max(3),
  interval: z
    .number({ message: 'alert_interval_invalid' })
    .int('alert_interval_invalid')
    .min(0, 'alert_interval_invalid')
    .max(alertIntervalMax, 'alert_interval_invalid'),
  lang: z.enum(alertLanguages, { message: 'bad_request' }),
  email: alertEmailSchema,
  sms: alertSmsSchema,
  wechat: alertWechatSchema,
};

type Issue = { path: (string | number)[]; message: string };
/** What a chosen method needs; secrets are checked by the console, which knows what is stored. */
export function missingForMethods(s: { methods: readonly AlertMethod[]; enabled: boolean; email: AlertEmail; sms: AlertSms; wechat: { webhook: string } }): Issue[] {
  const issues: Issue[] = [];
  if (s.enabled && s.methods.length === 0) issues.push({ path: ['methods'], message: 'alert_method_not_set' });
  if (new Set(s.methods).size !== s.methods.length) issues.push({ path: ['methods'], message: 'has_duplicates' });
  if (s.methods.includes('email')) {
    if (!s.email.host) issues.push({ path: ['email', 'host'], message: 'alert_smtp_host_required' });
    if (!s.email.from) issues.push({ path: ['email', 'from'], message: 'alert_email_from_invalid' });
    if (s.email.recipients.length === 0) issues.push({ path: ['email', 'recipients'], message: 'alert_recipients_required' });
  }
  if (s.methods.includes('sms')) {
    if (s.sms.phones.length === 0) issues.push({ path: ['sms', 'phones'], message: 'alert_phones_required' });
    const required: Record<SmsProvider, [string, string][]> = {
      aliyun: [['access_key_id', s.sms.aliyun.access_key_id], ['sign_name', s.sms.aliyun.sign_name], ['template_code', s.sms.aliyun.template_code], ['template_param', s.sms.aliyun.template_param]],
      tencent: [['secret_id', s.sms.tencent.secret_id], ['sdk_app_id', s.sms.tencent.sdk_app_id], ['sign_name', s.sms.tencent.sign_name], ['template_id', s.sms.tencent.template_id]],
      http: [['url', s.sms.http.url], ['template', s.sms.http.template]],
    };
    for (const [field, value] of required[s.sms.provider]) {
      if (!value) issues.push({ path: ['sms', s.sms.provider, field], message: 'alert_field_required' });
    }
  }
  if (s.methods.includes('wechat') && !s.wechat.webhook) issues.push({ path: ['wechat', 'webhook'], message: 'alert_webhook_invalid' });
  return issues;
}

/** The fields alone, without the rules between them (what the console keeps). */
export const alertSettingsBaseSchema = z.object(alertSettingsShape).strict();

/** POST /system/alerts: the whole settings object. */
export const alertSettingsInputSchema = alertSettingsBaseSchema
  .superRefine((s, ctx) => {
    for (const issue of missingForMethods(s)) ctx.addIssue({ code: 'custom', ...issue });
  });
export type AlertSettingsInput = z.infer<typeof alertSettingsInputSchema>;

/** Which secrets are stored (their values never leave the console). */
export const alertStoredSecretsSchema = z.object({
  smtp_password: z.boolean(),
  aliyun_secret: z.boolean(),
  tencent_secret: z.boolean(),
  http_header_value: z.boolean(),
  wecom_key: z.boolean(),
});
export type AlertStoredSecrets = z.infer<typeof alertStoredSecretsSchema>;

/** GET /system/alerts: the settings with every secret blank, and which ones are stored. */
export const alertSettingsViewSchema = z.object({ ...alertSettingsShape, stored: alertStoredSecretsSchema });
export type AlertSettingsView = z.infer<typeof alertSettingsViewSchema>;

export const defaultAlertSettings: AlertSettingsInput = {
  enabled: false,
  methods: [],
  interval: alertIntervalDefault,
  lang: 'auto',
  email: { host: '', port: 465, security: 'tls', user: '', password: '', from: '', recipients: [] },
  sms: {
    provider: 'aliyun',
    phones: [],
    remaining: 0,
    aliyun: { endpoint: 'https://dysmsapi.aliyuncs.com/', region: 'cn-hangzhou', access_key_id: '', access_key_secret: '', sign_name: '', template_code: '', template_param: 'content' },
    tencent: { endpoint: 'https://sms.tencentcloudapi.com/', region: 'ap-guangzhou', secret_id: '', secret_key: '', sdk_app_id: '', sign_name: '', template_id: '' },
    http: { url: '', method: 'POST', template: '{"phone":"{phone}","text":"{text}"}', header_name: '', header_value: '' },
  },
  wechat: { webhook: '' },
};

/** A message waiting in the queue of one (the spec: a newer message replaces it). */
export const alertQueuedSchema = z.object({
  title: z.string(),
  content: z.string(),
  at: z.number().int(),
  /** Absent: every chosen method. Present: only these of them (a module's own alert methods, e.g. website protection's). */
  methods: z.array(z.enum(alertMethods)).optional(),
});
export type AlertQueued = z.infer<typeof alertQueuedSchema>;

/** GET /system/alerts/queue. */
export const alertQueueViewSchema = z.object({
  enabled: z.boolean(),
  interval: z.number().int(),
  waiting: alertQueuedSchema.nullable(),
  last_sent_at: z.number().int().nullable(),
  /** When the waiting message goes out (null: nothing waits). */
  next_at: z.number().int().nullable(),
});
export type AlertQueueView = z.infer<typeof alertQueueViewSchema>;

/** POST /system/alerts/queue: empties the queue. */
export const alertQueueActionSchema = z.object({ action: z.literal('clear', { message: 'bad_request' }) }).strict();

/** POST /system/alerts/test: one method, with the saved settings. */
export const alertTestSchema = z.object({ method: z.enum(alertMethods, { message: 'alert_method_invalid' }) }).strict();
export type AlertTestBody = z.infer<typeof alertTestSchema>;
