import { z } from 'zod';
import { alertMethods } from './system-alerts.ts';
import { blockMinutesSchema } from './firewall.ts';
import { keywordLibrariesSchema } from './website-keywords.ts';
import { websiteListsSchema, defaultWebsiteLists, urlPatternSchema } from './website-lists.ts';

/*
 * Website protection settings (spec: /website; issue 6). The page has ten tabs; which settings
 * group lives on which tab (the spec lists the groups, not their tabs; the calls name the tabs):
 *
 *   server          protected sites: listener, TLS, upstreams, status (website-gateway.ts)
 *   base            block mode; snapshots + retention days; alert area + methods; cookie
 *                   attributes (HttpOnly, SameSite); X-Frame-Options
 *   request         request methods denied; URL / header / POST / snapshot size limits (0 = no
 *                   limit); HTTP header limit rules; upload types; file type allow/deny
 *   protect         CC protection; 404 scan; hotlinking; time-limited access; authorization password
 *   sql             SQL injection on/off; the keyword libraries (block, filter, record), because
 *                   the spec's `/website/sql_getkeywords` call hangs off this tab
 *   attack          the other attack kinds on/off; file inclusion; headers the detectors inspect
 *                   (`/website/attack_header`)
 *   response        the interception response (standard error 403 by default, detailed error,
 *                   jump to URL, custom content)
 *   lists           URL, IP-or-area, user-agent and referer white and black lists; spider IP
 *                   whitelist and fake-spider mode; malicious-IP blacklist by area (website-lists.ts)
 *   intercept_list  addresses the website protection blocked for a while (website-lists.ts)
 *   author_list     addresses the authorization password let in for a while (website-lists.ts)
 */

export const websiteTabs = ['server', 'base', 'request', 'protect', 'sql', 'attack', 'response', 'lists', 'intercept_list', 'author_list'] as const;
export type WebsiteTab = (typeof websiteTabs)[number];

/**
 * The attack classes the engine names. The canonical list lives here so the console and the web
 * app can name them; `@rampart/waf` re-exports it.
 */
export const attackKinds = [
  'sqli',
  'xss',
  'cmdi',
  'path_traversal',
  'file_inclusion',
  'ssti',
  'xxe',
  'java_deserialization',
  'jndi',
  'webshell_upload',
  'crlf',
  'ssi',
  'ldap',
  'nosql',
  'mail_injection',
  'graphql',
  'protocol',
] as const;
export type AttackKind = (typeof attackKinds)[number];
/** The kinds the attack tab switches (SQL injection has its own tab). */
export const attackTabKinds = attackKinds.filter((kind): kind is Exclude<AttackKind, 'sqli'> => kind !== 'sqli');

/** Loose and strict (spec: "Loose means human verification. Strict means block."). */
export const websiteModes = ['loose', 'strict'] as const;
export const websiteModeSchema = z.enum(websiteModes, { message: 'web_mode_invalid' });
export type WebsiteMode = z.infer<typeof websiteModeSchema>;

const count = (max: number, message: string) => z.number({ message }).int(message).min(1, message).max(max, message);
/** A size in bytes where 0 means no limit (spec: "Value 0 means unlimited"). */
const sizeLimit = z.number({ message: 'web_size_invalid' }).int('web_size_invalid').min(0, 'web_size_invalid').max(2 ** 40, 'web_size_invalid');

/** A DNS name as it appears in a Referer or an X-Frame-Options origin; `*.` allows every subdomain. */
export function isWebsiteDomain(value: string): boolean {
  const name = value.startsWith('*.') ? value.slice(2) : value;
  if (name.length === 0 || name.length > 253) return false;
  return name.split('.').every((label) => /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(label));
}
export const websiteDomainSchema = z.string({ message: 'web_domain_invalid' }).trim().toLowerCase().refine(isWebsiteDomain, 'web_domain_invalid');

/** A file extension without the dot, lower case; `''` is "no extension" where a list allows it. */
export const extensionSchema = z
  .string({ message: 'web_extension_invalid' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9_+-]{1,16}$/, 'web_extension_invalid');

/* base */

export const cookieSameSites = ['off', 'lax', 'strict'] as const;
export const frameOptionModes = ['off', 'deny', 'sameorigin', 'allow_from'] as const;
/** All areas alert; or only requests from addresses the geo-IP data can't place. */
export const alertAreas = ['all', 'unknown'] as const;

