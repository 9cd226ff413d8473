/**
 * Server-side request forgery (CRS 934110/934120): a URL in a parameter that points the server at
 * itself or at the cloud's metadata service. The URL is parsed (scheme, authority, userinfo, port,
 * host), the host read as an IP in every form a URL parser accepts (ip.ts), after NFKC (①②⑦。
 * spell digits and dots to some resolvers). The decision:
 *  - a metadata service (169.254.169.254 in any spelling, metadata.google.internal…): clear attack;
 *  - an IP written in an evasive form (integer, hex, octal, IPv4-mapped IPv6, Unicode digits), a
 *    backslash-escaped host or an authority that parsers disagree on (`a.com:80 &@127.0.0.1#@b.com`):
 *    clear attack — no legitimate link is written like that;
 *  - loopback and private hosts (`http://localhost:3000/callback` is a real OAuth redirect in
 *    development, and RFC 8252 has native apps redirect to `http://127.0.0.1:port/`): suspicious only;
 *  - container and cluster-internal names (`host.docker.internal`, `*.svc.cluster.local`): clear
 *    attack. They resolve only inside the infrastructure, so no page, redirect or callback a
 *    browser follows names them; only a server can be sent there. The loopback aliases of the
 *    distributions' hosts files (`ip6-localhost`, `localhost4.localdomain4`) too: no development
 *    server or callback uses them, only a way around a filter that knows `localhost`.
 *  - a loopback or private IP right after the scheme's colon with no `//` (`http:127.0.0.1`): clear
 *    attack (parsers complete the slashes; no link is written so). Left out: the same form with a
 *    public address (`http:123456789`, CRS 934120-50, while `http:0xABCDEF` is a must-pass test) and
 *    IPv6 literals outside the allocated blocks (`[a::b]`): odd spellings that reach nothing internal.
 * No AttackKind for SSRF exists; it is reported as file inclusion (a server made to fetch a URL).
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { isInternalV4, isMetadataV4, parseIp } from './ip.ts';

const networkSchemes = new Set([
  'http', 'https', 'ftp', 'ftps', 'gopher', 'dict', 'ldap', 'ldaps', 'tftp', 'ssh', 'sftp', 'scp', 'rtmp', 'xri', 'rsync',
  'acap', 'imap', 'irc', 'pop3', 'smtp', 'telnet', 'ws', 'wss', 'jar', 'netdoc', 'nntp', 'redis', 'mysql', 'smb',
]);
const metadataHosts = new Set([
  'metadata.google.internal', 'metadata', 'metadata.packet.net', 'metadata.platformequinix.com', 'instance-data', 'instance-data.ec2.internal',
  'metadata.tencentyun.com', 'metadata.azure.com',
]);
const internalHosts = new Set([
  'localhost', 'localhost.localdomain', 'localhost4', 'localhost4.localdomain4', 'localhost6', 'localhost6.localdomain6', 'ip6-localhost', 'ipv6-localhost', 'ip6-loopback', 'ipv6-loopback',
  'host.docker.internal', 'gateway.docker.internal', 'kubernetes.docker.internal', 'host.containers.internal', 'kubernetes.default.svc',
  'kubernetes.default.svc.cluster.local', 'kubernetes.default', 'localtest.me', 'lvh.me',
]);

/**
 * Names that exist only inside container runtimes and clusters, and the loopback aliases only a
 * distribution's /etc/hosts defines (`localhost4.localdomain4` on Red Hat, `ip6-loopback` on Debian,
 * `ipv6-localhost` on SUSE): a subset of internalHosts that no development server prints as its
 * address and no callback is registered with (those say `localhost`, `127.0.0.1` or `[::1]`). The
 * aliases are typed to reach the loopback past a filter that knows `localhost`.
 */
const hostsFileAliases = new Set(['localhost4', 'localhost4.localdomain4', 'localhost6', 'localhost6.localdomain6', 'ip6-localhost', 'ipv6-localhost', 'ip6-loopback', 'ipv6-loopback']);
function isInfrastructureHost(host: string): boolean {
  return host.endsWith('.docker.internal') || host === 'host.containers.internal' || host === 'kubernetes.default' || host === 'kubernetes.default.svc' || host.endsWith('.svc.cluster.local') || hostsFileAliases.has(host);
}

