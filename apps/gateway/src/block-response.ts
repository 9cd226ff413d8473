import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebsiteResponse } from '@rampart/contracts';
import type { Decision } from '@rampart/waf';

export interface RenderedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const page = (title: string, inner: string) =>
  `<!doctype html>\n<html><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family:sans-serif;max-width:40em;margin:4em auto"><h1>${title}</h1>${inner}</body></html>\n`;

/** Common headers: never cached, never sniffed, the connection kept (the client did nothing wrong to the socket). */
const baseHeaders = (contentType: string) => ({
  'content-type': contentType,
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
});

export interface BlockPageOptions {
  /** The gateway's authorization form, linked from the standard and detailed pages when the password is on. */
  authorizeUrl?: string;
}

/**
 * What a blocked request gets back (spec: standard error, detailed error, jump to URL, custom
 * content; default 403 standard error). Detailed adds the rule and kind (not the evidence: echoing
 * attacker text back is itself an XSS vector, even escaped it helps attackers tune payloads) and an
 * incident id the operator can find in the event list.
 */
export function renderBlockResponse(settings: WebsiteResponse, decision: Decision, incidentId: string, options: BlockPageOptions = {}): RenderedResponse {
  const status = settings.status;
  // The way in for a visitor who has the authorization password (the gateway's own pages decide
  // whether the password is on; the link is offered only then). Both languages: this page has no
  // language of its own.
  const authorize = options.authorizeUrl
    ? `<p><a href="${escapeHtml(options.authorizeUrl)}">Authorize this address with the password / 使用授权密码为本地址授权</a></p>`
    : '';
  switch (settings.type) {
    case 'redirect':
      // The settings group says redirects answer 302, whatever the status field holds.
      return {
        status: 302,
        headers: { ...baseHeaders('text/html; charset=utf-8'), location: settings.redirect_url || '/' },
        body: page('Redirecting', `<p><a href="${escapeHtml(settings.redirect_url || '/')}">Continue</a></p>`),
      };
    case 'custom':
      // The operator's own page, sent as HTML (the settings group has no content type).
      return { status, headers: baseHeaders('text/html; charset=utf-8'), body: settings.content };
    case 'detailed': {
      const rule = 'rule' in decision ? decision.rule : 'unknown';
      const kind = decision.action === 'block' ? decision.kind : decision.action;
      return {
        status,
        headers: baseHeaders('text/html; charset=utf-8'),
        body: page(
          'Request blocked',
          `<p>This request was blocked by the website firewall.</p><ul><li>Rule: ${escapeHtml(rule)}</li>` +
            `<li>Type: ${escapeHtml(kind)}</li><li>Incident: ${escapeHtml(incidentId)}</li></ul>${authorize}`,
        ),
      };
    }
    case 'standard':
      return {
        status,
        headers: baseHeaders('text/html; charset=utf-8'),
        body: page('Request blocked', `<p>This request was blocked by the website firewall.</p>${authorize}`),
      };
  }
}

/** The plain pages of the proxy itself (502, 504, 400, 421). */
export function renderProxyError(status: number, reason: string): RenderedResponse {
  const titles: Record<number, string> = { 400: 'Bad Request', 421: 'Misdirected Request', 502: 'Bad Gateway', 504: 'Gateway Timeout' };
  const title = `${status} ${titles[status] ?? 'Error'}`;
  return { status, headers: baseHeaders('text/html; charset=utf-8'), body: page(title, `<p>${escapeHtml(reason)}</p>`) };
}

/** Writes a page of the gateway's own; `closeConnection` when the request body was not read to its end. */
export function sendRendered(res: http.ServerResponse, r: RenderedResponse, closeConnection: boolean): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string | number> = { ...r.headers, 'content-length': Buffer.byteLength(r.body) };
  if (closeConnection) headers.connection = 'close';
  res.writeHead(r.status, headers);
  res.end(r.body);
}

/** Writes a page of the gateway's own straight to a socket that has no response object (an upgrade, a parser error), then closes it. */
export function writeRawResponse(socket: Duplex, r: RenderedResponse): void {
  const lines = [`HTTP/1.1 ${r.status} ${http.STATUS_CODES[r.status] ?? ''}`];
  for (const [n, v] of Object.entries(r.headers)) lines.push(`${n}: ${v}`);
  lines.push(`content-length: ${Buffer.byteLength(r.body)}`, 'connection: close', '', '');
  socket.end(lines.join('\r\n') + r.body);
}
