import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { Readable, type Duplex } from 'node:stream';
import type { GatewayConfig } from '@rampart/contracts';
import { rewriteResponseHeaders, streamMultipart, type StreamedMultipart, type WafRequest } from '@rampart/waf';
import type { WrongPasswordLimiter } from './authorize-limiter.ts';
import { renderBlockResponse, renderProxyError, sendRendered, writeRawResponse, type RenderedResponse } from './block-response.ts';
import { normalizeAddress, resolveClientIp } from './client-ip.ts';
import { reportDecision } from './gateway-events.ts';
import { authorizeUrl, pagePrefix, safeReturn } from './gateway-pages.ts';
import { authorizationOpen, renderChallenge, serveGatewayPage } from './gateway-routes.ts';
import { endToEndHeaders, flatten, headerValue, upstreamRequestHeaders } from './hop-by-hop.ts';
import type { Inspector, OnGatewayEvent } from './inspector.ts';
import { runRequestPipeline, type Verdict } from './request-pipeline.ts';
import { count404, filterBody, headersForBody, maxFilteredBody, planResponse, upgradeResponseHeaders, upstreamHeadersForFilter } from './response-phase.ts';
import { chooseSite } from './site-router.ts';
import type { SiteRuntime } from './site-runtime.ts';
import type { Upstream } from './upstream-pool.ts';
import type { WorkerServices } from './services.ts';
import { announcesNoBody, readBodyHead } from './body-head.ts';
import { bodyLimitsFor } from './body-limits.ts';
import { judgedUpload, uploadRefused, type UploadRefusedError } from './upload-tail.ts';
import { flaggedDecision, scanWholeBody, scannedUpload, sharedUploadScanner, uploadReaderFor, type FlaggedUpload, type StreamedScan } from './upload-scan.ts';

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
  /** Timed lists, CC / 404 counts, geo-IP, spider DNS, the event outlet (services.ts). */
  services: WorkerServices;
  /** Wrong authorization passwords per address (this process's). */
  authorizeLimiter: WrongPasswordLimiter;
}

const idempotent = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

/** Errors that mean "the origin never got the request": safe to mark it down and try another. */
const connectErrors = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'UPSTREAM_CONNECT_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** A kept-alive upstream connection that closed under a request before any answer (undici's and the kernel's words). */
const staleResets = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);

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

/** A request for the gateway's own pages (site status on): answered here, never forwarded. */
function isGatewayPage(rt: SiteRuntime, target: string | undefined): boolean {
  return rt.site.status === 'on' && target !== undefined && target.startsWith(pagePrefix);
}

/**
 * The page a refused request gets: the human verification or the authorization form for a
 * challenge, else the site's block response (linking the authorization form when it is on).
 */
function refusalPage(rt: SiteRuntime, req: http.IncomingMessage, request: WafRequest, verdict: Exclude<Verdict, { action: 'forward' }>, incidentId: string): RenderedResponse {
  if (verdict.action === 'challenge' && rt.policy) return renderChallenge(rt, rt.policy, verdict.decision, req, request);
  const options = authorizationOpen(rt.policy) ? { authorizeUrl: authorizeUrl(safeReturn(request.target)) } : {};
  return renderBlockResponse(rt.site.block_response, verdict.decision, incidentId, options);
}

/** Reports the verdict; a refusal's page, or null when the request goes on to the origin. */
function settle(ctx: ProxyContext, rt: SiteRuntime, req: http.IncomingMessage, request: WafRequest, verdict: Verdict): RenderedResponse | null {
  const areas = verdict.facts?.areas ?? null;
  if (verdict.action === 'forward') {
    if (verdict.record) reportDecision({ ctx, rt, request, decision: verdict.record, areas });
    return null;
  }
  const incidentId = reportDecision({ ctx, rt, request, decision: verdict.decision, areas });
  return refusalPage(rt, req, request, verdict, incidentId);
}

/** What the response phase needs to know about the request it answers. */
interface Answering {
  request: WafRequest;
  areas: readonly string[];
  /** A list let the request in: its 404s are not counted. */
  trusted: boolean;
  /**
   * The POST size limit still to enforce while streaming (bytes), 0 when none: a chunked body
   * longer than the inspected head has no size the request checks could read.
   */
  streamLimit: number;
}

const tooLarge = 'RAMPART_POST_TOO_LARGE';

