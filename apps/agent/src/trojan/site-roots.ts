import { discoverLocalSites } from '@rampart/web-discovery';
import type { DiscoveryCommands } from '../website/discovered-sites.ts';

/** A local web site's document root, offered as a protected directory. */
export interface SiteRoot {
  site: string;
  path: string;
}

/** The local nginx and Apache sites' roots (the website module's discovery), one row per distinct root. */
export async function discoverSiteRoots(commands: DiscoveryCommands = {}): Promise<SiteRoot[]> {
  const sites = await discoverLocalSites(commands);
  const roots: SiteRoot[] = [];
  const seen = new Set<string>();
  for (const site of sites) {
    const root = site.root;
    if (!root || !root.startsWith('/') || root.includes('$')) continue;
    const path = root.replace(/\/+$/, '') || '/';
    if (seen.has(path)) continue;
    seen.add(path);
    roots.push({ site: site.name, path });
  }
  return roots;
}
