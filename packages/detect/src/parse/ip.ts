import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address as one spelling, so one client is one group: IPv4-mapped IPv6 (`::ffff:1.2.3.4`, how a
 * dual-stack listener reports IPv4 clients) becomes IPv4, IPv6 goes lower case. Undefined for
 * anything that is not an address (a host name from HostnameLookups, `-`).
 */
export function normalizeIp(text: string): string | undefined {
  if (isIPv4(text)) return text;
  if (!isIPv6(text)) return undefined;
  const lower = text.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  return mapped && isIPv4(mapped[1]!) ? mapped[1] : lower;
}