/** The limit to apply to the rest of a body: only for a body that did not end within the head and declared no length. */
function streamLimitOf(rt: SiteRuntime, req: http.IncomingMessage, ended: boolean): number {
  const limit = rt.policy?.compiled.settings.request.limits.post_bytes ?? 0;
  return limit > 0 && !ended && req.headers['content-length'] === undefined ? limit : 0;
}

/** The rest of an upload longer than the window, and how to judge its parts once read (upload-tail.ts). */
interface UploadTail {
  streamed: StreamedMultipart;
  judge: (request: WafRequest) => Promise<RenderedResponse | null>;
}

/**
 * The checks a body streaming past the window goes through: the POST size limit (0 = none), the
 * web-shell scan of its files (upload-scan.ts), the parts of an upload past the window. The last two
 * each hold the last chunk until their verdict.
 */
function streamChecks(chunks: AsyncIterable<Buffer>, limit: number, tail: UploadTail | undefined, scan: StreamedScan | undefined): AsyncIterable<Buffer> {
  const sized = limit > 0 ? capped(chunks, limit) : chunks;
  const scanned = scan ? scannedUpload(sized, scan) : sized;
  return tail ? judgedUpload(scanned, tail.streamed, tail.judge) : scanned;
}

/** The web-shell scan of uploads applies: the site is protected and the request tab's switch is on (on without a policy). */
function uploadScanOn(rt: SiteRuntime): boolean {
  return rt.policy?.compiled.settings.request.upload_scan?.enabled ?? true;
}

/** The body's chunks, failing the stream (and so the upstream request) once they pass `limit` bytes. */
async function* capped(chunks: AsyncIterable<Buffer>, limit: number): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.length;
    if (total > limit) throw Object.assign(new Error('request body over the POST size limit'), { code: tooLarge });
    yield chunk;
  }
}

