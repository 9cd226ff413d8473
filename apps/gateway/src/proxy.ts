import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { GatewayConfig } from '@rampart/contracts';
import type { Decision, WafRequest } from '@rampart/waf';
import { renderBlockResponse, renderProxyError, type RenderedResponse } from './block-response.ts';
import { normalizeAddress, resolveClientIp } from './client-ip.ts';
import { endToEndHeaders, flatten, headerValue, upstreamRequestHeaders } from './hop-by-hop.ts';
import type { GatewayEvent, Inspector, OnGatewayEvent } from './inspector.ts';
import { chooseSite } from './site-router.ts';
import type { SiteRuntime } from './site-runtime.ts';
import type { Upstream } from './upstream-pool.ts';
import { announcesNoBody, readBodyHead } from './body-head.ts';

export interface ProxyContext {
  inspector: Inspector;
  onEvent: OnGatewayEvent;
  timeouts: GatewayConfig['timeouts'];
  /** Set while this process drains for a reload: responses say Connection: close. */
  draining: boolean;
  /** Extra response header naming the worker (test mode), or undefined. */
  workerTag: string | undefined;
  /** Upgraded (WebSocket) client sockets, so a drain can wait for them. */
  tunnels: Set<Duplex>;
}

const idempotent = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

/** Errors that mean "the origin never got the request": safe to mark it down and try another. */
const connectErrors = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'UPSTREAM_CONNECT_TIMEOUT']);

function sendRendered(res: http.ServerResponse, r: RenderedResponse, closeConnection: boolean): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string | number> = { ...r.headers, 'content-length': Buffer.byteLength(r.body) };
  if (closeConnection) headers.connection = 'close';
  res.writeHead(r.status, headers);
  res.end(r.body);
}

function writeRawResponse(socket: Duplex, r: RenderedResponse): void {
  const lines = [`HTTP/1.1 ${r.status} ${http.STATUS_CODES[r.status] ?? ''}`];
  for (const [n, v] of Object.entries(r.headers)) lines.push(`${n}: ${v}`);
  lines.push(`content-length: ${Buffer.byteLength(r.body)}`, 'connection: close', '', '');
  socket.end(lines.join('\r\n') + r.body);
}

function peerOf(req: http.IncomingMessage): string {
  return normalizeAddress(req.socket.remoteAddress ?? '');
}

function clientIpOf(req: http.IncomingMessage, rt: SiteRuntime): string {
  return resolveClientIp(peerOf(req), req.headers['x-forwarded-for'], headerValueOf(req, 'x-real-ip'), rt.trusted);
}

const headerValueOf = (req: http.IncomingMessage, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The request the engine sees. */
function wafRequest(req: http.IncomingMessage, clientIp: string, body: Uint8Array | null, truncated: boolean): WafRequest {
  const headers: [string, string][] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string]);
  return { method: req.method ?? 'GET', target: req.url ?? '/', headers, clientIp, body, bodyTruncated: truncated, now: Date.now() };
}

function report(ctx: ProxyContext, rt: SiteRuntime, req: http.IncomingMessage, clientIp: string, decision: Decision): string {
  if (decision.action === 'pass') return '';
  const incidentId = randomUUID();
  const type: GatewayEvent['type'] =
    decision.action === 'block' ? 'website.block' : decision.action === 'record' ? 'website.record' : 'website.challenge';
  try {
    ctx.onEvent({ type, siteId: rt.site.id, incidentId, at: Date.now(), clientIp, method: req.method ?? '', target: req.url ?? '', host: req.headers.host, decision });
  } catch {
    // A failing event sink must not take the proxy down.
  }
  return incidentId;
}

async function decide(ctx: ProxyContext, rt: SiteRuntime, request: WafRequest): Promise<Decision> {
  try {
    return await ctx.inspector.inspect(request, rt.site);
  } catch {
    // Fail open: an engine bug must not take every site offline. The engine is tested to not throw.
    return { action: 'pass' };
  }
}

/** Response headers added by the gateway itself. */
function ownResponseHeaders(ctx: ProxyContext, rt: SiteRuntime): string[] {
  const extra: string[] = [];
  if (rt.site.via) extra.push('Via', '1.1 rampart');
  if (ctx.workerTag) extra.push('X-Rampart-Worker', ctx.workerTag);
  if (ctx.draining) extra.push('Connection', 'close');
  return extra;
}

function upstreamRequest(u: Upstream, options: http.RequestOptions): http.ClientRequest {
  const base = { protocol: u.url.protocol, hostname: u.url.hostname.replace(/^\[|\]$/g, ''), port: u.url.port || (u.url.protocol === 'https:' ? 443 : 80) };
  return u.url.protocol === 'https:' ? https.request({ ...base, ...options, rejectUnauthorized: false }) : http.request({ ...base, ...options });
}

