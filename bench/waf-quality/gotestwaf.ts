/**
 * gotestwaf's test cases (testcases/<set>/*.yml) as concrete requests: every payload × encoder ×
 * placeholder, built as gotestwaf's Go source builds them (internal/payload/placeholder and
 * /encoder): random parameter names are 5 random bytes in hex (seeded here), JSONRequest re-encodes
 * the payload as JS unicode escapes and SOAPBody as XML entities on top of the file's encoder.
 * Sets owasp, owasp-api and community are attacks; false-pos is legitimate traffic.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { httpRequest, type BenchRequest, type HeaderList } from './bench-request.ts';
import { readCorpusYaml } from './corpora.ts';
import { seededRandom, type Random } from './random.ts';

export const gotestwafSets = ['owasp', 'owasp-api', 'community', 'false-pos'] as const;

interface TestCaseFile {
  payload: string[];
  encoder: string[];
  placeholder: (string | Record<string, Record<string, unknown>>)[];
  type?: string;
}

/** What could not be built, with the reason (counted, reported, never silently dropped). */
export interface Skipped { set: string; id: string; reason: string }

/* Encoders (internal/payload/encoder). */

/** Go's url.QueryEscape: unreserved characters stay, space becomes '+', the rest %XX (upper case). */
export function goQueryEscape(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** `\uXXXX` per UTF-16 code unit, lower-case hex, as gotestwaf's JSUnicode encoder. */
export function jsUnicode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += '\\u' + text.charCodeAt(i).toString(16).padStart(4, '0');
  return out;
}

/** Go's xml.NewEncoder(b).Encode(string): `<string>` element with EscapeString's entities. */
export function goXmlEntity(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const entity = ({ '"': '&#34;', "'": '&#39;', '&': '&amp;', '<': '&lt;', '>': '&gt;', '\t': '&#x9;', '\n': '&#xA;', '\r': '&#xD;' } as Record<string, string>)[ch];
    if (entity) out += entity;
    // Characters outside XML's range are replaced, as Go does.
    else if (code < 0x20 || (code >= 0xd800 && code <= 0xdfff) || code === 0xfffe || code === 0xffff) out += '\ufffd';
    else out += ch;
  }
  return `<string>${out}</string>`;
}

export function applyEncoder(name: string, payload: string): string {
  switch (name) {
    case 'Plain': return payload;
    case 'URL': return goQueryEscape(payload);
    case 'Base64': return Buffer.from(payload, 'utf8').toString('base64');
    case 'Base64Flat': return Buffer.from(payload, 'utf8').toString('base64').replaceAll('=', '');
    case 'JSUnicode': return jsUnicode(payload);
    case 'XMLEntity': return goXmlEntity(payload);
    default: throw new Error(`unknown gotestwaf encoder ${name}`);
  }
}

/* The request target, as Go's url.Parse + URL.RequestURI() would put it on the wire. */

const pathAllowedRaw = /^[A-Za-z0-9\-_.~$&+,/:;=@!'()*[\]%]*$/;
const hexPair = /%[0-9A-Fa-f]{2}/g;

/** Percent-encodes what cannot stand on a request line (controls, space, non-ASCII), nothing else. */
function lineSafe(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    out += byte <= 0x20 || byte >= 0x7f ? '%' + byte.toString(16).toUpperCase().padStart(2, '0') : String.fromCharCode(byte);
  }
  return out;
}

/**
 * Go keeps a path as written when it is validly encoded and re-escapes it otherwise (decoding
 * first). Where Go would refuse the URL (a bad `%` escape, a control character) gotestwaf cannot
 * send the case at all; here it is still sent, with only the bytes a request line cannot hold
 * percent-encoded — the WAF under test then sees the malformed target, which is the point.
 */
export function goPath(path: string): string {
  const badEscape = /%(?![0-9A-Fa-f]{2})/.test(path);
  // eslint-disable-next-line no-control-regex
  if (badEscape || /[\x00-\x1f\x7f]/.test(path)) return lineSafe(path);
  if (pathAllowedRaw.test(path)) return path;
  const decoded = Buffer.from(path.replace(hexPair, (m) => String.fromCharCode(parseInt(m.slice(1), 16))), 'latin1');
  let out = '';
  for (const byte of decoded) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~$&+,/:;=@]/.test(c) ? c : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** Go sends the raw query as written; only bytes a request line cannot hold are escaped here. */
export function goTarget(pathAndQuery: string): string {
  const q = pathAndQuery.indexOf('?');
  if (q < 0) return goPath(pathAndQuery);
  return goPath(pathAndQuery.slice(0, q)) + '?' + lineSafe(pathAndQuery.slice(q + 1));
}

/* Placeholders (internal/payload/placeholder). The base URL is http://localhost/. */

const UA: HeaderList = [['User-Agent', 'Go-http-client/1.1']];