const ssh2Wrappers = new Set(['ssh2.shell', 'ssh2.exec', 'ssh2.tunnel', 'ssh2.sftp', 'ssh2.scp']);
const maxUrls = 16;
/** Times, CSS and prose have colons too: a value's first colons are where its URLs are looked for. */
const maxColons = 64;

function isSchemeChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 43 || c === 46 || c === 45;
}

/**
 * Headers that name the page the browser came from: the server does not fetch them, and a site
 * being developed or administered on the machine itself sends `Referer: http://localhost/…` with
 * every click (CRS 943110-4). A loopback or private host there is no finding; a metadata address
 * or an evasive IP spelling still is (analytics and trackback code does fetch referers).
 */
const navigationHeaders = new Set(['referer', 'origin']);

export function detectSsrf(value: string, location: InputLocation, name?: string): DetectorHit | null {
  const found = findSsrf(value, location);
  if (found?.rule === 'ssrf.internal_host' && location === 'header' && navigationHeaders.has((name ?? '').toLowerCase())) return null;
  return found;
}

function findSsrf(value: string, location: InputLocation): DetectorHit | null {
  try {
    if (location === 'path' || location === 'file_content' || location === 'raw_body') return null;
    if (value.length > 8192) return null;
    if (value.indexOf(':') < 0) return bareInternalUrl(value);
    let best: DetectorHit | null = null;
    let count = 0;
    let colons = 0;
    for (let at = value.indexOf(':'); at > 0 && count < maxUrls && colons < maxColons; at = value.indexOf(':', at + 1), colons++) {
      let s = at;
      while (s > 0 && at - s < 16 && isSchemeChar(value.charCodeAt(s - 1))) s--;
      const scheme = value.slice(s, at).toLowerCase();
      // PHP's ssh2 wrappers open an SSH connection from the server (include, fopen, copy accept them).
      if (scheme.startsWith('ssh2.') && ssh2Wrappers.has(scheme) && value.startsWith('//', at + 1)) return hit('ssrf.php_ssh2_wrapper', value, s, 2);
      if (!networkSchemes.has(scheme)) continue;
      count++;
      const found = judgeUrl(value, s, at + 1);
      if (found?.severity === 2) return found;
      if (found?.rule === 'ssrf.internal_host' && inRunningText(value, s)) continue;
      best ??= found;
    }
    return best;
  } catch {
    return null;
  }
}

/**
 * A URL that sits in running text — a mail, a post or a comment that mentions
 * `http://localhost:8080/health` among words, often as a link the editor made of it — is a mention,
 * not a fetch target: a server is sent somewhere by a parameter that *is* the URL (`url=`,
 * `callback=`, `{"webhook": …}`), not by prose that names one. So a loopback or private host
 * (suspicious only, severity 1) counts only outside running text; a metadata address, an evasive
 * spelling or an infrastructure name (severity 2) counts anywhere. Running text: at least four words
 * of letters before the URL, within the 200 characters that precede it.
 */
function inRunningText(value: string, urlStart: number): boolean {
  const before = value.slice(Math.max(0, urlStart - 200), urlStart);
  const words = before.match(/(?:^|[\s>])\p{L}{2,}[,.;:!?]?(?=\s)/gu);
  return (words?.length ?? 0) >= 4;
}

/**
 * `localhost/`, `host.docker.internal/x`: an internal host with a path but no scheme, which URL
 * fetchers complete with http://. Suspicious only (a host field may say "localhost" legitimately;
 * the path is what makes it a URL).
 */
function bareInternalUrl(value: string): DetectorHit | null {
  const slash = value.indexOf('/');
  if (slash <= 0 || slash > 64) return null;
  const head = value.slice(0, slash).trim().toLowerCase();
  if (isInfrastructureHost(head)) return hit('ssrf.internal_host', value, 0, 2);
  return internalHosts.has(head) ? hit('ssrf.internal_host', value, 0, 1) : null;
}

