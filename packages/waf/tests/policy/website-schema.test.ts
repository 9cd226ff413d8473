import { describe, expect, it } from 'vitest';
import {
  defaultWebsiteSettings,
  isAuthorizationPassword,
  isMessageKey,
  messages,
  parseUploadTypes,
  websiteAuthorizationInputSchema,
  websiteBaseSchema,
  websiteListsSchema,
  websiteProtectSchema,
  websiteRequestSchema,
  websiteResponseSchema,
  websiteSettingsSchema,
  websiteSqlSchema,
  websiteTimedAddSchema,
  websiteTimedQuerySchema,
  websiteProtectInputSchema,
  mergeProtectInput,
  protectView,
  type WebsiteSettings,
} from '@rampart/contracts';
import { attackKinds } from '../../src/types.ts';

/** The message keys of a failed parse (every one must exist in both languages). */
function issues(result: { success: boolean; error?: { issues: { message: string }[] } }): string[] {
  expect(result.success).toBe(false);
  const keys = result.error!.issues.map((i) => i.message);
  for (const key of keys) {
    expect(isMessageKey(key), key).toBe(true);
    expect(messages['zh-CN'][key as keyof (typeof messages)['zh-CN']]).toBeTruthy();
    expect(messages['en-US'][key as keyof (typeof messages)['en-US']]).toBeTruthy();
  }
  return keys;
}

function clone(edit: (s: WebsiteSettings) => void): unknown {
  const s = structuredClone(defaultWebsiteSettings);
  edit(s);
  return s;
}

