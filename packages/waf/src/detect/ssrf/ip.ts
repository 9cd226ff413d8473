/**
 * IP literals as URL parsers read them — inet_aton's forms, not only dotted decimal: `2852039166`,
 * `0xA9FEA9FE`, `0251.0376.0251.0376`, `169.16689662` are all 169.254.169.254 to curl, libc and
 * most HTTP clients. IPv6 literals may embed an IPv4 address (`::ffff:a9fe:a9fe`).
 */

export interface ParsedIp {
  /** The IPv4 address as an unsigned 32-bit number, when there is one (also inside IPv6). */
  v4: number | null;
  /** Written in another form than canonical dotted decimal: only evasion does that in a URL. */
  obfuscated: boolean;
  /** An IPv6 literal (with or without an embedded IPv4 address). */
  v6: boolean;
  /** IPv6 unspecified or loopback (`::`, `::1`). */
  v6Local: boolean;
  /** IPv6 with a zone id (`fe80::1%eth0`). */
  zone: boolean;
}

/** Parses a host as an IP literal; null when it is a name. */
export function parseIp(host: string): ParsedIp | null {
  if (host.startsWith('[')) return parseV6(host.slice(1, host.endsWith(']') ? -1 : undefined));
  return parseV4(host);
}

function parsePart(part: string): number | null {
  if (part === '') return null;
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseHexLow32(part.slice(2));
  if (/^0[0-7]+$/.test(part)) return parseInt(part, 8);
  if (/^\d+$/.test(part)) return part.length > 15 ? null : Number(part);
  return null;
}

/** Hex beyond 32 bits: parsers that keep the low bits read `0x41414141A9FEA9FE` as 169.254.169.254. */
function parseHexLow32(hex: string): number {
  return parseInt(hex.slice(-8), 16) >>> 0;
}

export function parseV4(host: string): ParsedIp | null {
  const parts = host.split('.');
  if (parts.length > 4 || parts.length === 0) return null;
  const values: number[] = [];
  for (const p of parts) {
    const v = parsePart(p);
    if (v === null) return null;
    values.push(v);
  }
  // Leading parts are bytes; the last fills the remaining bytes (a.b.c.d, a.b.cd, a.bcd, abcd).
  let address = 0;
  for (let i = 0; i < values.length - 1; i++) {
    if (values[i]! > 255) return null;
    address = address * 256 + values[i]!;
  }
  const lastBytes = 4 - (values.length - 1);
  const last = values[values.length - 1]!;
  // Beyond its bytes the last part wraps (`7147006462` is 2852039166 to parsers that keep 32 bits).
  address = (address * 2 ** (8 * lastBytes) + (last % 2 ** (8 * lastBytes))) >>> 0;
  const canonical = parts.length === 4 && parts.every((p) => /^(?:0|[1-9]\d{0,2})$/.test(p));
  return { v4: address, obfuscated: !canonical, v6: false, v6Local: false, zone: false };
}

function parseV6(text: string): ParsedIp | null {
  const zone = text.includes('%');
  const body = zone ? text.slice(0, text.indexOf('%')) : text;
  if (!/^[0-9a-f:.]+$/i.test(body) || !body.includes(':')) return null;
  // An embedded IPv4 address: ::ffff:169.254.169.254, ::169.254.169.254, or hex ::ffff:a9fe:a9fe.
  let v4: number | null = null;
  const dotted = /(?:^|:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(body);
  if (dotted) v4 = parseV4(dotted[1]!)?.v4 ?? null;
  const compact = body.toLowerCase().replace(/(^|:)0+(?=[0-9a-f])/g, '$1');
  const mapped = /^(?:::|(?:0:){5})ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compact);
  if (v4 === null && mapped) v4 = ((parseInt(mapped[1]!, 16) << 16) | parseInt(mapped[2]!, 16)) >>> 0;
  const v6Local = compact === '::' || compact === '::1' || /^(?:0:){7}[01]$/.test(compact);
  return { v4, obfuscated: v4 !== null, v6: true, v6Local, zone };
}

const octets = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

/** Cloud instance metadata services (AWS, GCP, Azure, OpenStack, DigitalOcean; ECS; Alibaba; Oracle). */
export function isMetadataV4(ip: number): boolean {
  return ip === octets(169, 254, 169, 254) || ip === octets(169, 254, 170, 2) || ip === octets(100, 100, 100, 200) || ip === octets(192, 0, 0, 192);
}

/** Loopback, unspecified, private, link-local: addresses only the server itself can reach. */
export function isInternalV4(ip: number): boolean {
  const a = ip >>> 24;
  const b = (ip >>> 16) & 255;
  return a === 127 || ip === 0 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
}
