import { BlockList, isIP } from 'node:net';

/*
 * Matching uses node:net's BlockList (native, no per-request parsing) rather than the contracts'
 * address helpers: importing @rampart/contracts costs each worker ~60 MiB of schemas it never uses.
 * The entries were validated by the configuration schema (parseAddressEntry) before they get here.
 */

/** Trusted proxies, parsed once per configuration. */
export interface TrustedProxies {
  readonly size: number;
  covers(address: string): boolean;
}

/** Entries as the schema accepts them: `*`, an address, `addr/prefix`, or `from-to`. Invalid ones are skipped. */
export function parseTrustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  let any = false;
  let size = 0;
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '*') {
      any = true;
      size++;
      continue;
    }
    const slash = entry.indexOf('/');
    const dash = entry.indexOf('-');
    if (slash >= 0) {
      const address = entry.slice(0, slash);
      const family = isIP(address);
      if (!family) continue;
      list.addSubnet(address, Number(entry.slice(slash + 1)), family === 4 ? 'ipv4' : 'ipv6');
    } else if (dash >= 0) {
      const from = entry.slice(0, dash).trim();
      const to = entry.slice(dash + 1).trim();
      const family = isIP(from);
      if (!family || isIP(to) !== family) continue;
      list.addRange(from, to, family === 4 ? 'ipv4' : 'ipv6');
    } else {
      const family = isIP(entry);
      if (!family) continue;
      list.addAddress(entry, family === 4 ? 'ipv4' : 'ipv6');
    }
    size++;
  }
  return {
    size,
    covers(address) {
      const family = isIP(address);
      if (!family) return false;
      return any || list.check(address, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** `::ffff:10.0.0.1` (a v4 client on a dual-stack socket) is the v4 address 10.0.0.1. */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(trimmed);
  return mapped?.[1] ?? trimmed;
}

/** One X-Forwarded-For element: may carry a port (`1.2.3.4:5678`, `[::1]:80`) or quotes. */
function cleanForwardedElement(raw: string): string {
  let s = raw.trim().replace(/^"|"$/g, '');
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracket?.[1]) return bracket[1];
  if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(':'));
  return normalizeAddress(s);
}

const isTrusted = (trusted: TrustedProxies, address: string) => trusted.covers(address);

/**
 * The real client address behind trusted proxies, by the rightmost-untrusted rule: the socket peer
 * is believed only if it is a trusted proxy; then X-Forwarded-For is read right to left, skipping
 * further trusted hops, and the first untrusted address is the client (anything left of it was
 * written by the client itself and may be forged). If every hop is trusted, the leftmost is taken.
 * X-Real-IP is used only when a trusted peer sent no X-Forwarded-For. Garbage in a header ends the
 * walk at the last good hop (never trust what we can't parse).
 */
export function resolveClientIp(
  peerAddress: string,
  forwardedFor: readonly string[] | string | undefined,
  realIp: string | undefined,
  trusted: TrustedProxies,
): string {
  const peer = normalizeAddress(peerAddress);
  if (trusted.size === 0 || !isTrusted(trusted, peer)) return peer;
  const headerValues = forwardedFor === undefined ? [] : typeof forwardedFor === 'string' ? [forwardedFor] : forwardedFor;
  const chain = headerValues
    .flatMap((v) => v.split(','))
    .map((e) => e.trim())
    .filter((e) => e !== '')
    .map(cleanForwardedElement);
  if (chain.length === 0) {
    const real = realIp === undefined ? '' : cleanForwardedElement(realIp);
    return isIP(real) ? real : peer;
  }
  let client = peer;
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = chain[i] as string;
    if (!isIP(hop)) return client;
    client = hop;
    if (!isTrusted(trusted, hop)) return hop;
  }
  return client;
}
