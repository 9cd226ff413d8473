import { percentDecode } from './decode/url.ts';
import { decodeContentEncoding, decodeWide, wideCharset } from './parse/body-encoding.ts';
import { declaredBodyKind, parseContentType, sniffBodyKind, type BodyKind, type ContentType } from './parse/content-type.ts';
import { flattenJson, lenientJsonStrings } from './parse/json.ts';
import { readJsonLines } from './parse/json-lines.ts';
import { parseMultipart } from './parse/multipart.ts';
import { readMultipartTail, resumeOffset, type MultipartTail, type MultipartTailLimits } from './parse/multipart-tail.ts';
import { parseCookies, parseUrlencoded, type RawPair } from './parse/pairs.ts';
import { tokenizeXml } from './parse/xml.ts';
import { headerValue, joinedHeaderValue } from './policy/facts.ts';
import type { RequestInput, WafRequest } from './types.ts';

/**
 * A request cut into named values, phase by phase (coraza's order): the request line (path and
 * query), the headers (cookies parsed), the body (by its declared type, checked against what it
 * looks like). Values stay raw here; decoding is the variants' job.
 */
export interface InputLimits {
  /** Values taken from one request (the rest are not inspected). */
  maxInputs: number;
  /** Body bytes read (the rest are not inspected). */
  maxBodyBytes: number;
  /** Head of each uploaded file handed to detectors. */
  maxFileHead: number;
  /** Nesting read in JSON bodies. */
  maxJsonDepth: number;
}

export const defaultInputLimits: InputLimits = {
  maxInputs: 2048,
  maxBodyBytes: 1 << 20,
  maxFileHead: 64 * 1024,
  maxJsonDepth: 32,
};

/** Headers whose value is structure the proxy itself checks, not application data. */
const structuralHeaders = new Set(['content-length', 'connection', 'cookie', 'transfer-encoding', 'keep-alive', 'upgrade-insecure-requests']);

/**
 * An HTML entity's `&` splits a parameter in two (`a=&lt;svg/onload&equals;alert(1)&gt;` gives
 * `a`, `lt;svg/onload`, `equals;alert(1)`, `gt;`): the application never sees the payload whole,
 * but a page that echoes the raw query does. When a pair's name starts the way an entity does,
 * the whole string is inspected as one more value.
 */
