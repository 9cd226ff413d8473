import { z } from 'zod';
import { addressEntrySchema, blockMinutesSchema, hostAddressSchema, ruleAreaSchema } from './firewall.ts';
import { keywordParam, pageSizeParam, positiveIntParam, stampParam } from './query-params.ts';

/*
 * The website protection's lists tab, and the two lists of addresses with an end time
 * (intercept_list, author_list). The order they are read in is the spec's, exactly:
 *   super whitelist > spider whitelist > IP whitelist > URL whitelist > UA whitelist >
 *   referer whitelist > IP blacklist > URL blacklist > UA blacklist > referer blacklist >
 *   malicious IP blacklist > authorization list > interception list
 * (evaluated by @rampart/waf policy/lists.ts).
 */

/** Search engines whose crawlers the spider whitelist can let through, verified by reverse and forward DNS. */
export const knownSpiders = {
  baidu: { ua: 'baiduspider', domains: ['baidu.com', 'baidu.jp'] },
  google: { ua: 'googlebot', domains: ['googlebot.com', 'google.com', 'googleusercontent.com'] },
  bing: { ua: 'bingbot', domains: ['search.msn.com'] },
  sogou: { ua: 'sogou web spider', domains: ['sogou.com'] },
  so360: { ua: '360spider', domains: ['360.cn', 'so.com'] },
  shenma: { ua: 'yisouspider', domains: ['sm.cn'] },
  yandex: { ua: 'yandexbot', domains: ['yandex.ru', 'yandex.net', 'yandex.com'] },
  bytedance: { ua: 'bytespider', domains: ['bytedance.com'] },
} as const satisfies Record<string, { ua: string; domains: readonly string[] }>;
export type SpiderName = keyof typeof knownSpiders;
export const spiderNames = Object.keys(knownSpiders) as SpiderName[];

/** A URL part as the URL lists and time-limited rules match it: partial, on the decoded path and query. */
export const urlPatternSchema = z.string({ message: 'web_url_required' }).trim().min(1, 'web_url_required').max(2048, 'web_url_too_long');

const textEntry = z.string({ message: 'web_entry_invalid' }).trim().min(1, 'web_entry_invalid').max(512, 'web_entry_invalid');
const maxEntries = 10_000;

/** URL lists match partially (spec), on the decoded path and query. */
const urlList = z.object({ enabled: z.boolean(), entries: z.array(urlPatternSchema).max(maxEntries, 'web_too_many') }).strict();
/** An IP-or-area list: addresses (single, CIDR, range, `*`) and areas (country, province, common area). */
const ipAreaList = z
  .object({ enabled: z.boolean(), ips: z.array(addressEntrySchema).max(maxEntries, 'fw_too_many_addresses'), areas: z.array(ruleAreaSchema).max(300, 'fw_too_many_areas') })
  .strict();
/** User-agent and referer lists match partially too, ignoring case. */
const textList = z.object({ enabled: z.boolean(), entries: z.array(textEntry).max(maxEntries, 'web_too_many') }).strict();

export const websiteListsSchema = z
  .object({
    url_white: urlList,
    url_black: urlList,
    ip_white: ipAreaList,
    ip_black: ipAreaList,
    ua_white: textList,
    ua_black: textList,
    referer_white: textList,
    referer_black: textList,
    /**
     * Addresses of crawlers to let through, and the search engines whose crawlers are recognised by
     * their user agent. A request that claims one of them from an address not listed is checked by
     * reverse DNS (the name must end in one of the engine's domains) and forward DNS (the name must
     * resolve back to the address); one that fails is a fake spider: loose = human verification,
     * strict = block (the spec's meaning of loose and strict).
     */
    spider: z
      .object({
        enabled: z.boolean(),
        ips: z.array(addressEntrySchema).max(maxEntries, 'fw_too_many_addresses'),
        spiders: z
          .array(z.enum(spiderNames as [SpiderName, ...SpiderName[]], { message: 'web_spider_invalid' }))
          .refine((list) => new Set(list).size === list.length, 'has_duplicates'),
        fake_check: z.boolean(),
        fake_mode: z.enum(['loose', 'strict'], { message: 'web_mode_invalid' }),
      })
      .strict(),
    /**
     * Known malicious addresses (listed here, or reported by a reputation feed the gateway loads),
     * blocked when they come from one of `areas` (empty: from anywhere).
     */
    malicious: z
      .object({ enabled: z.boolean(), ips: z.array(addressEntrySchema).max(100_000, 'fw_too_many_addresses'), areas: z.array(ruleAreaSchema).max(300, 'fw_too_many_areas') })
      .strict(),
  })
  .strict();
export type WebsiteLists = z.infer<typeof websiteListsSchema>;

const emptyUrl = { enabled: false, entries: [] };
const emptyIp = { enabled: false, ips: [], areas: [] };
export const defaultWebsiteLists: WebsiteLists = {
  url_white: emptyUrl,
  url_black: emptyUrl,
  ip_white: emptyIp,
  ip_black: emptyIp,
  ua_white: emptyUrl,
  ua_black: emptyUrl,
  referer_white: emptyUrl,
  referer_black: emptyUrl,
  spider: { enabled: true, ips: [], spiders: [...spiderNames], fake_check: true, fake_mode: 'strict' },
  malicious: { enabled: false, ips: [], areas: [] },
};

/* intercept_list and author_list: addresses with an end time. */

export const websiteInterceptReasons = ['cc', 'scan_404', 'attack', 'fake_spider', 'manual'] as const;
export const websiteAuthorReasons = ['password', 'manual'] as const;

const timedEntryShape = {
  ip: z.string(),
  /** When it was added, ms. */
  created_at: z.number().int(),
  /** Evidence, or the administrator's remark. */
  detail: z.string(),
  expires_at: z.number().int(),
};
export const websiteInterceptEntrySchema = z.object({ ...timedEntryShape, reason: z.enum(websiteInterceptReasons) });
export type WebsiteInterceptEntry = z.infer<typeof websiteInterceptEntrySchema>;
export const websiteAuthorEntrySchema = z.object({ ...timedEntryShape, reason: z.enum(websiteAuthorReasons) });
export type WebsiteAuthorEntry = z.infer<typeof websiteAuthorEntrySchema>;

/** Adding addresses by hand to either list: for `minutes` from now. */
export const websiteTimedAddSchema = z
  .object({
    ips: z.array(hostAddressSchema).min(1, 'fw_address_required').max(1000, 'fw_too_many_addresses'),
    minutes: blockMinutesSchema,
    remark: z.string().trim().max(200, 'remark_too_long').default(''),
  })
  .strict();
export const websiteTimedDeleteSchema = z.object({ ips: z.array(hostAddressSchema).min(1, 'fw_select_items').max(10_000, 'fw_too_many_addresses') }).strict();

/** GET intercept_list / author_list: a page, optionally filtered by an address fragment. */
export const websiteTimedQuerySchema = z
  .object({ keyword: keywordParam, page: positiveIntParam('bad_request').optional(), size: pageSizeParam, ...stampParam })
  .strict();
