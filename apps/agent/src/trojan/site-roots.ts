import { readFile } from 'node:fs/promises';
import { discoverLocalSites } from '@rampart/web-discovery';
import type { DiscoveryCommands } from '../website/discovered-sites.ts';

/** A local web site's document root, offered as a protected directory. */
export interface SiteRoot {
  site: string;
  path: string;
}

/**
 * `apachectl -S` names each virtual host's file and line but not its DocumentRoot: it is read from
 * the `<VirtualHost>` block that starts there.
 */
async function apacheDocumentRoot(file: string, line: number): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  for (const raw of text.split('\n').slice(Math.max(0, line - 1))) {
    const trimmed = raw.trim();
    if (/^<\/VirtualHost>/i.test(trimmed)) break;
    const match = /^DocumentRoot\s+("?)([^"]+)\1\s*$/i.exec(trimmed);
    if (match?.[2]) return match[2];
  }
  return null;
}

/** The local nginx and Apache sites' roots (the website module's discovery), one row per distinct root. */
export async function discoverSiteRoots(commands: DiscoveryCommands = {}): Promise<SiteRoot[]> {
  const sites = await discoverLocalSites(commands);
  const roots: SiteRoot[] = [];
  const seen = new Set<string>();
  for (const site of sites) {
    const root = site.root ?? (site.server === 'apache' ? await apacheDocumentRoot(site.file, site.line) : null);
    if (!root || !root.startsWith('/') || root.includes('$')) continue;
    const path = root.replace(/\/+$/, '') || '/';
    if (seen.has(path)) continue;
    seen.add(path);
    roots.push({ site: site.name, path });
  }
  return roots;
}
