/**
 * How the body is delimited (CRS 920160, 920170, 920171, 920181, 920340, 920640, and the
 * `Transfer-Encoding` variants of 921 request smuggling). A front end and a back end that read the
 * length differently each see a different next request: every ambiguity here is a smuggling vector.
 *
 * Severities: two lengths, a length beside Transfer-Encoding, or a Transfer-Encoding that is not
 * plain `chunked` are MUST NOTs of RFC 9112 §6 and the very shapes of smuggling: 2, and so is a body
 * on HEAD (no client sends one) or a chunked one on GET. A body on GET with a Content-Length is
 * legal (Elasticsearch clients send one): no finding. A body without Content-Type is sloppy: 1, unless
 * its own first bytes say what it is and a browser's script sent it (a beacon's JSON: Origin or
 * Sec-Fetch-Mode cors/no-cors; CRS 920640's typeless JSON and XML from a test agent stay 1).
 *
 * Left to the site administrator, in both modes (strict is a new site's default): a body on GET
 * with a Content-Length (CRS 920170; Elasticsearch's clients, `curl -X GET -d …`), and a POST
 * with neither Content-Length nor Transfer-Encoding (CRS 920180): that is an empty body (RFC 9112
 * §6.3) and what `curl -X POST` without data sends, so no smuggling and a real client.
 */
import { sniffBodyKind } from '../parse/content-type.ts';
import { protocolHit, strongest, type ProtocolHit } from './hit.ts';
import { header, type RequestView } from './view.ts';

const where = (name: string) => ({ location: 'header' as const, name });

function checkContentLength(view: RequestView): ProtocolHit | null {
  const lengths = view.headers.get('content-length');
  if (!lengths) return null;
  for (const value of lengths) {
    if (!/^\s*\d{1,15}\s*$/.test(value)) return protocolHit('protocol.content_length_syntax', 2, where('Content-Length'), value);
  }
  if (lengths.length > 1 && new Set(lengths.map((v) => v.trim())).size > 1) {
    return protocolHit('protocol.content_length_conflict', 2, where('Content-Length'), lengths.join(', '));
  }
  if (view.headers.has('transfer-encoding')) {
    return protocolHit('protocol.length_and_chunked', 2, where('Transfer-Encoding'), `${lengths[0]} + ${header(view, 'transfer-encoding')}`, 'crlf');
  }
  return null;
}

/** `chunked` last, once, spelled plainly; codings before it from the registered list. */
function checkTransferEncoding(view: RequestView): ProtocolHit | null {
  const values = view.headers.get('transfer-encoding');
  if (!values) return null;
  const codings = values.join(',').split(',').map((c) => c.trim());
  const evidence = values.join(', ');
  const chunkedAt = codings.map((c) => c.toLowerCase()).lastIndexOf('chunked');
  const plain = codings.every((c) => /^(?:chunked|gzip|x-gzip|deflate|compress|identity)$/i.test(c));
  if (!plain || chunkedAt !== codings.length - 1 || codings.filter((c) => c.toLowerCase() === 'chunked').length > 1) {
    return protocolHit('protocol.transfer_encoding_obfuscated', 2, where('Transfer-Encoding'), evidence, 'crlf');
  }
  if (view.method === 'HEAD') return protocolHit('protocol.body_on_head', 2, where('Transfer-Encoding'), `HEAD with ${evidence}`);
  // A chunked GET: the body has no meaning (RFC 9110 §9.3.1 names this very shape a smuggling
  // risk), and front ends that take GET as bodiless forward the chunks as the next request. The
  // clients that send a body on GET (Elasticsearch's) send it with Content-Length.
  if (view.method === 'GET') return protocolHit('protocol.chunked_get', 2, where('Transfer-Encoding'), `GET with ${evidence}`, 'crlf');
  return null;
}

function declaredLength(view: RequestView): number {
  const value = header(view, 'content-length');
  return value === undefined ? 0 : Number(value.trim()) || 0;
}

function checkBodyPlacement(view: RequestView): ProtocolHit | null {
  const length = declaredLength(view);
  const hasBody = length > 0 || (view.body !== null && view.body.length > 0);
  if (!hasBody) return null;
  // GET with a body: Elasticsearch's search API, legal (RFC 9110 §9.3.1 only says it has no
  // defined meaning), so not even recorded. HEAD with one: no client, and no server reads it.
  if (view.method === 'HEAD') return protocolHit('protocol.body_on_head', 2, where('Content-Length'), `HEAD with ${length || view.body?.length} body bytes`);
  if (view.method === 'GET') return null;
  if (!view.headers.has('content-type') && !(isSelfDescribing(view.body) && isBrowserScriptRequest(view))) return protocolHit('protocol.body_without_type', 1, where('Content-Type'), `${length || view.body?.length} body bytes`);
  return null;
}

/**
 * A browser's script sent it (fetch, sendBeacon): browsers add Origin to every POST they send and
 * Sec-Fetch-Mode to everything; a beacon's mode is `no-cors` or `cors`, never `navigate`.
 */
function isBrowserScriptRequest(view: RequestView): boolean {
  const mode = header(view, 'sec-fetch-mode')?.trim().toLowerCase();
  if (mode !== undefined) return mode === 'cors' || mode === 'no-cors' || mode === 'same-origin';
  return header(view, 'origin') !== undefined;
}

/**
 * A body whose format shows in its first bytes (JSON, a form, XML, multipart): `navigator.sendBeacon`
 * with a Blob built without a type and `fetch(url, {method: 'POST', body})` send exactly this, and the
 * engine reads it by that format anyway. A body of no recognisable format stays sloppy (1).
 */
function isSelfDescribing(body: Uint8Array | null): boolean {
  if (body === null || body.length === 0) return false;
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, 512)).toString('utf8');
  const kind = sniffBodyKind(head);
  return kind !== 'text';
}

export function checkFraming(view: RequestView): ProtocolHit | null {
  return strongest([checkContentLength(view), checkTransferEncoding(view), checkBodyPlacement(view)]);
}
