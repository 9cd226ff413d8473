import { attackKinds, clockMinutes, parseUploadTypes, type AttackKind, type SpiderName, type UploadTypes, type WebsiteSettings } from '@rampart/contracts';
import { buildAddressSet, expandAreas, type AddressSet } from './address-set.ts';
import { compileKeywords, type CompiledKeywords } from './keywords.ts';
import { buildTextList, type TextList } from './text-list.ts';

/** What the policy needs besides the site's settings: system-wide lists the console owns. */
export interface PolicyContext {
  /** The super whitelist (system settings), address entries. */
  superWhitelist: readonly string[];
  /** Common areas by id (system settings), for `common:<id>` in area lists. */
  commonAreas?: ReadonlyMap<number, readonly string[]>;
}

export interface IpAreaList {
  enabled: boolean;
  ips: AddressSet;
  areas: ReadonlySet<string>;
}

/** A settings object turned into matchers, once per settings change; every request reads it. */
export interface CompiledPolicy {
  settings: WebsiteSettings;
  superWhitelist: AddressSet;
  lists: {
    spider: { enabled: boolean; ips: AddressSet; spiders: SpiderName[]; fakeCheck: boolean; fakeMode: 'loose' | 'strict' };
    ipWhite: IpAreaList;
    ipBlack: IpAreaList;
    /**
     * URL whitelists match case-sensitively (on Linux /Admin and /admin are different resources,
     * and a whitelist must not open more than it names); blacklists ignore case so /ADMIN can't
     * slip past a ban on /admin.
     */
    urlWhite: TextList;
    urlBlack: TextList;
    uaWhite: TextList;
    uaBlack: TextList;
    refererWhite: TextList;
    refererBlack: TextList;
    malicious: IpAreaList & { anyArea: boolean };
  };
  deniedMethods: ReadonlySet<string>;
  headerRules: { header: string; maxBytes: number }[];
  /** Null: uploads are not restricted. */
  uploads: UploadTypes | null;
  fileTypes: { mode: 'allow' | 'deny'; rootOnly: boolean; extensions: ReadonlySet<string> } | null;
  hotlink: { extensions: ReadonlySet<string>; referers: string[]; emptyReferer: 'allow' | 'deny' } | null;
  timeLimits: { url: string; windows: { start: number; end: number }[] }[];
  keywords: CompiledKeywords;
  /** The detectors to run (sql tab's SQL injection plus the attack tab's kinds). */
  attackKinds: ReadonlySet<AttackKind>;
}

function ipAreaList(list: { enabled: boolean; ips: string[]; areas: string[] }, context: PolicyContext): IpAreaList {
  return { enabled: list.enabled, ips: buildAddressSet(list.ips), areas: expandAreas(list.areas, context.commonAreas ?? new Map()) };
}

export function compilePolicy(settings: WebsiteSettings, context: PolicyContext): CompiledPolicy {
  const { lists, request, protect } = settings;
  const kinds = new Set<AttackKind>();
  for (const kind of attackKinds) {
    const on = kind === 'sqli' ? settings.sql.sqli : settings.attack.kinds[kind];
    if (on) kinds.add(kind);
  }
  if (kinds.has('file_inclusion') && !settings.attack.file_inclusion.local && !settings.attack.file_inclusion.remote) kinds.delete('file_inclusion');
  return {
    settings,
    superWhitelist: buildAddressSet(context.superWhitelist),
    lists: {
      spider: { enabled: lists.spider.enabled, ips: buildAddressSet(lists.spider.ips), spiders: lists.spider.spiders, fakeCheck: lists.spider.fake_check, fakeMode: lists.spider.fake_mode },
      ipWhite: ipAreaList(lists.ip_white, context),
      ipBlack: ipAreaList(lists.ip_black, context),
      urlWhite: buildTextList(lists.url_white.enabled, lists.url_white.entries, true),
      urlBlack: buildTextList(lists.url_black.enabled, lists.url_black.entries, false),
      uaWhite: buildTextList(lists.ua_white.enabled, lists.ua_white.entries, false),
      uaBlack: buildTextList(lists.ua_black.enabled, lists.ua_black.entries, false),
      refererWhite: buildTextList(lists.referer_white.enabled, lists.referer_white.entries, false),
      refererBlack: buildTextList(lists.referer_black.enabled, lists.referer_black.entries, false),
      malicious: { ...ipAreaList(lists.malicious, context), anyArea: lists.malicious.areas.length === 0 },
    },
    deniedMethods: new Set(request.denied_methods.map((m) => m.toUpperCase())),
    headerRules: request.header_rules.filter((r) => r.enabled).map((r) => ({ header: r.header.toLowerCase(), maxBytes: r.max_bytes })),
    uploads: request.upload.enabled ? parseUploadTypes(request.upload.types) : null,
    fileTypes: request.file_types.enabled
      ? { mode: request.file_types.mode, rootOnly: request.file_types.scope === 'root', extensions: new Set(request.file_types.extensions.map((e) => e.toLowerCase())) }
      : null,
    hotlink: protect.hotlink.enabled
      ? { extensions: new Set(protect.hotlink.extensions.map((e) => e.toLowerCase())), referers: protect.hotlink.referers.map((d) => d.toLowerCase()), emptyReferer: protect.hotlink.empty_referer }
      : null,
    timeLimits: protect.time_limits
      .filter((rule) => rule.enabled)
      .map((rule) => ({ url: rule.url.toLowerCase(), windows: rule.windows.map((w) => ({ start: clockMinutes(w.start), end: clockMinutes(w.end) })) })),
    keywords: compileKeywords(settings.sql.keywords),
    attackKinds: kinds,
  };
}