export const websiteBaseSchema = z
  .object({
    block_mode: websiteModeSchema,
    snapshot: z.object({ enabled: z.boolean(), retention_days: count(3650, 'web_retention_invalid') }).strict(),
    alert: z
      .object({
        enabled: z.boolean(),
        area: z.enum(alertAreas, { message: 'web_alert_area_invalid' }),
        methods: z
          .array(z.enum(alertMethods, { message: 'alert_method_invalid' }))
          .refine((list) => new Set(list).size === list.length, 'has_duplicates'),
      })
      .strict(),
    /** Added to every Set-Cookie of the site's responses. */
    cookie: z.object({ http_only: z.boolean(), same_site: z.enum(cookieSameSites, { message: 'web_same_site_invalid' }) }).strict(),
    /** `allow_from` lists the origins that may frame the site. */
    frame_options: z
      .object({ mode: z.enum(frameOptionModes, { message: 'web_frame_mode_invalid' }), domains: z.array(websiteDomainSchema).max(100, 'web_too_many') })
      .strict()
      .refine((value) => value.mode !== 'allow_from' || value.domains.length > 0, { message: 'web_frame_domains_required', path: ['domains'] }),
  })
  .strict();
export type WebsiteBase = z.infer<typeof websiteBaseSchema>;

/* request */

export const fileTypeModes = ['allow', 'deny'] as const;
/** `root`: only files in the site's root folder (`/x.php`); `all`: every folder. */
export const fileTypeScopes = ['root', 'all'] as const;

/** An HTTP method token as RFC 9110 allows it, upper case (methods are case-sensitive; ours are upper). */
export const httpMethodSchema = z
  .string({ message: 'web_method_invalid' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z][A-Z0-9_-]{0,19}$/, 'web_method_invalid');

/** A header name (RFC 9110 token), lower case, or `*` for every header. */
export const headerNameSchema = z
  .string({ message: 'web_header_invalid' })
  .trim()
  .toLowerCase()
  .regex(/^(\*|[a-z0-9!#$%&'*+.^_`|~-]{1,64})$/, 'web_header_invalid');

export const headerLimitRuleSchema = z
  .object({
    id: z.number().int().positive(),
    enabled: z.boolean(),
    header: headerNameSchema,
    max_bytes: count(1_048_576, 'web_header_limit_invalid'),
  })
  .strict();
export type HeaderLimitRule = z.infer<typeof headerLimitRuleSchema>;

/**
 * Upload types (spec: "* means all, the empty token means no extension, blank means no upload"):
 * comma-separated extensions. `jpg,png,` allows jpg, png and files without an extension;
 * `` (blank) allows no upload at all; `*` allows every file.
 */
export type UploadTypes = { kind: 'all' } | { kind: 'none' } | { kind: 'list'; extensions: ReadonlySet<string> };
export function parseUploadTypes(text: string): UploadTypes | null {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'none' };
  if (trimmed === '*') return { kind: 'all' };
  const extensions = new Set<string>();
  for (const raw of trimmed.split(',')) {
    const token = raw.trim().toLowerCase().replace(/^\./, '');
    if (token !== '' && !/^[a-z0-9_+-]{1,16}$/.test(token)) return null;
    extensions.add(token);
  }
  return extensions.size > 500 ? null : { kind: 'list', extensions };
}

export const websiteRequestSchema = z
  .object({
    denied_methods: z.array(httpMethodSchema).max(50, 'web_too_many'),
    limits: z.object({ url_bytes: sizeLimit, header_bytes: sizeLimit, post_bytes: sizeLimit, snapshot_bytes: sizeLimit }).strict(),
    header_rules: z.array(headerLimitRuleSchema).max(200, 'web_too_many'),
    upload: z
      .object({ enabled: z.boolean(), types: z.string({ message: 'web_upload_types_invalid' }).max(4000, 'web_upload_types_invalid').refine((t) => parseUploadTypes(t) !== null, 'web_upload_types_invalid') })
      .strict(),
    /**
     * Uploaded files scanned by the web-shell engine before the origin has the whole upload (the
     * gateway's upload-scan.ts): a file it judges a web shell (high or medium risk) refuses the
     * request as a `webshell_upload` attack. On by default; a row saved before it existed reads on.
     */
    upload_scan: z.object({ enabled: z.boolean() }).strict().default({ enabled: true }),
    file_types: z
      .object({
        enabled: z.boolean(),
        mode: z.enum(fileTypeModes, { message: 'web_file_mode_invalid' }),
        scope: z.enum(fileTypeScopes, { message: 'web_file_scope_invalid' }),
        extensions: z.array(extensionSchema).max(500, 'web_too_many'),
      })
      .strict(),
  })
  .strict();
export type WebsiteRequest = z.infer<typeof websiteRequestSchema>;

/* protect */

export const ccVerifications = ['redirect', 'click'] as const;
export const emptyRefererActions = ['allow', 'deny'] as const;

/** `HH:MM`, 00:00 to 24:00 (24:00 only as an end: "until midnight"). */
export const clockTimeSchema = z
  .string({ message: 'web_time_invalid' })
  .regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'web_time_invalid');
export function clockMinutes(text: string): number {
  return Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));
}
/** A daily window [start, end): end later than start (spec: "end must be later than start and not equal"). */
export const timeWindowSchema = z
  .object({ start: clockTimeSchema, end: clockTimeSchema })
  .strict()
  .refine((w) => clockMinutes(w.end) > clockMinutes(w.start), { message: 'web_window_order', path: ['end'] });
