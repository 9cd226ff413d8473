/**
 * Hop-by-hop headers (RFC 9110 7.6.1) belong to one connection and are never forwarded; neither
 * are the headers a `Connection` header names. Keep-alive is arranged per side by the gateway.
 */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Names listed in Connection headers (lower case). */
function connectionListed(rawHeaders: readonly string[]): Set<string> {
  const listed = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if ((rawHeaders[i] as string).toLowerCase() !== 'connection') continue;
    for (const token of (rawHeaders[i + 1] as string).split(',')) listed.add(token.trim().toLowerCase());
  }
  return listed;
}

/**
 * Node's flat raw header list (name, value, name, value…) without hop-by-hop headers, as pairs in
 * arrival order with names as sent. `keep` lets the WebSocket path retain Upgrade/Connection.
 */
export function endToEndHeaders(rawHeaders: readonly string[], keep: readonly string[] = []): [string, string][] {
  const listed = connectionListed(rawHeaders);
  const out: [string, string][] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    const lower = name.toLowerCase();
    if (!keep.includes(lower) && (hopByHop.has(lower) || lower.startsWith('proxy-') || listed.has(lower))) continue;
    out.push([name, rawHeaders[i + 1] as string]);
  }
  return out;
}

/** The value of the first header of that name (case-insensitive), or undefined. */
export function headerValue(pairs: readonly (readonly [string, string])[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return pairs.find(([n]) => n.toLowerCase() === lower)?.[1];
}

/** All values of that name, in order. */
export function headerValues(pairs: readonly (readonly [string, string])[], name: string): string[] {
  const lower = name.toLowerCase();
  return pairs.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
}

export interface ForwardingFacts {
  peerAddress: string;
  proto: 'http' | 'https';
  host: string | undefined;
  clientIp: string;
  /** The peer is a trusted proxy: its X-Forwarded-Proto/-Host (the CDN's view) are kept. */
  trustedPeer: boolean;
  /** Host header to send upstream; undefined keeps the client's. */
  upstreamHost: string | undefined;
  via: boolean;
}

/**
 * The header list sent upstream: end-to-end headers, X-Forwarded-For with the peer appended,
 * X-Forwarded-Proto/-Host kept from a trusted proxy and otherwise set by us (an ordinary client must
 * not choose them), X-Real-IP = the resolved client, optional Via.
 */
export function upstreamRequestHeaders(pairs: readonly [string, string][], facts: ForwardingFacts): [string, string][] {
  const drop = new Set(['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-real-ip']);
  const out: [string, string][] = [];
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase();
    if (drop.has(lower)) continue;
    if (lower === 'host' && facts.upstreamHost !== undefined) continue;
    out.push([name, value]);
  }
  if (facts.upstreamHost !== undefined) out.unshift(['Host', facts.upstreamHost]);
  const priorChain = headerValues(pairs, 'x-forwarded-for').join(', ');
  out.push(['X-Forwarded-For', priorChain ? `${priorChain}, ${facts.peerAddress}` : facts.peerAddress]);
  const priorProto = facts.trustedPeer ? headerValue(pairs, 'x-forwarded-proto') : undefined;
  const priorHost = facts.trustedPeer ? headerValue(pairs, 'x-forwarded-host') : undefined;
  out.push(['X-Forwarded-Proto', priorProto ?? facts.proto]);
  const host = priorHost ?? facts.host;
  if (host !== undefined) out.push(['X-Forwarded-Host', host]);
  out.push(['X-Real-IP', facts.clientIp]);
  if (facts.via) {
    const prior = headerValue(pairs, 'via');
    const rest = out.filter(([n]) => n.toLowerCase() !== 'via');
    rest.push(['Via', prior ? `${prior}, 1.1 rampart` : '1.1 rampart']);
    return rest;
  }
  return out;
}

/** Flattens pairs to Node's raw list form. */
export const flatten = (pairs: readonly (readonly [string, string])[]): string[] => pairs.flatMap(([n, v]) => [n, v]);