function multipartBody(random: Random, field: string, value: string): { body: Buffer; type: string } {
  const boundary = random.hex(30); // Go's multipart.Writer: 30 random bytes in hex
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n`),
    Buffer.from(value, 'utf8'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

const soapEnvelope = (tag: string, value: string) => `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"
\txmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
\t<soapenv:Header>
\t\t<ns1:RequestHeader soapenv:actor="http://schemas.xmlsoap.org/soap/actor/next"
\t\t\tsoapenv:mustUnderstand="0" xmlns:ns1="https://www.google.com/apis/ads/publisher/v202002">
\t\t</ns1:RequestHeader>
\t</soapenv:Header>
\t<soapenv:Body>
\t\t<getAdUnitsByStatement xmlns="https://www.google.com/apis/ads/publisher/v202002">
\t\t\t<filterStatement>
\t\t\t\t<${tag}>${value}</${tag}>
\t\t\t</filterStatement>
\t\t</getAdUnitsByStatement>
\t</soapenv:Body>
</soapenv:Envelope>`;

/** Builds the wire request, or a reason it cannot exist (e.g. gRPC needs an HTTP/2 service). */
export function buildPlaceholder(name: string, config: Record<string, unknown> | null, payload: string, random: Random): { wire: Buffer; fresh: boolean } | string {
  const wire = (method: string, target: string, headers: HeaderList, body?: Buffer | string) =>
    ({ wire: httpRequest(method, goTarget(target), [...UA, ...headers], body), fresh: false });
  // eslint-disable-next-line no-control-regex
  const headerUnsafe = /[\r\n\x00]/.test(payload);
  switch (name) {
    case 'URLParam': return wire('GET', `/?${random.hex(5)}=${payload}`, []);
    case 'URLPath': return wire('GET', `/${payload}`, []);
    case 'Header':
      if (headerUnsafe) return 'Go refuses CR, LF or NUL in a header value';
      return wire('GET', '/', [[`X-${random.hex(5)}`, payload]]);
    case 'UserAgent':
      if (headerUnsafe) return 'Go refuses CR, LF or NUL in a header value';
      return { wire: httpRequest('GET', '/', [['User-Agent', payload]]), fresh: false };
    case 'HTMLForm': return wire('POST', '/', [['Content-Type', 'application/x-www-form-urlencoded']], `${random.hex(5)}=${payload}`);
    case 'HTMLMultipartForm': {
      const { body, type } = multipartBody(random, random.hex(5), payload);
      return wire('POST', '/', [['Content-Type', type]], body);
    }
    case 'JSONRequest': return wire('POST', '/', [['Content-Type', 'application/json']], `{"test":true, "${random.hex(5)}": "${jsUnicode(payload)}"}`);
    case 'JSONBody': return wire('POST', '/', [['Content-Type', 'application/json']], payload);
    case 'XMLBody': return wire('POST', '/', [['Content-Type', 'text/xml']], payload);
    case 'SOAPBody': {
      const tag = 'ab' + random.hex(5);
      return wire('POST', '/', [['SOAPAction', '"http://schemas.xmlsoap.org/soap/actor/next"'], ['Content-Type', 'text/xml']], soapEnvelope(tag, goXmlEntity(payload)));
    }
    case 'RequestBody': return wire('POST', '/', [], payload);
    case 'GraphQL': {
      // GET: url.Values{query: payload}.Encode(); POST: the payload is the body, no content type.
      const method = String(config?.method ?? 'POST');
      return method === 'GET' ? wire('GET', `/?query=${goQueryEscape(payload)}`, []) : wire('POST', '/', [], payload);
    }
    case 'RawRequest': {
      const sub = (text: string) => text.replaceAll('{{payload}}', payload);
      const path = String(config?.path ?? '/') || '/';
      const headers = Object.entries((config?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k, sub(String(v))] as [string, string]);
      if (headers.some(([, v]) => /[\r\n]/.test(v))) return 'Go refuses CR or LF in a header value';
      const body = config?.body == null ? undefined : sub(String(config.body));
      const target = '/' + sub(path.startsWith('/') ? path.slice(1) : path);
      return { ...wire(String(config?.method ?? 'GET'), target, headers, body || undefined), fresh: true };
    }
    case 'gRPC': return 'gRPC needs an HTTP/2 gRPC service (gotestwaf skips it against plain HTTP)';
    default: throw new Error(`unknown gotestwaf placeholder ${name}`);
  }
}

export interface GotestwafLoad { requests: BenchRequest[]; skipped: Skipped[] }

/** Every case of the four sets, in file order, with a seeded random so names repeat run to run. */
export function loadGotestwaf(corpora: string, seed = 6): GotestwafLoad {
  const random = seededRandom(seed);
  const requests: BenchRequest[] = [];
  const skipped: Skipped[] = [];
  for (const set of gotestwafSets) {
    const dir = join(corpora, 'waf/gotestwaf/testcases', set);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.yml')).sort()) {
      const tc = readCorpusYaml(join(dir, file)) as TestCaseFile;
      tc.payload.forEach((raw, p) => {
        for (const encoderName of tc.encoder) {
          const encoded = applyEncoder(encoderName, String(raw));
          for (const ph of tc.placeholder) {
            const [name, config] = typeof ph === 'string' ? [ph, null] : Object.entries(ph)[0]!;
            const id = `${set}/${file}#${p} ${encoderName} ${name}`;
            const built = buildPlaceholder(name, config as Record<string, unknown> | null, encoded, random);
            if (typeof built === 'string') skipped.push({ set: `gotestwaf/${set}`, id, reason: built });
            else requests.push({ set: `gotestwaf/${set}`, id, expect: set === 'false-pos' ? 'legit' : 'attack', ...built });
          }
        }
      });
    }
  }
  return { requests, skipped };
}