export type TimeWindow = z.infer<typeof timeWindowSchema>;

export const timeLimitRuleSchema = z
  .object({
    id: z.number().int().positive(),
    enabled: z.boolean(),
    url: urlPatternSchema,
    /** The times the URL is open to everyone; outside them only authorized addresses get in. */
    windows: z.array(timeWindowSchema).min(1, 'web_window_required').max(24, 'web_too_many'),
  })
  .strict();
export type TimeLimitRule = z.infer<typeof timeLimitRuleSchema>;

/** Spec: 8-50 bytes, not all digits, not all letters, case-sensitive. Bytes of UTF-8. */
export function isAuthorizationPassword(value: string): boolean {
  const bytes = new TextEncoder().encode(value).length;
  return bytes >= 8 && bytes <= 50 && !/^\d+$/.test(value) && !/^[A-Za-z]+$/.test(value);
}
export const authorizationPasswordSchema = z.string({ message: 'web_auth_password_invalid' }).refine(isAuthorizationPassword, 'web_auth_password_invalid');

const authorizationShape = {
  enabled: z.boolean(),
  validity_minutes: count(525_600, 'web_auth_validity_invalid'),
};
/** As stored: the password is kept only as a hash (scrypt, see @rampart/waf policy/authorization). */
export const websiteAuthorizationSchema = z.object({ ...authorizationShape, password_hash: z.string().max(300) }).strict();
/** As the tab posts it: a new password, or null to keep the stored one. */
export const websiteAuthorizationInputSchema = z.object({ ...authorizationShape, password: authorizationPasswordSchema.nullable() }).strict();

export const websiteProtectSchema = z
  .object({
    /** More than `per_minute` requests from one address in a minute: loose = human verification, strict = block. */
    cc: z
      .object({
        enabled: z.boolean(),
        mode: websiteModeSchema,
        verification: z.enum(ccVerifications, { message: 'web_verification_invalid' }),
        per_minute: count(1_000_000, 'fw_frequency_range'),
        block_minutes: blockMinutesSchema,
      })
      .strict(),
    /** More than `per_minute` 404 answers to one address in a minute blocks it. */
    scan_404: z.object({ enabled: z.boolean(), per_minute: count(1_000_000, 'fw_frequency_range'), block_minutes: blockMinutesSchema }).strict(),
    hotlink: z
      .object({
        enabled: z.boolean(),
        extensions: z.array(extensionSchema).max(200, 'web_too_many'),
        /** Referers allowed besides the site's own host. */
        referers: z.array(websiteDomainSchema).max(500, 'web_too_many'),
        empty_referer: z.enum(emptyRefererActions, { message: 'web_empty_referer_invalid' }),
      })
      .strict(),
    time_limits: z.array(timeLimitRuleSchema).max(200, 'web_too_many'),
    authorization: websiteAuthorizationSchema,
  })
  .strict();
export type WebsiteProtect = z.infer<typeof websiteProtectSchema>;

/* sql and attack */

export const websiteSqlSchema = z.object({ sqli: z.boolean(), keywords: keywordLibrariesSchema }).strict();
export type WebsiteSql = z.infer<typeof websiteSqlSchema>;

export const websiteAttackSchema = z
  .object({
    // A kind missing from a saved row (added by a later version, as `graphql` was) is on: the row
    // keeps parsing, so the administrator's other switches are not reset to the defaults.
    kinds: z.object(Object.fromEntries(attackTabKinds.map((kind) => [kind, z.boolean().default(true)])) as Record<Exclude<AttackKind, 'sqli'>, z.ZodDefault<z.ZodBoolean>>).strict(),
    /** Local (`../../etc/passwd`, `/proc/self/environ`) and remote (`http://`, `php://`, `data:`) inclusion. */
    file_inclusion: z.object({ local: z.boolean(), remote: z.boolean() }).strict(),
    /** The request headers the detectors read (besides Cookie, always read). */
    headers: z.array(headerNameSchema).max(50, 'web_too_many'),
  })
  .strict();
export type WebsiteAttack = z.infer<typeof websiteAttackSchema>;

/* response */

