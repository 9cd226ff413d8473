/**
 * Vulnerability scanners that say who they are (CRS 913100): their default User-Agent strings,
 * and the marker headers some of them add. A site owner scanning their own site adds the scanner's
 * address to the allow list; for everybody else a scanner is the reconnaissance before an attack,
 * so this is severity 2 (the spec's default for attacks: block).
 *
 * Also the out-of-band callback hosts scanners plant in any value (`<id>.oast.me`, Burp
 * Collaborator): a unique subdomain of one of them is a blind-injection probe. A body with spaces
 * may be someone writing about the tools, so there it is only suspicious.
 */
import type { RequestInput } from '../types.ts';
import { protocolHit, type ProtocolHit } from './hit.ts';
import { header, type RequestView } from './view.ts';

/** Lower-case substrings of scanners' default User-Agents (from CRS's scanners-user-agents.data, trimmed to the unambiguous ones). */
const scannerAgents = [
  '(hydra)', '.nasl', 'absinthe', 'arachni/', 'bsqlbf', 'cgichk', 'commix', 'crimscanner/', 'datacha0s', 'dirbuster', 'dotdotpwn',
  'fhscan core', 'gobuster', 'grendel-scan', 'havij', 'jorgee', 'masscan', 'morfeus fucking scanner', 'mysqloit', 'n-stealth',
  'nessus', 'netsparker', 'nikto', 'nmap scripting engine', 'nmap-nse', 'nsauditor', 'nuclei', 'openvas', 'pangolin', 'paros/',
  'pmafind', 'qualys was', 's.t.a.l.k.e.r.', 'sql power injector', 'sqlmap', 'sqlninja', 'sysscan', 'teh forest lobster',
  'this is an exploit', 'uil2pn', 'vega/', 'voideye', 'w3af.', 'webbandit', 'webinspect', 'webshag', 'webvulnscan', 'wfuzz',
  'fuzz faster u fool', 'whatweb', 'wpscan', 'struts-pwn', 'zgrab', 'acunetix', 'appscan', 'burpcollaborator', 'feroxbuster',
  'dirsearch', 'wapiti', 'skipfish', 'jaeles', 'xsstrike', 'brutus/aet', 'zmeu', 'interactsh', 'ffuf', 'detectify',
];

/** One case-insensitive alternation: a single pass over the User-Agent instead of one per name. */
const scannerAgentPattern = new RegExp(scannerAgents.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');

/** Headers scanners add to their requests to tag them. */
const scannerHeaders = ['acunetix-aspect', 'acunetix-product', 'acunetix-scanning-agreement', 'x-scan-memo', 'x-wipp', 'x-ratproxy-loop', 'x-requested-by-burp'];

export function checkScanner(view: RequestView): ProtocolHit | null {
  const agent = header(view, 'user-agent');
  if (agent && scannerAgentPattern.test(agent)) return protocolHit('protocol.scanner_agent', 2, { location: 'header', name: 'User-Agent' }, agent);
  for (const name of scannerHeaders) {
    if (view.headers.has(name)) return protocolHit('protocol.scanner_header', 2, { location: 'header', name }, `${name}: ${header(view, name)}`);
  }
  return null;
}

/** A unique subdomain of a public out-of-band interaction service. */
const oastHost = /[a-z0-9-]{6,}\.(?:oast\.(?:me|fun|pro|live|site|online)|interact\.sh|burpcollaborator\.net|oastify\.com|dnslog\.cn|ceye\.io|bxss\.me|xss\.ht)(?![a-z0-9.-]*[a-z0-9])/i;
const oastHint = /oast|interact\.sh|collaborator|oastify|dnslog|ceye\.io|bxss|xss\.ht/i;

export function checkCallbackHosts(_view: RequestView, inputs: readonly RequestInput[]): ProtocolHit | null {
  for (const input of inputs) {
    if (input.location === 'file_content' || input.value.length > 65536 || !oastHint.test(input.value)) continue;
    const m = oastHost.exec(input.value);
    if (!m) continue;
    const prose = (input.location === 'body' || input.location === 'raw_body') && /\s/.test(input.value.trim());
    return protocolHit('protocol.oast_callback', prose ? 1 : 2, { location: input.location, name: input.name }, m[0]);
  }
  return null;
}