/** The origin's response headers plus those the gateway adds itself (appended in place). */
function withOwnHeaders(raw: string[], ctx: ProxyContext, rt: SiteRuntime): string[] {
  if (rt.site.via) raw.push('Via', '1.1 rampart');
  if (ctx.workerTag) raw.push('X-Rampart-Worker', ctx.workerTag);
  if (ctx.draining) raw.push('Connection', 'close');
  return raw;
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
    if (isGatewayPage(rt, req.url)) {
      const page = await serveGatewayPage(ctx, rt, req, wafRequest(req, clientIp, null, false), proto === 'https');
      return sendRendered(res, page, !req.complete);
    }
    let head: Buffer[] = [];
    let ended = announcesNoBody(req);
    let answering: Answering | undefined;
    let tail: UploadTail | undefined;
    let scan: StreamedScan | undefined;
    if (rt.site.status === 'on') {
      const read = await readBodyHead(req, rt.site.inspect_body_kb * 1024);
      if (read.aborted) return void res.destroy();
      head = read.chunks;
      ended = read.ended;
      const body = read.inspected.length > 0 ? read.inspected : null;
      let request = wafRequest(req, clientIp, body, read.truncated);
      // A multipart upload longer than the window: its parts past the window are read as it
      // streams and judged before its last bytes go (upload-tail.ts), so nothing goes unread here.
      const streamed = !ended && body ? streamMultipart(request, body, bodyLimitsFor(rt.site)) : null;
      if (streamed) request = { ...request, bodyTruncated: false };
      const verdict = await runRequestPipeline(ctx, rt, request);
      // A refused upload is not read to its end: the connection closes after the answer.
      const refusal = settle(ctx, rt, req, request, verdict);
      if (refusal) return sendRendered(res, refusal, !ended);
      if (rt.policy) answering = { request, areas: verdict.facts?.areas ?? [], trusted: verdict.action === 'forward' && verdict.trusted, streamLimit: streamLimitOf(rt, req, ended) };
      if (streamed && verdict.action === 'forward' && !verdict.trusted) tail = { streamed, judge: (more) => judgeAgain(rt, req, more, verdict.record !== null) };
      // The web-shell scan of the upload's files (upload-scan.ts): a whole body now, a streaming one on the way.
      const scanner = sharedUploadScanner();
      const reader = verdict.action === 'forward' && !verdict.trusted && (!ended || head.length > 0) && uploadScanOn(rt) ? uploadReaderFor(request, scanner.limits.maxFileBytes, ended) : null;
      if (reader !== null) {
        const refuse = (flagged: FlaggedUpload) => settle(ctx, rt, req, request, { action: 'block', decision: flaggedDecision(flagged), facts: verdict.facts }) ?? renderProxyError(403, 'The upload is refused.');
        if (!ended) {
          // The thread (when it is not up) loads while the body streams.
          scanner.warm();
          scan = { scanner, reader, refuse };
        }
        else {
          const flagged = await scanWholeBody(scanner, reader, head.length === 1 ? (head[0] as Buffer) : Buffer.concat(head));
          if (flagged) return sendRendered(res, refuse(flagged), false);
        }
      }
    }
    forward(rt, req, res, clientIp, head, ended, undefined, 0, answering, tail, scan);
  }

  /** An upload judged once more with the parts that streamed past the window: a refusal's page, or null. */
  async function judgeAgain(rt: SiteRuntime, req: http.IncomingMessage, request: WafRequest, recorded: boolean): Promise<RenderedResponse | null> {
    const verdict = await runRequestPipeline(ctx, rt, { ...request, now: Date.now() }, { again: true });
    // A finding recorded when the request was first judged is not recorded twice.
    return settle(ctx, rt, req, request, verdict.action === 'forward' && recorded ? { ...verdict, record: null } : verdict);
  }

  function forward(
    rt: SiteRuntime,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    clientIp: string,
    head: Buffer[],
    ended: boolean,
    tried: Set<Upstream> | undefined,
    staleRetries = 0,
    answering?: Answering,
    tail?: UploadTail,
    scan?: StreamedScan,
  ): void {
    const upstream = rt.pool.pick(Date.now(), tried);
    if (!upstream) return sendRendered(res, renderProxyError(502, 'No origin server is available.'), !ended);
    const peer = peerOf(req);
    const pairs = endToEndHeaders(req.rawHeaders).filter(([n]) => n.length !== 6 || n.toLowerCase() !== 'expect');
    const headers = upstreamRequestHeaders(answering ? upstreamHeadersForFilter(rt.policy, pairs) : pairs, {
      peerAddress: peer,
      trustedPeer: rt.trusted.size > 0 && rt.trusted.covers(peer),
      proto,
      host: req.headers.host,
      clientIp,
      upstreamHost: rt.site.preserve_host ? undefined : upstream.hostHeader,
      via: rt.site.via,
    });
    // The body: all of it in memory when it ended within what was read (so another origin can be
    // tried), else what was read followed by the rest of the stream, with backpressure.
    const body = ended
      ? head.length === 0 ? null : head.length === 1 ? (head[0] as Buffer) : Buffer.concat(head)
      : answering?.streamLimit || tail || scan
        ? Readable.from(streamChecks(prepend(head, req), answering?.streamLimit ?? 0, tail, scan), { objectMode: false })
        : head.length === 0 ? req : Readable.from(prepend(head, req), { objectMode: false });
    let answered = false;
    // A text body held whole for the filter library (response-phase.ts), until it ends or outgrows the bound.
    let held: { status: number; statusText: string; headers: [string, string][]; chunks: Buffer[]; size: number } | null = null;
    let abort: ((err?: Error) => void) | undefined;
    // The client went away: stop the upstream exchange too.
    const onClose = () => {
      if (!res.writableFinished) abort?.();
    };
    res.once('close', onClose);

    upstream.dispatcher.dispatch(
      {
        origin: upstream.url.origin,
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: flatten(headers),
        body,
        headersTimeout: ctx.timeouts.upstream_response_ms,
        bodyTimeout: ctx.timeouts.upstream_response_ms,
      },
      {
        onConnect(abortRequest: (err?: Error) => void) {
          abort = abortRequest;
        },
        onHeaders(status: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean {
          // 1xx interim answers (103 Early Hints) are not passed on, as Node's client did not either.
          if (status < 200) return true;
          answered = true;
          rt.pool.markOk(upstream);
          const raw = endToEndHeaders(latin1(rawHeaders));
          let out = rt.site.via ? raw.filter(([n]) => n.length !== 3 || n.toLowerCase() !== 'via') : raw;
          res.on('drain', resume);
          if (answering && rt.policy) {
            if (status === 404 && !answering.trusted) count404(ctx, rt, answering.request, answering.areas);
            const plan = planResponse(rt.policy, req.method ?? 'GET', status, out);
            out = plan.headers;
            if (plan.filter) {
              held = { status, statusText, headers: out, chunks: [], size: 0 };
              return true;
            }
          }
          res.writeHead(status, statusText, withOwnHeaders(flatten(out), ctx, rt));
          return true;
        },
        onData(chunk: Buffer): boolean {
          if (held) {
            held.chunks.push(chunk);
            held.size += chunk.length;
            if (held.size <= maxFilteredBody) return true;
            // Too big to rewrite: what was held goes out as it came, and the rest streams.
            const { status, statusText, headers, chunks } = held;
            held = null;
            res.writeHead(status, statusText, withOwnHeaders(flatten(headers), ctx, rt));
            let ok = true;
            for (const c of chunks) ok = res.write(c);
            return ok;
          }
          return res.write(chunk);
        },
        onComplete(): void {
          res.off('close', onClose);
          if (held && rt.policy) {
            const original = held.chunks.length === 1 ? held.chunks[0]! : Buffer.concat(held.chunks);
            const body = filterBody(rt.policy, original);
            res.writeHead(held.status, held.statusText, withOwnHeaders(flatten(headersForBody(held.headers, body.length, body !== original)), ctx, rt));
            held = null;
            return void res.end(body);
          }
          res.end();
        },
        onError(err: Error & { code?: string }): void {
          res.off('close', onClose);
          if (answered || res.headersSent) return void res.destroy();
          if (res.destroyed) return;
          const code = err.code ?? '';
          const replayable = ended; // the whole body is in `head`: another origin can be tried
          // A kept-alive connection the origin closed just as we reused it: idempotent requests are resent once.
          const stale = staleResets.has(code) && idempotent.has(req.method ?? '') && staleRetries === 0;
          const connectFailed = connectErrors.has(code);
          if (connectFailed) rt.pool.markFailed(upstream, Date.now());
          const triedNow = tried ?? new Set<Upstream>();
          if (!stale) triedNow.add(upstream);
          if (replayable && (stale || (connectFailed && triedNow.size < rt.pool.upstreams.length))) {
            return forward(rt, req, res, clientIp, head, ended, triedNow, staleRetries + (stale ? 1 : 0), answering, tail, scan);
          }
          if (code === uploadRefused) return sendRendered(res, (err as UploadRefusedError).refusal, true);
          if (code === tooLarge && answering) {
            const decision = { action: 'block', rule: 'request.post_size', kind: 'policy' } as const;
            const verdict = { action: 'block', decision, facts: null } as const;
            return sendRendered(res, settle(ctx, rt, req, { ...answering.request, body: null }, verdict) ?? renderProxyError(400, 'The request is too large.'), true);
          }
          if (code === 'UND_ERR_HEADERS_TIMEOUT') return sendRendered(res, renderProxyError(504, 'The origin server did not answer in time.'), !ended);
          // undici refuses what HTTP forbids (two Host or Content-Length headers): the client's fault.
          // It also refuses the request target `*` (OPTIONS *), which therefore gets 400 rather than
          // being forwarded: server-wide OPTIONS is of no use through a reverse proxy.
          if (code === 'UND_ERR_INVALID_ARG') return sendRendered(res, renderProxyError(400, 'The request is malformed.'), true);
          sendRendered(res, renderProxyError(502, 'The origin server could not be reached.'), !ended);
        },
      },
    );
  }
}