export const responseTypes = ['standard', 'detailed', 'redirect', 'custom'] as const;
export const websiteResponseSchema = z
  .object({
    type: z.enum(responseTypes, { message: 'web_response_type_invalid' }),
    /** The status of standard, detailed and custom answers (redirects answer 302). */
    status: z.number({ message: 'web_status_invalid' }).int('web_status_invalid').min(200, 'web_status_invalid').max(599, 'web_status_invalid'),
    redirect_url: z.string().trim().max(2048, 'web_url_too_long'),
    content: z.string().max(65_536, 'text_too_long'),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.type === 'redirect' && !/^(https?:\/\/[^\s/?#]+|\/)[^\s]*$/i.test(value.redirect_url)) {
      ctx.addIssue({ code: 'custom', message: 'web_redirect_invalid', path: ['redirect_url'] });
    }
    if (value.type === 'custom' && value.content.trim() === '') ctx.addIssue({ code: 'custom', message: 'web_content_required', path: ['content'] });
  });
export type WebsiteResponse = z.infer<typeof websiteResponseSchema>;

/** Every settings group of one protected site's policy (server tab and the two IP lists are separate). */
export const websiteSettingsSchema = z
  .object({
    base: websiteBaseSchema,
    request: websiteRequestSchema,
    protect: websiteProtectSchema,
    sql: websiteSqlSchema,
    attack: websiteAttackSchema,
    response: websiteResponseSchema,
    lists: websiteListsSchema,
  })
  .strict();
export type WebsiteSettings = z.infer<typeof websiteSettingsSchema>;

/** The settings a new site starts with: detection on, limits off, the 403 standard error. */
export const defaultWebsiteSettings: WebsiteSettings = {
  base: {
    block_mode: 'strict',
    snapshot: { enabled: true, retention_days: 30 },
    alert: { enabled: false, area: 'all', methods: [] },
    cookie: { http_only: false, same_site: 'off' },
    frame_options: { mode: 'off', domains: [] },
  },
  request: {
    denied_methods: ['TRACE', 'TRACK', 'CONNECT'],
    limits: { url_bytes: 0, header_bytes: 0, post_bytes: 0, snapshot_bytes: 65_536 },
    header_rules: [],
    upload: { enabled: false, types: '*' },
    upload_scan: { enabled: true },
    file_types: { enabled: false, mode: 'deny', scope: 'all', extensions: ['bak', 'sql', 'mdb', 'env', 'git', 'svn', 'swp'] },
  },
  protect: {
    cc: { enabled: false, mode: 'loose', verification: 'redirect', per_minute: 300, block_minutes: 30 },
    scan_404: { enabled: false, per_minute: 30, block_minutes: 30 },
    hotlink: { enabled: false, extensions: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'mp4'], referers: [], empty_referer: 'allow' },
    time_limits: [],
    authorization: { enabled: false, validity_minutes: 60, password_hash: '' },
  },
  sql: {
    sqli: true,
    keywords: { block: { enabled: false, rules: [] }, filter: { enabled: false, rules: [] }, record: { enabled: false, rules: [] } },
  },
  attack: {
    kinds: Object.fromEntries(attackTabKinds.map((kind) => [kind, true])) as WebsiteAttack['kinds'],
    file_inclusion: { local: true, remote: true },
    headers: ['user-agent', 'referer', 'x-forwarded-for'],
  },
  response: { type: 'standard', status: 403, redirect_url: '', content: '' },
  lists: defaultWebsiteLists,
};

/* What each tab posts and what its GET answers (the protect tab never shows the password hash). */

export const websiteProtectInputSchema = websiteProtectSchema.extend({ authorization: websiteAuthorizationInputSchema });
export type WebsiteProtectInput = z.infer<typeof websiteProtectInputSchema>;
export const websiteProtectViewSchema = websiteProtectSchema.extend({
  authorization: z.object({ ...authorizationShape, password_set: z.boolean() }).strict(),
});
export type WebsiteProtectView = z.infer<typeof websiteProtectViewSchema>;

/** The body each settings tab posts (the server tab and the two timed lists have their own calls). */
export const websiteTabInputSchemas = {
  base: websiteBaseSchema,
  request: websiteRequestSchema,
  protect: websiteProtectInputSchema,
  sql: websiteSqlSchema,
  attack: websiteAttackSchema,
  response: websiteResponseSchema,
  lists: websiteListsSchema,
} as const;
export type WebsiteSettingsTab = keyof typeof websiteTabInputSchemas;

/** The protect tab as its GET shows it. */
export function protectView(protect: WebsiteProtect): WebsiteProtectView {
  const { password_hash: hash, ...rest } = protect.authorization;
  return { ...protect, authorization: { ...rest, password_set: hash !== '' } };
}

/**
 * The stored protect settings after a post: a null password keeps the stored hash; a new one is
 * hashed by `hash` (the console passes @rampart/waf's hashAuthorizationPassword).
 */
export function mergeProtectInput(input: WebsiteProtectInput, stored: WebsiteProtect, hash: (password: string) => string): WebsiteProtect {
  const { password, ...rest } = input.authorization;
  return { ...input, authorization: { ...rest, password_hash: password === null ? stored.authorization.password_hash : hash(password) } };
}
