import { z } from 'zod';
import { parseAddressEntry } from './ip-address.ts';
import { websiteResponseSchema, websiteSettingsSchema } from './website.ts';
import { trojanLibrarySchema } from './trojan.ts';
import { websiteAuthorEntrySchema, websiteInterceptEntrySchema } from './website-lists.ts';

/*
 * The website gateway's desired state (issue 6): which sites it fronts, where it listens, where it
 * forwards. The agent (or an operator) writes it as one JSON file; the gateway reads it at start,
 * on SIGHUP and on the admin socket's `reload`, and refuses a file this schema rejects (the old
 * configuration keeps running). The engine's settings groups are not here: they travel with the
 * engine's own configuration.
 */

/** PEM text, checked only for its armour: node:tls gives the precise reason when it loads it. */
const pem = (label: string) =>
  z.string().refine((text) => text.includes('-----BEGIN') && text.includes('-----END'), `${label} is not PEM text`);

export const gatewayTlsSchema = z.object({ cert: pem('cert'), key: pem('key') });

export const gatewayListenSchema = z.object({
  /** An IP address to bind ('0.0.0.0', '::', '127.0.0.1'). */
  address: z.string().refine((a) => parseAddressEntry(a)?.kind === 'host', 'not an IP address'),
  port: z.number().int().min(1).max(65535),
  tls: gatewayTlsSchema.optional(),
});
export type GatewayListen = z.infer<typeof gatewayListenSchema>;

export const gatewayUpstreamSchema = z.object({
  /** The origin, http(s)://host:port with no path: the request's own path is kept. */
  url: z.string().refine((raw) => {
    try {
      const u = new URL(raw);
      return (u.protocol === 'http:' || u.protocol === 'https:') && (u.pathname === '/' || u.pathname === '') && !u.search;
    } catch {
      return false;
    }
  }, 'upstream must be http(s)://host:port'),
});

export const gatewaySiteSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(200),
  /** off = traffic passes through without inspection. */
  status: z.enum(['on', 'off']),
  /** Stopped sites are not served at all: their listeners close (spec: running or stopped). */
  running: z.boolean().default(true),
  listen: z.array(gatewayListenSchema).min(1),
  /** Host names this site answers to; `*.example.com` matches subdomains; empty = any host on its listeners. */
  server_names: z.array(z.string().min(1).max(253)).default([]),
  upstreams: z.array(gatewayUpstreamSchema).min(1),
  /** Send the client's Host to the origin (true) or the upstream's host:port (false). */
  preserve_host: z.boolean().default(true),
  /** CIDRs or addresses of proxies/CDNs whose X-Forwarded-For and X-Real-IP are believed. */
  trusted_proxies: z.array(z.string().refine((e) => parseAddressEntry(e) !== null, 'not an address or CIDR')).default([]),
  /** Add a `Via: 1.1 rampart` header both ways. */
  via: z.boolean().default(false),
  /** The engine's block mode (spec: loose blocks clear attacks, strict suspicious ones too). */
  block_mode: z.enum(['loose', 'strict']).default('loose'),
  /**
   * How much of a request body the engine reads before deciding (KiB); the rest streams through.
   * The default matches the engine's own read (1 MiB); a larger window is read whole by the engine
   * (apps/gateway body-limits.ts). A form, JSON or XML body longer than the window is a finding of
   * its own (strict blocks it; packages/waf protocol/unread.ts). A multipart upload is
   * read on as it streams (text fields, file names, file heads) and judged again before its last
   * bytes reach the origin (apps/gateway upload-tail.ts).
   */
  inspect_body_kb: z.number().int().min(0).max(65536).default(1024),
  /** The response settings group of the site (website.ts): default 403 with the standard page. */
  block_response: websiteResponseSchema.default({ type: 'standard', status: 403, redirect_url: '', content: '' }),
});
export type GatewaySite = z.infer<typeof gatewaySiteSchema>;

export const gatewayTimeoutsSchema = z.object({
  /** Client must send its full request head within this (slowloris). */
  header_ms: z.number().int().min(100).default(20_000),
  /** A client or upstream connection silent this long is closed. */
  idle_ms: z.number().int().min(100).default(60_000),
  /** Connecting to an upstream may take this long before the attempt counts as failed (502). */
  upstream_connect_ms: z.number().int().min(50).default(5_000),
  /** The upstream must start answering (and keep sending) within this, else 504. */
  upstream_response_ms: z.number().int().min(100).default(60_000),
});

/*
 * The engine's policy (issue 6, second part). The settings groups are module-wide (the spec's tabs
 * carry no site), so one policy serves every site; each site keeps its own block mode and response
 * above, and its own CC / 404 counters in the gateway. The console writes it into the same file as
 * the sites, so one reload swaps both at once.
 */

/** The two lists of addresses with an end time, as the gateway starts with them. */
export const gatewayTimedListsSchema = z.object({
  intercepted: z.array(websiteInterceptEntrySchema).max(200_000).default([]),
  authorized: z.array(websiteAuthorEntrySchema).max(200_000).default([]),
});
export type GatewayTimedLists = z.infer<typeof gatewayTimedListsSchema>;