function judgeUrl(value: string, start: number, afterColon: number): DetectorHit | null {
  let i = afterColon;
  let slashes = 0;
  while (slashes < 3 && (value[i] === '/' || value[i] === '\\')) {
    i++;
    slashes++;
  }
  // The authority ends at the path, query or fragment — or at whitespace; a space followed by more
  // authority characters (`a.com:80 &@127.0.0.1`) is the parser confusion itself.
  let end = i;
  // (ASCII whitespace only: U+00A0 is a byte of UTF-8 text read as Latin-1, part of the host.)
  while (end < value.length && !/[/?#\t\n\r "'<>]/.test(value[end]!)) end++;
  let authority = value.slice(i, end);
  const tail = value.slice(end, end + 80);
  const confusion = /^[ \t]+[^ \t/]*@/.test(tail) || /^#[^/]*@/.test(tail);
  if (confusion) return hit('ssrf.authority_confusion', value, start, 2);
  if (authority.length === 0 || authority.length > 255) return null;
  // `http:\\l\\o\\c\\a\\l\\h\\o\\s\\t`: backslashes inside the host that lenient parsers drop.
  if (/\\[a-z0-9]/i.test(authority)) return hit('ssrf.escaped_host', value, start, 2);
  const at = authority.lastIndexOf('@');
  if (at >= 0) authority = authority.slice(at + 1);
  let host = authority;
  if (!host.startsWith('[')) {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && /^\d*$/.test(host.slice(colon + 1))) host = host.slice(0, colon);
  } else {
    const close = host.indexOf(']');
    if (close > 0) host = host.slice(0, close + 1);
  }
  const found = judgeHost(host, value, start);
  // `http:127.0.0.1`: special schemes need no `//` (the WHATWG URL parser and curl complete it), so
  // an internal IP right after the colon is a URL written to slip past filters that look for `://`;
  // no link is written so. A name (`http:localhost`) or a public address stays as judged.
  if (slashes === 0 && found?.rule === 'ssrf.internal_host' && found.severity === 1 && parseIp(host.toLowerCase()) !== null) {
    return hit('ssrf.slashless_url', value, start, 2);
  }
  return found;
}

function judgeHost(raw: string, value: string, start: number): DetectorHit | null {
  let host = raw.toLowerCase().replace(/\.$/, '');
  let unicode = false;
  if (maxCharCode(host) > 0x7f) {
    // A request target reaches the engine as Latin-1 bytes: read UTF-8 back before normalizing.
    if (maxCharCode(host) <= 0xff) {
      const utf8 = Buffer.from(host, 'latin1').toString('utf8');
      if (!utf8.includes('\ufffd')) host = utf8;
    }
    host = host.normalize('NFKC').replace(/[\u3002\uff0e\uff61]/g, '.');
    unicode = true;
  }
  if (metadataHosts.has(host) || host === '[fd00:ec2::254]') return hit('ssrf.cloud_metadata', value, start, 2);
  const ip = parseIp(host);
  if (ip) {
    if (ip.v4 !== null && isMetadataV4(ip.v4)) return hit('ssrf.cloud_metadata', value, start, 2);
    const internal = (ip.v4 !== null && isInternalV4(ip.v4)) || ip.v6Local;
    // The evasive spellings exist to reach internal addresses; a public address written oddly is odd only.
    if (ip.obfuscated || unicode || ip.zone) return hit('ssrf.obfuscated_ip', value, start, internal || ip.zone ? 2 : 1);
    if (internal) return hit('ssrf.internal_host', value, start, 1);
    if (ip.v6) return hit('ssrf.ip_literal', value, start, 1);
    return null;
  }
  if (unicode && /^[a-z0-9.-]+$/.test(host) && (internalHosts.has(host) || metadataHosts.has(host))) return hit('ssrf.obfuscated_ip', value, start, 2);
  if (isInfrastructureHost(host)) return hit('ssrf.internal_host', value, start, 2);
  if (internalHosts.has(host) || host.endsWith('.internal') || host.endsWith('.svc.cluster.local')) return hit('ssrf.internal_host', value, start, 1);
  return null;
}

function maxCharCode(text: string): number {
  let max = 0;
  for (let i = 0; i < text.length; i++) max = Math.max(max, text.charCodeAt(i));
  return max;
}

function hit(rule: string, value: string, at: number, severity: 1 | 2): DetectorHit {
  return { kind: 'file_inclusion', rule, evidence: value.slice(at, at + 120), severity };
}
