import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { headerValue, type Decision, type WafRequest } from '@rampart/waf';
import { renderBlockResponse, writeRawResponse } from './block-response.ts';
import { normalizeAddress, resolveClientIp } from './client-ip.ts';
import { reportDecision } from './gateway-events.ts';
import { parserRefusal } from './parser-refusal.ts';
import type { ProxyContext } from './proxy.ts';
import { chooseSite } from './site-router.ts';
import type { SiteRuntime } from './site-runtime.ts';

/*
 * A request Node's HTTP parser cannot read never reaches the engine. When it is aimed at a site
 * whose detection reads the protocol (status on, the attack tab's protocol kind on), the gateway
 * treats it as what it is for that site — a request the firewall refused: the site's block
 * response, and an event `protocol.unparseable` with the parser's code, the bytes where it
 * stopped and a snapshot, so the administrator sees smuggling attempts, unknown methods and
 * broken framing in the event list like any other refusal, instead of a bare 400 nobody hears of.
 *
 * Everything else keeps the parser's own answer (parser-refusal.ts): an oversized head or a slow
 * one is a limit, not an attack; a TLS handshake or an HTTP/2 preface on a plain port is a
 * misdirected client; a site with status off passes traffic uninspected. The site is the one
 * nginx would choose for the Host line found in the bytes (else the listener's default site).
 * Lists are not consulted: the request could not be forwarded for a whitelisted client either.
 */

/** The parser's errors that say nothing about the request's form (limits, timeouts, a closed socket, another protocol). */
const notMalformed = new Set(['HPE_HEADER_OVERFLOW', 'HPE_HEADER_TIMEOUT', 'HPE_INVALID_EOF_STATE', 'HPE_PAUSED_H2_UPGRADE', 'HPE_PAUSED_UPGRADE', 'HPE_PAUSED']);

/** Bytes of the refused packet shown as evidence, around where the parser stopped. */
const evidenceBytes = 48;

/** The most bytes of the refused packet kept as the request's body (shown in the snapshot). */
const maxKeptBody = 16_384;

interface ParserError {
  code?: unknown;
  rawPacket?: unknown;
  bytesParsed?: unknown;
}

/** The parser's error code when it says the request is malformed; null for limits, timeouts and the rest. */
export function malformedCode(error: unknown): string | null {
  const { code, rawPacket } = (typeof error === 'object' && error !== null ? error : {}) as ParserError;
  if (typeof code !== 'string' || !code.startsWith('HPE_') || notMalformed.has(code)) return null;
  // A TLS ClientHello (record type 22) on a plain listener: a client that meant https.
  if (Buffer.isBuffer(rawPacket) && rawPacket[0] === 0x16) return null;
  return code;
}

/**
 * What can be read of the refused bytes, leniently: the first line's method and target, the header
 * lines up to the blank line, the rest as body. The bytes may start mid-request (a head that came
 * in several packets); the record then shows what there is.
 */
export function readRefusedPacket(raw: Buffer): Pick<WafRequest, 'method' | 'target' | 'headers' | 'body'> {
  const headEnd = raw.indexOf('\r\n\r\n');
  const headBytes = headEnd >= 0 ? raw.subarray(0, headEnd) : raw.subarray(0, Math.min(raw.length, 16_384));
  const lines = headBytes.toString('latin1').split(/\r?\n/);
  const [method = '', target = ''] = (lines[0] ?? '').trim().split(/\s+/);
  const headers: [string, string][] = [];
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  const body = headEnd >= 0 && raw.length > headEnd + 4 ? raw.subarray(headEnd + 4, headEnd + 4 + maxKeptBody) : null;
  return { method: method || '-', target: target || '-', headers, body: body && new Uint8Array(body) };
}

/**
 * The parser's code and the line it stopped in, escaped (`HPE_INVALID_METHOD at "FOO /x\r\n"`):
 * like every event's evidence, what the request held rather than a sentence of ours.
 */
export function refusalEvidence(code: string, raw: Buffer, bytesParsed: unknown): string {
  const at = typeof bytesParsed === 'number' && bytesParsed >= 0 && bytesParsed < raw.length ? bytesParsed : 0;
  // From the start of the line the parser stopped in (it points at the offending byte).
  const from = Math.max(at > 0 ? raw.lastIndexOf(0x0a, at - 1) + 1 : 0, at - evidenceBytes / 2);
  let shown = '';
  for (const byte of raw.subarray(from, from + evidenceBytes)) {
    if (byte === 0x0d) shown += '\\r';
    else if (byte === 0x0a) shown += '\\n';
    else if (byte === 0x5c) shown += '\\\\';
    else if (byte >= 0x20 && byte < 0x7f) shown += String.fromCharCode(byte);
    else shown += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `${code} at "${shown}"`;
}

/** Whether the site's detection reads the protocol: status on, and its policy (if any) runs the protocol kind. */
function readsProtocol(rt: SiteRuntime): boolean {
  return rt.site.status === 'on' && (rt.policy === null || rt.policy.kinds.includes('protocol'));
}

/** Answers a parser error on one connection of a listener (the server's 'clientError'). */
export function answerClientError(error: unknown, socket: Duplex, sites: readonly SiteRuntime[], ctx: ProxyContext): void {
  // A response already on its way (a chunked upload turning to garbage while its echo streams
  // back): an answer written now would land inside it, so the connection is cut instead — as
  // Node's own default does ("avoid corrupting the remote peer"). `_httpMessage` is the socket's
  // in-flight ServerResponse.
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const code = malformedCode(error);
  const raw = (error as ParserError | null)?.rawPacket;
  if (code === null || !Buffer.isBuffer(raw)) {
    socket.end(parserRefusal(error));
    return;
  }
  const seen = readRefusedPacket(raw);
  const rt = chooseSite(sites, headerValue(seen, 'host') ?? undefined);
  if (!rt || !readsProtocol(rt)) {
    socket.end(parserRefusal(error));
    return;
  }
  const peer = normalizeAddress((socket as Socket).remoteAddress ?? '');
  const clientIp = resolveClientIp(peer, headerValue(seen, 'x-forwarded-for') ?? undefined, headerValue(seen, 'x-real-ip') ?? undefined, rt.trusted);
  const request: WafRequest = { ...seen, clientIp, bodyTruncated: false, now: Date.now() };
  const decision: Extract<Decision, { action: 'block' }> = { action: 'block', rule: 'protocol.unparseable', kind: 'protocol', evidence: refusalEvidence(code, raw, (error as ParserError).bytesParsed) };
  let incidentId = '';
  try {
    incidentId = reportDecision({ ctx, rt, request, decision, areas: null });
  } catch {
    // The refusal stands even when it cannot be recorded.
  }
  writeRawResponse(socket, renderBlockResponse(rt.site.block_response, decision, incidentId));
}
