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
  /** A suggested origin for the gateway: the site's own proxy_pass, or the web server on loopback. */
  upstream_hint: z.string(),
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