/** Arms a timer that fails the request if the TCP (and TLS) connect takes too long. */
function armConnectTimeout(proxyReq: http.ClientRequest, ms: number): void {
  proxyReq.once('socket', (socket) => {
    if (!socket.connecting) return;
    const timer = setTimeout(() => {
      const err = Object.assign(new Error('upstream connect timeout'), { code: 'UPSTREAM_CONNECT_TIMEOUT' });
      proxyReq.destroy(err);
    }, ms);
    socket.once('connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
  });
}

export function createRequestHandler(getSites: () => readonly SiteRuntime[], ctx: ProxyContext, proto: 'http' | 'https') {
  return (req: http.IncomingMessage, res: http.ServerResponse): void => {
    void handle(req, res).catch(() => res.destroy());
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const rt = chooseSite(getSites(), req.headers.host);
    if (!rt) return sendRendered(res, renderProxyError(421, 'No site is configured for this host.'), false);
    const clientIp = clientIpOf(req, rt);
    let head: Buffer[] = [];
    let ended = announcesNoBody(req);
    if (rt.site.status === 'on') {
      const read = await readBodyHead(req, rt.site.inspect_body_kb * 1024);
      if (read.aborted) return void res.destroy();
      head = read.chunks;
      ended = read.ended;
      const body = read.inspected.length > 0 ? read.inspected : null;
      const decision = await decide(ctx, rt, wafRequest(req, clientIp, body, read.truncated));
      const incidentId = report(ctx, rt, req, clientIp, decision);
      if (decision.action === 'block' || decision.action === 'challenge') {
        // Challenges (CC protection's human check) are the engine's next step; until then they block.
        // A blocked upload is not read to its end: the connection closes after the answer.
        return sendRendered(res, renderBlockResponse(rt.site.block_response, decision, incidentId), !ended);
      }
    }
    forward(rt, req, res, clientIp, head, ended, new Set());
  }

  function forward(rt: SiteRuntime, req: http.IncomingMessage, res: http.ServerResponse, clientIp: string, head: Buffer[], ended: boolean, tried: Set<Upstream>): void {
    const upstream = rt.pool.pick(Date.now(), tried);
    if (!upstream) return sendRendered(res, renderProxyError(502, 'No origin server is available.'), !ended);
    tried.add(upstream);
    const pairs = endToEndHeaders(req.rawHeaders).filter(([n]) => n.toLowerCase() !== 'expect');
    const headers = upstreamRequestHeaders(pairs, {
      peerAddress: peerOf(req),
      trustedPeer: rt.trusted.covers(peerOf(req)),
      proto,
      host: req.headers.host,
      clientIp,
      upstreamHost: rt.site.preserve_host ? undefined : upstream.hostHeader,
      via: rt.site.via,
    });
    const proxyReq = upstreamRequest(upstream, { method: req.method, path: req.url, headers: flatten(headers), agent: upstream.agent });
    armConnectTimeout(proxyReq, ctx.timeouts.upstream_connect_ms);
    proxyReq.setTimeout(ctx.timeouts.upstream_response_ms, () => {
      proxyReq.destroy(Object.assign(new Error('upstream timeout'), { code: 'UPSTREAM_TIMEOUT' }));
    });
    let answered = false;

    proxyReq.on('response', (upRes) => {
      answered = true;
      rt.pool.markOk(upstream);
      const raw = flatten(endToEndHeaders(upRes.rawHeaders).filter(([n]) => !(rt.site.via && n.toLowerCase() === 'via')));
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, [...raw, ...ownResponseHeaders(ctx, rt)]);
      upRes.pipe(res);
      upRes.on('error', () => res.destroy());
      upRes.on('aborted', () => res.destroy());
    });

    proxyReq.on('error', (err: NodeJS.ErrnoException) => {
      if (answered || res.headersSent) return res.destroy();
      const code = err.code ?? '';
      const replayable = ended; // the whole body is in `head`: another origin can be tried
      // A kept-alive socket the origin closed just as we reused it: safe to resend idempotent requests only.
      const stale = proxyReq.reusedSocket && code === 'ECONNRESET' && idempotent.has(req.method ?? '');
      if (connectErrors.has(code)) rt.pool.markFailed(upstream, Date.now());
      if (replayable && (connectErrors.has(code) || stale) && tried.size < rt.pool.upstreams.length + (stale ? 1 : 0)) {
        if (stale) tried.delete(upstream);
        return forward(rt, req, res, clientIp, head, ended, tried);
      }
      if (code === 'UPSTREAM_TIMEOUT') return sendRendered(res, renderProxyError(504, 'The origin server did not answer in time.'), !ended);
      sendRendered(res, renderProxyError(502, 'The origin server could not be reached.'), !ended);
    });

    // The client went away: stop the upstream exchange too.
    res.on('close', () => {
      if (!res.writableFinished) proxyReq.destroy();
    });
    req.on('error', () => proxyReq.destroy());

    for (const chunk of head) proxyReq.write(chunk);
    if (ended) proxyReq.end();
    else req.pipe(proxyReq);
  }
}

