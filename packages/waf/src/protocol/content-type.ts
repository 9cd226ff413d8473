/**
 * The Content-Type header (CRS 920420, 920470, 920480, 920530, 920620, 921421/921422): one header,
 * a `type/subtype` with `name=value` parameters, one charset the filters can read, and parameters
 * that do not name another media type (a body parser that takes `boundary="application/json"`
 * for the type reads the body as JSON while the WAF reads a form).
 *
 * Severities: two Content-Type headers, two charsets, an EBCDIC or UTF-7 charset, a media type in a
 * boundary, OGNL in the header (Struts2 CVE-2017-5638), a body whose type has no `type/subtype`, a
 * body framed by a boundary its type does not declare: 2, no client sends them. Any other charset
 * than the common ones, or a header that does not parse otherwise: 1 (odd clients exist). Which
 * media types a site accepts is the file-type policy's business, not this check's: CRS 920420's
 * short allowed list (forms, JSON, XML) is neither loose nor strict here, since APIs take
 * octet-stream, CSV, GraphQL, gRPC-web and vendor types, and blocking them would break ordinary
 * sites by default (a body under no media type at all is another matter: see checkContentType).
 * CRS 920420 also refuses types browsers themselves send (`application/csp-report`,
 * `application/reports+json`) and CloudEvents webhooks: none of those is a finding. Whitespace
 * after a parameter's `=` (`boundary=  x`, CRS 920470) is not one either: CRS's own must-pass tests
 * send `boundary= x`, and one space or two is no argument.
 */
import { dangerousCharset } from './headers.ts';
import { protocolHit, strongest, type ProtocolHit } from './hit.ts';
import type { RequestView } from './view.ts';

const where = { location: 'header' as const, name: 'Content-Type' };

const commonCharsets = /^(?:utf-?8|us-ascii|ascii|iso-?8859-\d{1,2}|latin-?1|windows-125\d|utf-?16(?:[lb]e)?|gbk|gb2312|gb18030|big5|shift[_-]jis|euc-(?:jp|kr)|koi8-[ru])$/i;

/** The families registered charset names belong to (IANA's list, by prefix). */
const charsetFamilies = /^(?:utf-?(?:7|8|16|32)(?:[lb]e)?|ucs-?[24]|(?:us-)?ascii|iso[-_]?(?:8859|2022|646|10646)[\w-]*|latin-?\d*|windows-\d{3,4}|cp-?\d{2,5}|ibm-?\d{2,5}|csibm\d+|ms-?\w+|x-[\w-]+|koi8-?\w*|gb(?:k|2312|18030|_2312-80)|big5(?:-hkscs)?|shift[_-]?jis|sjis|euc-?\w+|tis-?620|mac\w*|(?:x-)?ebcdic[\w-]*|hz-gb-2312|viscii|armscii-8|geostd8|cesu-8|scsu|bocu-1|iso-ir-\d+|ks_c_5601-1987|jis_\w+|csisolatin\d|l\d)$/i;

interface Param {
  name: string;
  value: string;
}

