import { z } from 'zod';
import { parseAddressEntry } from './ip-address.ts';
import { websiteResponseSchema } from './website.ts';

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
  /** How much of a request body the engine reads (KiB); the rest streams through uninspected. */
  inspect_body_kb: z.number().int().min(0).max(65536).default(128),
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

export const gatewayConfigSchema = z
  .object({
    /** Worker processes; 0 or absent = one per core. */
    workers: z.number().int().min(0).max(256).default(0),
    timeouts: gatewayTimeoutsSchema.default({ header_ms: 20_000, idle_ms: 60_000, upstream_connect_ms: 5_000, upstream_response_ms: 60_000 }),
    /** A failing upstream is skipped for this long (passive health). */
    upstream_fail_ms: z.number().int().min(0).default(10_000),
    sites: z.array(gatewaySiteSchema).default([]),
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
