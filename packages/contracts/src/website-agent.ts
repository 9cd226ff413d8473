import { z } from 'zod';

/*
 * The website protection's agent calls. Finding the local nginx / Apache sites runs `nginx -T` and
 * `apachectl -S`, which read configuration only root may read (TLS keys, included files): a
 * privileged job, so the agent does it and the console asks.
 */

/** A site found in the local web server's configuration, offered for protection. */
export const websiteDiscoveredSiteSchema = z.object({
  server: z.enum(['nginx', 'apache']),
  name: z.string(),
  server_names: z.array(z.string()),
  /** Where the web server listens today; the gateway would take this over. */
  listen: z.array(z.object({ address: z.string(), port: z.number().int(), tls: z.boolean() })),
  /**
   * A suggested origin for the gateway: the site's own proxy_pass, or the web server moved to a free
   * loopback port (never the listener the gateway takes: that would be the gateway itself).
   */
  upstream_hint: z.string(),
  /**
   * What the administrator changes in the web server before saving, when the origin is the web
   * server itself: its listener `from` (which the gateway takes) moves to `to` (loopback; plain
   * HTTP there when `tls`, the gateway serving the certificate). Null when the site already proxies.
   */
  origin_move: z.object({ from: z.string(), to: z.string(), tls: z.boolean() }).nullable(),
  /** file:line of the server block / virtual host. */
  source: z.string(),
});
export type WebsiteDiscoveredSite = z.infer<typeof websiteDiscoveredSiteSchema>;
export const websiteDiscoverySchema = z.object({ sites: z.array(websiteDiscoveredSiteSchema) });
export type WebsiteDiscovery = z.infer<typeof websiteDiscoverySchema>;

export const websiteAgentParams = {
  'website.discover': z.object({}).strict(),
} as const;

export const websiteAgentResults = {
  'website.discover': websiteDiscoverySchema,
} as const;
