import { z } from 'zod';
import { hostAddressSchema } from './firewall.ts';
import { isIpAddress } from './validators.ts';
import { noQuerySchema } from './api.ts';
import { headerNameSchema, websiteRequestSchema, type WebsiteAttack, type WebsiteBase, type WebsiteProtectView, type WebsiteRequest, type WebsiteResponse, type WebsiteSql } from './website.ts';
import type { WebsiteAuthorEntry, WebsiteInterceptEntry, WebsiteLists } from './website-lists.ts';

/*
 * The console's website calls (spec section 7, `/website/...`), the shapes the web app reads.
 * The settings tabs post the schemas of website.ts (`websiteTabInputSchemas`); the timed lists use
 * website-lists.ts. This file adds the server tab (protected sites) and the small calls around it.
 *
 *   GET  /website/server                 → WebsiteServerList (query: none)
 *   POST /website/server                 add a site (body WebsiteSiteInput without id)      → { id }
 *   POST /website/server/edit            edit a site (body WebsiteSiteInput with id)
 *   POST /website/server_delete          { ids }
 *   POST /website/server_status          { ids, status } — one toggle, or "open all" (spec 4:
 *                                        module on + sites + none open → the web offers it)
 *   POST /website/server_running         { ids, running } — start or stop serving
 *   GET  /website/server/discover        → WebsiteDiscovery (local nginx / Apache sites; see below)
 *   GET/POST /website/{base,request,protect,sql,attack,response,lists}   the tab's view / input
 *   POST /website/request/content        { upload, file_types } — only the content part of the request tab
 *   POST /website/sql_getkeywords        → the three keyword libraries as stored (rule lines)
 *   GET  /website/attack_header          → { headers }; POST { headers }
 *   GET  /website/intercept_list, /website/author_list      (websiteTimedQuerySchema) → WebsiteTimedPage
 *   POST /website/intercept_list, /website/author_list      websiteTimedAddSchema (ips, minutes, remark)
 *   POST /website/intercept_list_delete, /website/author_list_delete   websiteTimedDeleteSchema
 *
 * Every successful change answers `data.gateway` (WebsiteGatewayReport): whether the gateway took
 * the new configuration. A refusal comes back as code 1 (warning) with the gateway's reason: the
 * change is saved, the gateway keeps running its previous configuration.
 */

const siteName = z.string({ message: 'wapi_name_required' }).trim().min(1, 'wapi_name_required').max(200, 'wapi_name_too_long');

/** A listener: an IP address to bind and a port; `tls` serves HTTPS with the site's certificate. */
export const websiteListenInputSchema = z
  .object({
    address: z.string({ message: 'wapi_listen_address_invalid' }).trim().refine(isIpAddress, 'wapi_listen_address_invalid'),
    port: z.number({ message: 'wapi_port_invalid' }).int('wapi_port_invalid').min(1, 'wapi_port_invalid').max(65535, 'wapi_port_invalid'),
    tls: z.boolean(),
  })
  .strict();
export type WebsiteListenInput = z.infer<typeof websiteListenInputSchema>;

/** An origin: http(s)://host[:port], no path or query (the request keeps its own). */
export function isUpstreamUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && (u.pathname === '/' || u.pathname === '') && !u.search && !u.hash && !u.username && !u.password;
  } catch {
    return false;
  }
}
export const upstreamUrlSchema = z.string({ message: 'wapi_upstream_invalid' }).trim().max(300, 'wapi_upstream_invalid').refine(isUpstreamUrl, 'wapi_upstream_invalid');

/** A host name the site answers to; `*.example.com` for every subdomain. */
export const serverNameSchema = z
  .string({ message: 'wapi_server_name_invalid' })
  .trim()
  .toLowerCase()
  .refine((value) => {
    const name = value.startsWith('*.') ? value.slice(2) : value;
    return name.length > 0 && name.length <= 253 && name.split('.').every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label));
  }, 'wapi_server_name_invalid');

const pemText = (message: string, label: string) =>
  z.string({ message }).trim().max(32_000, message).refine((text) => text === '' || (text.includes(`-----BEGIN`) && text.includes(label) && text.includes('-----END')), message);