/** Raw header buffers as Node's server writes them back: latin1 keeps every byte as it came. */
function latin1(raw: readonly Buffer[]): string[] {
  const out = new Array<string>(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = (raw[i] as Buffer).toString('latin1');
  return out;
}

/** Already-read chunks followed by the rest of the request stream. */
async function* prepend(head: readonly Buffer[], rest: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  yield* head;
  yield* rest;
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
    if (isGatewayPage(rt, req.url)) return writeRawResponse(socket, renderProxyError(400, 'Not a WebSocket endpoint.'));
    if (rt.site.status === 'on') {
      const request = wafRequest(req, clientIp, null, false);
      const refusal = settle(ctx, rt, req, request, await runRequestPipeline(ctx, rt, request));
      if (refusal) return writeRawResponse(socket, refusal);
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
      for (const [n, v] of upgradeResponseHeaders(policyOf(rt), flattenToPairs(upRes.rawHeaders))) lines.push(`${n}: ${v}`);
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
      const policy = policyOf(rt);
      const answer = endToEndHeaders(upRes.rawHeaders);
      for (const [n, v] of policy ? rewriteResponseHeaders(policy.compiled, answer) : answer) if (n.toLowerCase() !== 'content-length') lines.push(`${n}: ${v}`);
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

/** The site's policy when it is on (an `off` site passes answers as they came). */
function policyOf(rt: SiteRuntime): SiteRuntime['policy'] | null {
  return rt.site.status === 'on' ? rt.policy : null;
}

function flattenToPairs(raw: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i] as string, raw[i + 1] as string]);
  return out;
}