describe('website settings schema', () => {
  it('accepts the defaults, which answer 403 with the standard error', () => {
    const parsed = websiteSettingsSchema.parse(defaultWebsiteSettings);
    expect(parsed.response).toEqual({ type: 'standard', status: 403, redirect_url: '', content: '' });
  });

  it('waf re-exports the canonical attack kinds of contracts, same names', () => {
    expect(attackKinds).toContain('sqli');
    expect(attackKinds).toContain('webshell_upload');
    expect(Object.keys(defaultWebsiteSettings.attack.kinds).sort()).toEqual(attackKinds.filter((k) => k !== 'sqli').sort());
  });

  it('an attack row saved before a kind existed still parses: the new kind is on, the saved switches stay', () => {
    const saved = structuredClone(defaultWebsiteSettings.attack) as { kinds: Record<string, boolean> };
    delete saved.kinds.graphql;
    saved.kinds.xss = false;
    const parsed = websiteSettingsSchema.shape.attack.parse(saved);
    expect(parsed.kinds.graphql).toBe(true);
    expect(parsed.kinds.xss).toBe(false);
    // A value of the wrong type is still refused.
    expect(websiteSettingsSchema.shape.attack.safeParse({ ...saved, kinds: { ...saved.kinds, graphql: 'yes' } }).success).toBe(false);
  });

  it('refuses bad values of every tab with a message key known in both languages', () => {
    const cases: [unknown, string][] = [
      [clone((s) => void (s.base.block_mode = 'medium' as never)), 'web_mode_invalid'],
      [clone((s) => void (s.base.snapshot.retention_days = 0)), 'web_retention_invalid'],
      [clone((s) => void (s.base.cookie.same_site = 'none' as never)), 'web_same_site_invalid'],
      [clone((s) => void (s.base.frame_options = { mode: 'allow_from', domains: [] })), 'web_frame_domains_required'],
      [clone((s) => void (s.base.frame_options = { mode: 'allow_from', domains: ['exa mple.com'] })), 'web_domain_invalid'],
      [clone((s) => void (s.request.denied_methods = ['GE T'])), 'web_method_invalid'],
      [clone((s) => void (s.request.limits.url_bytes = -1)), 'web_size_invalid'],
      [clone((s) => void (s.request.limits.post_bytes = 1.5)), 'web_size_invalid'],
      [clone((s) => void (s.request.header_rules = [{ id: 1, enabled: true, header: 'bad header', max_bytes: 10 }])), 'web_header_invalid'],
      [clone((s) => void (s.request.header_rules = [{ id: 1, enabled: true, header: '*', max_bytes: 0 }])), 'web_header_limit_invalid'],
      [clone((s) => void (s.request.upload.types = 'jpg,p.ng')), 'web_upload_types_invalid'],
      [clone((s) => void (s.request.file_types.scope = 'some' as never)), 'web_file_scope_invalid'],
      [clone((s) => void (s.protect.cc.verification = 'captcha' as never)), 'web_verification_invalid'],
      [clone((s) => void (s.protect.cc.per_minute = 0)), 'fw_frequency_range'],
      [clone((s) => void (s.protect.time_limits = [{ id: 1, enabled: true, url: '/admin', windows: [{ start: '18:00', end: '08:00' }] }])), 'web_window_order'],
      [clone((s) => void (s.protect.time_limits = [{ id: 1, enabled: true, url: '/admin', windows: [{ start: '8:00', end: '18:00' }] }])), 'web_time_invalid'],
      [clone((s) => void (s.protect.time_limits = [{ id: 1, enabled: true, url: '/admin', windows: [] }])), 'web_window_required'],
      [clone((s) => void (s.sql.keywords.block.rules = ['a++'])), 'web_keyword_syntax'],
      [clone((s) => void (s.sql.keywords.block.rules = ['a==b'])), 'web_keyword_syntax'],
      [clone((s) => void (s.sql.keywords.filter.rules = ['a==b==c'])), 'web_keyword_syntax'],
      [clone((s) => void (s.sql.keywords.record.rules = ['x'.repeat(101)])), 'web_keyword_too_long'],
      [clone((s) => void (s.response = { type: 'redirect', status: 403, redirect_url: 'javascript:alert(1)', content: '' })), 'web_redirect_invalid'],
      [clone((s) => void (s.response = { type: 'custom', status: 403, redirect_url: '', content: '  ' })), 'web_content_required'],
      [clone((s) => void (s.response.status = 99)), 'web_status_invalid'],
      [clone((s) => void (s.lists.ip_black.ips = ['10.0.0.1/8'])), 'fw_address_invalid'],
      [clone((s) => void (s.lists.ip_black.areas = ['XX-YY'])), 'area_invalid'],
      [clone((s) => void (s.lists.spider.spiders = ['altavista' as never])), 'web_spider_invalid'],
      [clone((s) => void (s.lists.url_black.entries = [' '])), 'web_url_required'],
      [clone((s) => void (s.base.alert.methods = ['email', 'email'])), 'has_duplicates'],
      [clone((s) => void (s.lists.spider.spiders = ['google', 'google'])), 'has_duplicates'],
    ];
    for (const [value, key] of cases) expect(issues(websiteSettingsSchema.safeParse(value)), key).toContain(key);
  });

  it('accepts good values of each tab', () => {
    expect(websiteBaseSchema.safeParse({ ...defaultWebsiteSettings.base, frame_options: { mode: 'allow_from', domains: ['Partner.example', '*.cdn.example'] } }).success).toBe(true);
    const request = websiteRequestSchema.parse({ ...defaultWebsiteSettings.request, denied_methods: ['put', 'PROPFIND'], header_rules: [{ id: 1, enabled: true, header: 'User-Agent', max_bytes: 512 }] });
    expect(request.denied_methods).toEqual(['PUT', 'PROPFIND']);
    expect(request.header_rules[0]!.header).toBe('user-agent');
    expect(websiteProtectSchema.safeParse({ ...defaultWebsiteSettings.protect, time_limits: [{ id: 1, enabled: true, url: '/admin', windows: [{ start: '00:00', end: '24:00' }] }] }).success).toBe(true);
    expect(websiteSqlSchema.safeParse({ sqli: true, keywords: { block: { enabled: true, rules: ['casino--casino royale', 'a++b++c'] }, filter: { enabled: true, rules: ['bad==good', 'worse'] }, record: { enabled: true, rules: ['x'] } } }).success).toBe(true);
    expect(websiteResponseSchema.safeParse({ type: 'redirect', status: 302, redirect_url: '/blocked.html', content: '' }).success).toBe(true);
    expect(websiteListsSchema.safeParse({ ...defaultWebsiteSettings.lists, ip_white: { enabled: true, ips: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.1-192.0.2.9', '*'], areas: ['CN-GD', 'US', 'common:3'] } }).success).toBe(true);
    expect(websiteTimedAddSchema.parse({ ips: ['192.0.2.1'], minutes: 10 }).remark).toBe('');
  });

  it('authorization password: 8-50 bytes, not all digits, not all letters, case kept', () => {
    expect(isAuthorizationPassword('abc12345')).toBe(true);
    expect(isAuthorizationPassword('abc1234')).toBe(false);
    expect(isAuthorizationPassword('12345678')).toBe(false);
    expect(isAuthorizationPassword('abcdEFGH')).toBe(false);
    expect(isAuthorizationPassword('密码密码12')).toBe(true); // 14 bytes
    expect(isAuthorizationPassword('密'.repeat(16) + 'a1')).toBe(true); // 50 bytes
    expect(isAuthorizationPassword('密'.repeat(17))).toBe(false); // 51 bytes
    expect(issues(websiteAuthorizationInputSchema.safeParse({ enabled: true, validity_minutes: 60, password: '12345678' }))).toEqual(['web_auth_password_invalid']);
    expect(websiteAuthorizationInputSchema.parse({ enabled: true, validity_minutes: 60, password: null }).password).toBeNull();
  });

  it('protect tab: posts a password (or null to keep), stores only the hash, never shows it', () => {
    const input = websiteProtectInputSchema.parse({ ...defaultWebsiteSettings.protect, authorization: { enabled: true, validity_minutes: 15, password: 'Abcd1234' } });
    const stored = mergeProtectInput(input, defaultWebsiteSettings.protect, (p) => `h(${p})`);
    expect(stored.authorization).toEqual({ enabled: true, validity_minutes: 15, password_hash: 'h(Abcd1234)' });
    const kept = mergeProtectInput({ ...input, authorization: { ...input.authorization, password: null } }, stored, () => 'never');
    expect(kept.authorization.password_hash).toBe('h(Abcd1234)');
    expect(protectView(stored).authorization).toEqual({ enabled: true, validity_minutes: 15, password_set: true });
    expect(JSON.stringify(protectView(stored))).not.toContain('h(Abcd1234)');
    // Strict: a posted hash is refused rather than stored.
    expect(websiteProtectInputSchema.safeParse({ ...input, authorization: { ...input.authorization, password_hash: 'x' } }).success).toBe(false);
    expect(websiteTimedQuerySchema.parse({ page: '2', size: '20' })).toEqual({ page: 2, size: 20 });
  });

  it('upload types: * all, blank none, empty token = no extension', () => {
    expect(parseUploadTypes('*')).toEqual({ kind: 'all' });
    expect(parseUploadTypes('  ')).toEqual({ kind: 'none' });
    const list = parseUploadTypes('JPG, .png,');
    expect(list).toEqual({ kind: 'list', extensions: new Set(['jpg', 'png', '']) });
    expect(parseUploadTypes('jpg;png')).toBeNull();
  });
});