/** `type/subtype; a=b; c="d;e"`: a tokenizer, so quoted semicolons do not split a parameter. */
function parseParams(text: string): Param[] | null {
  const params: Param[] = [];
  let i = 0;
  while (i < text.length) {
    while (text[i] === ' ' || text[i] === '\t' || text[i] === ';') i++;
    if (i >= text.length) break;
    const eq = text.indexOf('=', i);
    const semi = text.indexOf(';', i);
    if (eq < 0 || (semi >= 0 && semi < eq)) return null; // a parameter without '='
    const name = text.slice(i, eq).trim().toLowerCase();
    if (!/^[a-z0-9!#$&^_.+-]+$/.test(name)) return null;
    i = eq + 1;
    while (text[i] === ' ' || text[i] === '\t') i++;
    let value = '';
    if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      if (close < 0) return null;
      value = text.slice(i + 1, close);
      i = close + 1;
    } else {
      const end = text.indexOf(';', i);
      value = text.slice(i, end < 0 ? undefined : end).trim();
      i = end < 0 ? text.length : end;
    }
    params.push({ name, value });
  }
  return params;
}

function announcesBody(view: RequestView): boolean {
  if (view.body !== null && view.body.length > 0) return true;
  if (view.headers.has('transfer-encoding')) return true;
  return Number(view.headers.get('content-length')?.[0] ?? 0) > 0;
}

export function checkContentType(view: RequestView): ProtocolHit | null {
  const values = view.headers.get('content-type');
  if (!values) return null;
  // Two types for one body: parsers pick different ones. Without a body there is nothing to confuse.
  // (The head is inspected before the body arrives: its announcement counts as a body.)
  if (values.length > 1) return announcesBody(view) ? protocolHit('protocol.content_type_repeated', 2, where, values.join(' | ')) : null;
  const value = values[0]!;
  // Struts2 OGNL in Content-Type (CVE-2017-5638): `%{(#…)}` / `${…}`.
  if (/[%$]\{|#_?memberaccess|@ognl/i.test(value)) return protocolHit('protocol.content_type_expression', 2, where, value);
  const semi = value.indexOf(';');
  const media = (semi < 0 ? value : value.slice(0, semi)).trim();
  if (media === '' && semi < 0) return null; // an empty header: nothing declared (the framing check weighs the body)
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+*-]+$/i.test(media)) {
    // No `type/subtype` at all (`application`, `multipart/`, a made-up word) in front of a body:
    // the body has no declared reading, and each component picks its own (PHP keeps it raw, a
    // boundary-sniffing parser splits a form, another defaults to urlencoded). Every client library
    // writes a slash and both halves; other slips stay odd: a stray character, or two types joined
    // by a comma (`application/json, application/json`: fetch's Headers.append called twice).
    const noMediaType = !media.includes('/') || media.startsWith('/') || media.endsWith('/');
    return protocolHit('protocol.content_type_syntax', noMediaType && announcesBody(view) ? 2 : 1, where, value);
  }
  const params = semi < 0 ? [] : parseParams(value.slice(semi + 1));
  if (params === null) return protocolHit('protocol.content_type_syntax', 1, where, value);
  return strongest([checkCharsets(params, value), checkTypeInParams(params, media, value)]);
}

function checkCharsets(params: readonly Param[], value: string): ProtocolHit | null {
  const charsets = params.filter((p) => p.name === 'charset' || /charset=/i.test(p.value));
  if (charsets.length > 1) return protocolHit('protocol.charset_repeated', 2, where, value);
  const charset = params.find((p) => p.name === 'charset')?.value.replace(/^'(.*)'$/, '$1');
  if (charset === undefined) return null;
  if (dangerousCharset(charset)) return protocolHit('protocol.charset_dangerous', 2, where, value);
  // A name of no charset family at all ("garbage", "/x/"): a probe for how the parser fails.
  if (!charsetFamilies.test(charset)) return protocolHit('protocol.charset_unknown', 2, where, value);
  if (!commonCharsets.test(charset)) return protocolHit('protocol.charset_unusual', 1, where, value);
  return null;
}

/** The multipart subtypes of RFC 2046 and its successors that a request body may carry. */
const multipartSubtypes = /^multipart\/(?:form-data|related|mixed|alternative|byteranges|signed|encrypted|x-mixed-replace|batch)$/i;

/** Does the body open with the boundary's delimiter line (`--boundary`, after an optional preamble line)? */
function framedBy(view: RequestView, boundary: string): boolean {
  if (view.body === null || boundary === '') return false;
  const head = Buffer.from(view.body.buffer, view.body.byteOffset, Math.min(view.body.byteLength, 512 + boundary.length)).toString('latin1');
  const delimiter = `--${boundary}`;
  return head.split('\n', 2).some((line) => line.trimEnd() === delimiter || line.trimEnd() === `${delimiter}--`);
}

/**
 * A parameter whose value is itself a media type, on a type that takes no such parameter; a
 * boundary on a type that is not multipart, or a multipart subtype nobody registered. Parsers that
 * look for `multipart/` or `boundary=` anywhere read such a body as a form a WAF that trusts the
 * type did not split (CRS 920420's evasion). No client library writes either, but an API may take
 * odd types, so the header alone is 1; a body that is in fact laid out as a form with that boundary
 * is the evasion itself (a type that is not multipart cannot carry multipart framing): 2, in
 * checkUndeclaredMultipart once the body has arrived.
 */
function checkTypeInParams(params: readonly Param[], media: string, value: string): ProtocolHit | null {
  const lower = media.toLowerCase();
  // multipart/related (SOAP MTOM) legitimately names types in `type` and `start-info`.
  if (lower === 'multipart/related') return null;
  for (const p of params) {
    if (p.name === 'boundary' && /^[a-z]+\/[a-z0-9.+-]+$/i.test(p.value.trim())) return protocolHit('protocol.content_type_confusion', 2, where, value);
  }
  if (lower.startsWith('multipart/') ? !multipartSubtypes.test(lower) : params.some((p) => p.name === 'boundary')) return protocolHit('protocol.content_type_confusion', 1, where, value);
  return null;
}

/**
 * Phase 3, once the body is there: the same confusion when the body is in fact laid out as a form
 * with the boundary its type should not carry (see checkTypeInParams).
 */
export function checkUndeclaredMultipart(view: RequestView): ProtocolHit | null {
  if (view.body === null || view.body.length === 0) return null;
  const values = view.headers.get('content-type');
  if (values?.length !== 1) return null;
  const value = values[0]!;
  const semi = value.indexOf(';');
  if (semi < 0) return null;
  const media = value.slice(0, semi).trim().toLowerCase();
  if (media === 'multipart/related' || multipartSubtypes.test(media)) return null;
  const boundary = parseParams(value.slice(semi + 1))?.find((p) => p.name === 'boundary')?.value;
  if (boundary === undefined || !framedBy(view, boundary)) return null;
  return protocolHit('protocol.content_type_confusion', 2, where, value);
}