export const websiteSiteInputSchema = z
  .object({
    /** Absent: a new site. */
    id: z.number().int().positive().optional(),
    name: siteName,
    status: z.enum(['on', 'off'], { message: 'wapi_status_invalid' }),
    running: z.boolean(),
    listen: z.array(websiteListenInputSchema).min(1, 'wapi_listen_required').max(20, 'web_too_many'),
    server_names: z.array(serverNameSchema).max(100, 'web_too_many'),
    upstreams: z.array(upstreamUrlSchema).min(1, 'wapi_upstream_required').max(20, 'web_too_many'),
    /** PEM certificate chain for the TLS listeners; '' when none is TLS. */
    tls_cert: pemText('wapi_cert_invalid', 'CERTIFICATE'),
    /** PEM private key; null keeps the stored one (it is never sent back). */
    tls_key: pemText('wapi_key_invalid', 'PRIVATE KEY').nullable(),
    /** Proxies / CDNs whose X-Forwarded-For is believed (addresses or CIDRs). */
    trusted_proxies: z.array(z.string({ message: 'fw_address_invalid' }).trim().max(100, 'fw_address_invalid')).max(200, 'web_too_many'),
  })
  .strict()
  .superRefine((site, ctx) => {
    const seen = new Set<string>();
    site.listen.forEach((l, index) => {
      const key = `${l.address}:${l.port}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', message: 'has_duplicates', path: ['listen', index, 'port'] });
      seen.add(key);
    });
    if (site.listen.some((l) => l.tls) && site.tls_cert === '') ctx.addIssue({ code: 'custom', message: 'wapi_cert_required', path: ['tls_cert'] });
  });
export type WebsiteSiteInput = z.infer<typeof websiteSiteInputSchema>;

/** A site as the server tab lists it (the key never leaves the console). */
export interface WebsiteSiteView {
  id: number;
  name: string;
  status: 'on' | 'off';
  running: boolean;
  listen: WebsiteListenInput[];
  server_names: string[];
  upstreams: string[];
  tls_cert: string;
  /** A private key is stored. */
  tls_key_set: boolean;
  trusted_proxies: string[];
  created_at: number;
  updated_at: number;
}

/** What the gateway said about the latest configuration. */
export interface WebsiteGatewayReport {
  /**
   * The file is always written first. reloaded: a running gateway took it; not_running: no gateway
   * listens (it reads the file when it starts); refused: it kept the old one (reason says why);
   * unreachable: its admin socket exists but is not open to the console (reason says why).
   */
  state: 'reloaded' | 'not_running' | 'refused' | 'unreachable';
  reason?: string;
}

export interface WebsiteServerList {
  list: WebsiteSiteView[];
  /** At least one site is on (spec: module on + sites + none open → offer to open all). */
  is_any_open: boolean;
  total: number;
}

const siteIds = z.array(z.number({ message: 'fw_select_items' }).int().positive()).min(1, 'fw_select_items').max(1000, 'web_too_many');
export const websiteSiteIdsSchema = z.object({ ids: siteIds }).strict();
export const websiteSiteStatusSchema = z.object({ ids: siteIds, status: z.enum(['on', 'off'], { message: 'wapi_status_invalid' }) }).strict();
export const websiteSiteRunningSchema = z.object({ ids: siteIds, running: z.boolean({ message: 'bad_request' }) }).strict();

/* GET /website/server/discover answers WebsiteDiscovery (website-agent.ts: the agent call's result). */

/** POST /website/request/content: the content rules of the request tab. */
export const websiteRequestContentSchema = websiteRequestSchema.pick({ upload: true, file_types: true });
export type WebsiteRequestContent = z.infer<typeof websiteRequestContentSchema>;

/** GET/POST /website/attack_header: the headers the detectors read. */
export const websiteAttackHeadersSchema = z.object({ headers: z.array(headerNameSchema).max(50, 'web_too_many') }).strict();
export const websiteAttackHeaderQuerySchema = noQuerySchema;

export type WebsiteTabViews = {
  base: WebsiteBase;
  request: WebsiteRequest;
  protect: WebsiteProtectView;
  sql: WebsiteSql;
  attack: WebsiteAttack;
  response: WebsiteResponse;
  lists: WebsiteLists;
};

export interface WebsiteTimedPage<Entry extends WebsiteInterceptEntry | WebsiteAuthorEntry> {
  list: Entry[];
  total: number;
}

/** An address the timed lists accept (re-exported for the web form). */
export const websiteTimedIpSchema = hostAddressSchema;