export const gatewayPolicySchema = z.object({
  /** Every settings group as stored (the authorization password only as its scrypt hash). */
  settings: websiteSettingsSchema,
  /** The system's super whitelist, entries active now (addresses, CIDRs, ranges). */
  super_whitelist: z.array(z.string().max(100)).max(200_000).default([]),
  /** Common areas (system settings) for `common:<id>` in area lists. */
  common_areas: z.array(z.object({ id: z.number().int(), members: z.array(z.string().max(16)).max(400) })).max(10_000).default([]),
  /** Key of the CC human-verification pass cookie and the authorization page's form token (hex, 32 bytes). */
  cookie_secret: z.string().regex(/^[0-9a-f]{64}$/, 'cookie_secret must be 64 hex digits'),
  timed: gatewayTimedListsSchema.default({ intercepted: [], authorized: [] }),
  /**
   * The trojan module's custom library (the administrator's YARA rules and SHA-256 lines, as the
   * agent stores them), for the upload scan. Absent (an older file, or no library): built-in rules only.
   */
  custom_library: trojanLibrarySchema.optional(),
});
export type GatewayPolicy = z.infer<typeof gatewayPolicySchema>;

/**
 * One thing the gateway did that the console must know: a blocked, recorded or challenged request
 * (with its snapshot when snapshots are on), or an address it put on one of its timed lists by
 * itself (CC strict, 404 scan, fake spider) or let in by the authorization password. The primary
 * buffers them; the console drains them over the admin socket (`events`) into the event store, the
 * photo log and its own copy of the timed lists.
 */
export const gatewayEventSchema = z.object({
  type: z.enum(['block', 'record', 'challenge', 'intercept', 'authorize']),
  site_id: z.string().max(64),
  /** Shown on the detailed block page, so a visitor's report can be found. */
  incident_id: z.string().max(64),
  at: z.number().int(),
  client_ip: z.string().max(64),
  method: z.string().max(32),
  /** The raw request target, cut at 4096 characters. */
  target: z.string().max(4096),
  host: z.string().max(300),
  /** Which settings group or detector decided, e.g. 'lists.ip_black', 'sqli.tautology', 'protect.cc'. */
  rule: z.string().max(120),
  /** The attack kind, or 'policy' for a settings group. */
  kind: z.string().max(40),
  location: z.string().max(20).optional(),
  name: z.string().max(200).optional(),
  evidence: z.string().max(200).optional(),
  /** The client's area (country or CN-xx) when known. */
  area: z.string().max(16).nullable().default(null),
  /** The alert settings (area, methods) say this one is to be sent as an alert. */
  alert: z.boolean().default(false),
  /** The request as seen, cut at the snapshot size limit; absent when snapshots are off. */
  snapshot: z.object({ headers: z.string().max(16_384), body: z.string().max(1_000_000) }).optional(),
  /** For `intercept`: the entry added to the interception list. */
  intercept: websiteInterceptEntrySchema.optional(),
  /** For `authorize`: the entry added to the authorization list. */
  author: websiteAuthorEntrySchema.optional(),
});
export type GatewayEventRecord = z.infer<typeof gatewayEventSchema>;

/** Answer of the admin command `events`: what was buffered (oldest first, at most 1000) and how many were lost to a full buffer. */
export const gatewayEventDrainSchema = z.object({ ok: z.literal(true), events: z.array(gatewayEventSchema), dropped: z.number().int(), more: z.boolean() });
export type GatewayEventDrain = z.infer<typeof gatewayEventDrainSchema>;

/**
 * Admin command `timed <json>`: a change of a timed list made in the console (by hand), applied
 * by the running gateway at once without a reload. `add` replaces an address's entry.
 */
export const gatewayTimedCommandSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add'), list: z.enum(['intercepted', 'authorized']), entries: z.array(z.union([websiteInterceptEntrySchema, websiteAuthorEntrySchema])).min(1).max(10_000) }),
  z.object({ op: z.literal('remove'), list: z.enum(['intercepted', 'authorized']), ips: z.array(z.string().max(64)).min(1).max(10_000) }),
]);
export type GatewayTimedCommand = z.infer<typeof gatewayTimedCommandSchema>;

export const gatewayConfigSchema = z
  .object({
    /** Worker processes; 0 or absent = one per core. */
    workers: z.number().int().min(0).max(256).default(0),
    timeouts: gatewayTimeoutsSchema.default({ header_ms: 20_000, idle_ms: 60_000, upstream_connect_ms: 5_000, upstream_response_ms: 60_000 }),
    /** A failing upstream is skipped for this long (passive health). */
    upstream_fail_ms: z.number().int().min(0).default(10_000),
    sites: z.array(gatewaySiteSchema).default([]),
    /** Absent: attack detection only, with each site's block mode (the settings groups' defaults do not apply). */
    policy: gatewayPolicySchema.optional(),
  })
  .superRefine((config, ctx) => {
    const ids = new Set<string>();
    for (const site of config.sites) {
      if (ids.has(site.id)) ctx.addIssue({ code: 'custom', message: `duplicate site id ${site.id}`, path: ['sites'] });
      ids.add(site.id);
    }
    // A port is plain or TLS, never both: one socket can't speak both.
    const tlsByPort = new Map<string, boolean>();
    for (const site of config.sites) {
      for (const l of site.listen) {
        const key = `${l.address}:${l.port}`;
        const tls = l.tls !== undefined;
        if (tlsByPort.has(key) && tlsByPort.get(key) !== tls) {
          ctx.addIssue({ code: 'custom', message: `${key} is TLS for one site and plain for another`, path: ['sites'] });
        }
        tlsByPort.set(key, tls);
      }
    }
  });
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