/**
 * WebSocket and other Upgrade requests: inspected on their head, then the two sockets are joined
 * byte for byte once the origin agrees (101). Each tunnel has its own upstream connection.
 */
export function createUpgradeHandler(getSites: () => readonly SiteRuntime[], ctx: ProxyContext, proto: 'http' | 'https') {
  return (req: http.IncomingMessage, socket: Duplex, head: Buffer): void => {
    void handle(req, socket, head).catch(() => socket.destroy());
  };

  async function handle(req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const rt = chooseSite(getSites(), req.headers.host);
    if (!rt) return writeRawResponse(socket, renderProxyError(421, 'No site is configured for this host.'));
    const clientIp = clientIpOf(req, rt);
    if (rt.site.status === 'on') {
      const decision = await decide(ctx, rt, wafRequest(req, clientIp, null, false));
      const incidentId = report(ctx, rt, req, clientIp, decision);
      if (decision.action === 'block' || decision.action === 'challenge') {
        return writeRawResponse(socket, renderBlockResponse(rt.site.block_response, decision, incidentId));
      }
    }
    const upstream = rt.pool.pick(Date.now());
    if (!upstream) return writeRawResponse(socket, renderProxyError(502, 'No origin server is available.'));
    const pairs = endToEndHeaders(req.rawHeaders);
    const headers = upstreamRequestHeaders(pairs, {
      peerAddress: peerOf(req),
      trustedPeer: rt.trusted.covers(peerOf(req)),
      proto,
      host: req.headers.host,
      clientIp,
      upstreamHost: rt.site.preserve_host ? undefined : upstream.hostHeader,
      via: rt.site.via,
    });
    headers.push(['Connection', 'Upgrade'], ['Upgrade', headerValue(flattenToPairs(req.rawHeaders), 'upgrade') ?? 'websocket']);
    const proxyReq = upstreamRequest(upstream, { method: req.method, path: req.url, headers: flatten(headers), agent: false });
    armConnectTimeout(proxyReq, ctx.timeouts.upstream_connect_ms);

    proxyReq.on('upgrade', (upRes, upSocket, upHead) => {
      rt.pool.markOk(upstream);
      const lines = [`HTTP/1.1 ${upRes.statusCode} ${upRes.statusMessage}`];
      for (let i = 0; i < upRes.rawHeaders.length; i += 2) lines.push(`${upRes.rawHeaders[i]}: ${upRes.rawHeaders[i + 1]}`);
      if (ctx.workerTag) lines.push(`X-Rampart-Worker: ${ctx.workerTag}`);
      socket.write(lines.join('\r\n') + '\r\n\r\n');
      if (upHead.length > 0) socket.write(upHead);
      if (head.length > 0) upSocket.write(head);
      upSocket.setNoDelay(true);
      ctx.tunnels.add(socket);
      const closeBoth = () => {
        ctx.tunnels.delete(socket);
        socket.destroy();
        upSocket.destroy();
      };
      // A tunnel silent in both directions for idle_ms is closed, as nginx's proxy_read_timeout does
      // (WebSocket applications ping well within a minute).
      (socket as Socket).setTimeout(ctx.timeouts.idle_ms, closeBoth);
      upSocket.setTimeout(ctx.timeouts.idle_ms, closeBoth);
      upSocket.on('error', closeBoth).on('close', closeBoth);
      socket.on('error', closeBoth).on('close', closeBoth);
      upSocket.pipe(socket);
      socket.pipe(upSocket);
    });

    // The origin refused the upgrade: pass its answer on and close.
    proxyReq.on('response', (upRes) => {
      const lines = [`HTTP/1.1 ${upRes.statusCode} ${upRes.statusMessage}`];
      for (const [n, v] of endToEndHeaders(upRes.rawHeaders)) if (n.toLowerCase() !== 'content-length') lines.push(`${n}: ${v}`);
      lines.push('Connection: close');
      socket.write(lines.join('\r\n') + '\r\n\r\n');
      upRes.pipe(socket);
    });

    proxyReq.on('error', (err: NodeJS.ErrnoException) => {
      if (connectErrors.has(err.code ?? '')) rt.pool.markFailed(upstream, Date.now());
      if (socket.writable) writeRawResponse(socket, renderProxyError(502, 'The origin server could not be reached.'));
    });
    proxyReq.end();
  }
}

function flattenToPairs(raw: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i] as string, raw[i + 1] as string]);
  return out;
}