function splitAtEntity(pairs: readonly { name: string }[]): boolean {
  for (let k = 1; k < pairs.length; k++) {
    const name = percentDecode(pairs[k]!.name);
    const semi = name.indexOf(';');
    if (semi > 0 && semi <= 32 && /^#?[a-zA-Z0-9]+$/.test(name.slice(0, semi))) return true;
    if (/^#(?:[xX][0-9a-fA-F]|[0-9])/.test(name)) return true; // numeric reference without `;`
  }
  return false;
}

/**
 * A parameter name that holds a quote, a bracket of calls, a backquote, a semicolon or a blank
 * (once decoded) is no field of a form: HTML forms, PHP/Rails/qs brackets (`user[name]`) and
 * dotted binders (`Items[0].Name`) write none of them. It is a payload whose own `=` made the
 * split (`'admin', '1'='1'`, `and '5'x=y`), so the pair is inspected once more whole, as the
 * application that echoes or concatenates the raw text sees it.
 */
function nameCarriesPayload(decodedName: string): boolean {
  return /['"`();\s]/.test(decodedName);
}

/**
 * The inputs of urlencoded pairs (query or form body): each name, each value and, right after a
 * pair whose name carries a payload, the pair whole (raw; the variants decode it), so that a
 * query padded with pairs cannot push the whole reading past the input budget on its own.
 */
function pairInputs(pairs: readonly RawPair[], nameLocation: 'query_name' | 'body_name', valueLocation: 'query' | 'body', maxInputs: number): RequestInput[] {
  const out: RequestInput[] = [];
  for (const pair of pairs) {
    if (out.length >= maxInputs) break;
    const name = percentDecode(pair.name, true);
    out.push({ location: nameLocation, name, value: pair.name });
    if (pair.bare) continue;
    out.push({ location: valueLocation, name, value: pair.value });
    if (nameCarriesPayload(name)) {
      out.push({ location: valueLocation, name: '', value: `${pair.name}=${pair.value}` });
      for (const key of payloadIndexes(name)) out.push({ location: valueLocation, name, value: key });
    }
  }
  return out;
}

/**
 * The array keys of a name that carry a payload: PHP hands `name[0 or updatexml(…)#]` to the
 * application as the key `0 or updatexml(…)#`, and code that builds SQL from array keys (Drupal's
 * `expandArguments`, SA-CORE-2014-005) puts that key into the query as written. Read as a value.
 */
function payloadIndexes(decodedName: string): string[] {
  const keys: string[] = [];
  for (const m of decodedName.matchAll(/\[([^\]]{2,512})\]/g)) if (nameCarriesPayload(m[1]!)) keys.push(m[1]!);
  // PHP closes an unclosed bracket at the end of the name itself.
  const open = /\[([^\]]{2,512})$/.exec(decodedName);
  if (open && nameCarriesPayload(open[1]!)) keys.push(open[1]!);
  return keys.slice(0, 4);
}

function splitTarget(target: string): { path: string; query: string | null } {
  const q = target.indexOf('?');
  return q < 0 ? { path: target, query: null } : { path: target.slice(0, q), query: target.slice(q + 1) };
}

/** Phase 1: the path (whole, then each non-empty segment) and the query parameters. */
export function requestLineInputs(request: WafRequest, limits: InputLimits = defaultInputLimits): RequestInput[] {
  const out: RequestInput[] = [];
  const { path, query } = splitTarget(request.target);
  out.push({ location: 'path', name: '', value: path });
  // Segments of the raw path and of the decoded one (an encoded `%2F` hides a segment boundary).
  const seen = new Set([path]);
  for (const source of [path, percentDecode(path)]) {
    for (const segment of source.split('/')) {
      if (out.length >= limits.maxInputs) return out;
      if (segment && !seen.has(segment)) {
        seen.add(segment);
        out.push({ location: 'path', name: 'segment', value: segment });
      }
    }
  }
  if (query !== null) {
    const json = jsonQuery(query, limits);
    if (json !== null) return [...out, ...json].slice(0, limits.maxInputs);
    const pairs = parseUrlencoded(query, limits.maxInputs);
    out.push(...pairInputs(pairs, 'query_name', 'query', limits.maxInputs - out.length));
    if (splitAtEntity(pairs)) out.push({ location: 'query', name: '', value: query });
  }
  return out.slice(0, limits.maxInputs);
}

/**
 * A query that is one JSON document (`/collect?{"e":"view","url":"…"}`, encoded or not): pixel and
 * log endpoints take their event this way. Read as pairs it is one name full of brackets, quotes and
 * colons; read as JSON, each key and value is judged as what it is. As for a JSON body posted as a
 * form (jsonPostedAsForm), the values after each `&` are read too, where a form reader puts them.
 */
function jsonQuery(query: string, limits: InputLimits): RequestInput[] | null {
  const first = query[0];
  if (first !== '{' && first !== '[' && !/^%(?:7b|5b)/i.test(query)) return null;
  const text = percentDecode(query, false);
  const leaves = flattenJson(text, { maxDepth: limits.maxJsonDepth, maxLeaves: limits.maxInputs });
  if (leaves === null) return null;
  const out: RequestInput[] = leaves.map((leaf) => ({ location: leaf.isKey ? 'query_name' : 'query', name: leaf.path, value: leaf.value }));
  if (query.includes('&')) {
    for (const input of pairInputs(parseUrlencoded(query, limits.maxInputs).slice(1), 'query_name', 'query', limits.maxInputs)) if (input.location === 'query') out.push(input);
  }
  return out;
}

/** Phase 2: every header but the structural ones; cookies one by one. */
export function headerInputs(request: WafRequest, limits: InputLimits = defaultInputLimits): RequestInput[] {
  const out: RequestInput[] = [];
  for (const [name, value] of request.headers) {
    if (out.length >= limits.maxInputs) break;
    const lower = name.toLowerCase();
    if (lower === 'cookie') {
      for (const cookie of parseCookies(value, limits.maxInputs)) {
        out.push({ location: 'cookie_name', name: cookie.name, value: cookie.name });
        out.push({ location: 'cookie', name: cookie.name, value: cookie.value });
      }
    } else if (!structuralHeaders.has(lower)) {
      out.push({ location: 'header', name, value });
    }
  }
  return out.slice(0, limits.maxInputs);
}

/**
 * The body as the application reads it (parse/body-encoding.ts): inflated by its Content-Encoding,
 * and a UTF-16/32 document turned into text (multipart stays bytes: its parts name their own).
 */
interface BodyText {
  utf8: string;
  latin1: string;
  /** The whole (inflated) body, of which the text is the first `maxBodyBytes`. */
  bytes: Buffer;
}

/** The gzip header: magic 1F 8B, method 8 (deflate). */
function isGzipStream(body: Uint8Array): boolean {
  return body.length > 18 && body[0] === 0x1f && body[1] === 0x8b && body[2] === 8;
}

function bodyText(request: WafRequest, limits: InputLimits, type: ContentType): BodyText | null {
  if (!request.body || request.body.length === 0) return null;
  // A gzip stream sent without Content-Encoding (PostHog's `compression=gzip-js` beacons, log
  // shippers): its bytes read as text are noise; inflated, the payload is read as what it is.
  const declaredCoding = joinedHeaderValue(request, 'content-encoding') ?? (isGzipStream(request.body) ? 'gzip' : undefined);
  const decoded = decodeContentEncoding(request.body, declaredCoding, limits.maxBodyBytes);
  const whole = Buffer.from(decoded.bytes.buffer, decoded.bytes.byteOffset, decoded.bytes.byteLength);
  const buffer = whole.subarray(0, limits.maxBodyBytes);
  if (!type.mediaType.startsWith('multipart/')) {
    const wide = wideCharset(buffer, type.params.charset);
    if (wide !== null) {
      const text = decodeWide(buffer, wide);
      return { utf8: text, latin1: text, bytes: whole };
    }
  }
  return { utf8: buffer.toString('utf8'), latin1: buffer.toString('latin1'), bytes: whole };
}

/** Bytes of a multipart body scanned past the window for parts (their heads only are read). */
const maxMultipartScan = 16 << 20;

/**
 * Past the window, a large file first must not hide the text fields after it: the rest of the
 * body (as far as it was handed over) is read for parts, files by their head (parse/multipart-tail.ts).
 * The part the window cuts is read once more from its delimiter, so its value is not cut short.
 * Null when the whole body fits the window. protocol/unread.ts reads the same to tell what was not
 * read: the reading is kept per body, so the two share one pass over up to 16 MiB.
 */
export function multipartTailOf(bytes: Buffer, boundary: string, limits: InputLimits): MultipartTail | null {
  if (bytes.length <= limits.maxBodyBytes || !boundary) return null;
  const known = tailMemo.get(bytes.buffer);
  if (known && known.offset === bytes.byteOffset && known.length === bytes.length && known.boundary === boundary && sameTailLimits(known.limits, limits)) return known.tail;
  const from = resumeOffset(bytes.subarray(0, limits.maxBodyBytes), boundary);
  const tail = readMultipartTail(bytes.subarray(0, maxMultipartScan), from, boundary, multipartTailLimits(limits));
  tailMemo.set(bytes.buffer, { offset: bytes.byteOffset, length: bytes.length, boundary, limits, tail });
  return tail;
}

/** One reading per body's memory (the request's body, or its memoised inflation: parse/body-encoding.ts). */
const tailMemo = new WeakMap<ArrayBufferLike, { offset: number; length: number; boundary: string; limits: InputLimits; tail: MultipartTail }>();

function sameTailLimits(a: InputLimits, b: InputLimits): boolean {
  return a === b || (a.maxBodyBytes === b.maxBodyBytes && a.maxInputs === b.maxInputs && a.maxFileHead === b.maxFileHead);
}

/** How much of a multipart body past the window is read: as much text as the window holds, and as much of file heads. */
export function multipartTailLimits(limits: InputLimits): MultipartTailLimits {
  return { maxParts: limits.maxInputs, fileHead: limits.maxFileHead, textBudget: limits.maxBodyBytes, fileBudget: limits.maxBodyBytes };
}

function bodyInputsOfKind(kind: BodyKind, text: BodyText, boundary: string, limits: InputLimits): RequestInput[] | null {
  const out: RequestInput[] = [];
  switch (kind) {
    case 'urlencoded': {
      const pairs = parseUrlencoded(text.utf8, limits.maxInputs);
      out.push(...pairInputs(pairs, 'body_name', 'body', limits.maxInputs));
      if (splitAtEntity(pairs)) out.push({ location: 'body', name: '', value: text.utf8 });
      return out;
    }
    case 'multipart': {
      // Sniffed without a header: the first line is `--boundary`.
      const guessed = boundary || (text.latin1.startsWith('--') ? text.latin1.slice(2, text.latin1.search(/\r?\n/)) : '');
      const tail = multipartTailOf(text.bytes, guessed, limits);
      const parts = parseMultipart(tail ? text.latin1 + '\r\n' + tail.text : text.latin1, guessed, { maxParts: limits.maxInputs, maxFileHead: limits.maxFileHead });
      if (parts.length === 0) return null;
      for (const part of parts) {
        out.push({ location: 'body_name', name: part.name, value: part.name });
        if (part.fileName === null) out.push({ location: 'body', name: part.name, value: part.value });
        else {
          out.push({ location: 'file_name', name: part.name, value: part.fileName });
          if (part.otherFileName !== undefined) out.push({ location: 'file_name', name: part.name, value: part.otherFileName });
          out.push({ location: 'file_content', name: part.fileName, value: part.value });
        }
      }
      return out;
    }
    case 'json': {
      const leaves = flattenJson(text.utf8, { maxDepth: limits.maxJsonDepth, maxLeaves: limits.maxInputs });
      if (leaves === null) {
        if (sniffBodyKind(text.utf8) !== 'json') return null;
        // One JSON document per line, perhaps with compressed payloads (Sentry envelopes, NDJSON).
        const lines = readJsonLines(text.bytes.subarray(0, limits.maxBodyBytes), { maxDepth: limits.maxJsonDepth, maxLeaves: limits.maxInputs, maxInflated: limits.maxBodyBytes });
        if (lines !== null) {
          for (const leaf of lines.leaves) out.push({ location: leaf.isKey ? 'body_name' : 'body', name: leaf.path, value: leaf.value });
          for (const rest of lines.rest) out.push({ location: 'raw_body', name: '', value: rest });
          return out;
        }
        // Broken JSON: each string literal, then the raw text.
        lenientJsonStrings(text.utf8, limits.maxInputs).forEach((value, i) => out.push({ location: 'body', name: `json[${i}]`, value }));
        out.push({ location: 'raw_body', name: '', value: text.utf8 });
        return out;
      }
      for (const leaf of leaves) out.push({ location: leaf.isKey ? 'body_name' : 'body', name: leaf.path, value: leaf.value });
      return out;
    }
    case 'xml': {
      const items = tokenizeXml(text.utf8, limits.maxInputs);
      if (items.length === 0) return null;
      for (const item of items) out.push({ location: 'xml', name: item.name, value: item.value });
      // The raw body too: a declaration the tokenizer could not place is still seen.
      out.push({ location: 'raw_body', name: '', value: text.utf8 });
      return out;
    }
    case 'text':
      return [{ location: 'raw_body', name: '', value: text.utf8 }];
  }
}

/**
 * A whole JSON document under `application/x-www-form-urlencoded`: what `fetch(url, {body: JSON.stringify(x)})`
 * with a form header, jQuery's `$.post(url, JSON.stringify(x))` and many beacon fallbacks send. Read
 * as a form it is one parameter whose name is the whole document (brackets, quotes, colons: a name no
 * form has); read as JSON each key and value is judged as what it is. Only when the whole body parses.
 * A form reader would still split it at `&`: the values after each `&` are read as well, so a payload
 * placed for the form reading (`{"a":"&id=1' or 1=1--"}`) is seen in the place it lands.
 */
function jsonPostedAsForm(text: BodyText, limits: InputLimits): RequestInput[] | null {
  const leaves = flattenJson(text.utf8, { maxDepth: limits.maxJsonDepth, maxLeaves: limits.maxInputs });
  if (leaves === null) return null;
  const out: RequestInput[] = leaves.map((leaf) => ({ location: leaf.isKey ? 'body_name' : 'body', name: leaf.path, value: leaf.value }));
  if (text.utf8.includes('&')) {
    const pairs = parseUrlencoded(text.utf8, limits.maxInputs).slice(1);
    for (const input of pairInputs(pairs, 'body_name', 'body', limits.maxInputs)) if (input.location === 'body') out.push(input);
  }
  return out;
}

/**
 * Phase 3: the body by its declared type; when the header is missing or the body does not parse
 * as declared, by what the body looks like; failing all, the raw text.
 */
export function bodyInputs(request: WafRequest, limits: InputLimits = defaultInputLimits): RequestInput[] {
  const type = parseContentType(headerValue(request, 'content-type') ?? undefined);
  const text = bodyText(request, limits, type);
  if (text === null) return [];
  const declared = declaredBodyKind(type);
  const boundary = type.params.boundary ?? '';
  const sniffed = sniffBodyKind(text.utf8);
  if (declared === 'urlencoded' && sniffed === 'json') {
    const json = jsonPostedAsForm(text, limits);
    if (json !== null) return json.slice(0, limits.maxInputs);
  }
  const tried = new Set<BodyKind>();
  for (const kind of [declared, sniffed]) {
    if (kind === null || tried.has(kind)) continue;
    tried.add(kind);
    const inputs = bodyInputsOfKind(kind, text, boundary, limits);
    if (inputs !== null) return inputs.slice(0, limits.maxInputs);
  }
  return [{ location: 'raw_body', name: '', value: text.utf8 }];
}

/** All three phases, in order. */
export function requestInputs(request: WafRequest, limits: InputLimits = defaultInputLimits): RequestInput[] {
  return [...requestLineInputs(request, limits), ...headerInputs(request, limits), ...bodyInputs(request, limits)].slice(0, limits.maxInputs);
}
