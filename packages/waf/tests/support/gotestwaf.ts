import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import type { WafRequest } from '../../src/types.ts';

/**
 * gotestwaf test cases (`testcases/<set>/*.yml`: payload[] × encoder[] × placeholder[]) turned
 * into WafRequests the engine can inspect in process, built the way gotestwaf builds its HTTP
 * requests (see the corpora README). Where gotestwaf leaves a character to Go's HTTP client, we
 * percent-encode only what cannot appear raw in a request line (space, controls, `#`, non-ASCII).
 */
export interface GotestwafCase {
  set: string;
  file: string;
  type: string;
  payloads: string[];
  encoders: string[];
  placeholders: (string | { name: string; config: Record<string, unknown> })[];
}

export interface GotestwafRequest {
  set: string;
  file: string;
  payload: string;
  encoder: string;
  placeholder: string;
  request: WafRequest;
}

/**
 * gotestwaf's files are read by Go's YAML parser, which accepts `\'` in double-quoted strings;
 * the `yaml` package reports it as BAD_DQ_ESCAPE but still builds the value (backslash kept).
 * Any other error is real and fails the load.
 */
function readYaml(text: string): Record<string, unknown> {
  const doc = parseDocument(text);
  const errors = doc.errors.filter((e) => e.code !== 'BAD_DQ_ESCAPE');
  if (errors.length > 0) throw errors[0];
  return (doc.toJS() ?? {}) as Record<string, unknown>;
}

export function loadGotestwafSet(testcasesDir: string, set: string): GotestwafCase[] {
  const dir = join(testcasesDir, set);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yml') || f.endsWith('.yaml'))
    .sort()
    .map((file) => {
      const doc = readYaml(readFileSync(join(dir, file), 'utf8'));
      const placeholders = ((doc.placeholder as unknown[]) ?? []).map((p) => {
        if (typeof p === 'string') return p;
        const [name, config] = Object.entries(p as Record<string, unknown>)[0]!;
        return { name, config: (config ?? {}) as Record<string, unknown> };
      });
      return {
        set,
        file,
        type: String(doc.type ?? ''),
        payloads: ((doc.payload as unknown[]) ?? []).map(String),
        encoders: ((doc.encoder as unknown[]) ?? []).map(String),
        placeholders,
      };
    });
}

/** Go's url.PathEscape: everything but unreserved characters and `$&+,:;=@` is escaped. */
function pathEscape(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~$&+,:;=@]/.test(c) ? c : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

export function encodePayload(payload: string, encoder: string): string {
  switch (encoder) {
    case 'URL':
      return pathEscape(payload);
    case 'Base64':
      return Buffer.from(payload, 'utf8').toString('base64');
    case 'Base64Flat':
      return Buffer.from(payload, 'utf8').toString('base64').replace(/=+$/, '');
    case 'JSUnicode':
      return [...payload].map((ch) => [...ch].map((u) => '\\u' + u.charCodeAt(0).toString(16).padStart(4, '0')).join('')).join('');
    case 'XMLEntity':
      return [...payload].map((ch) => `&#x${ch.codePointAt(0)!.toString(16)};`).join('');
    default:
      return payload;
  }
}

/** Go's url.QueryEscape (what url.Values.Encode writes): unreserved characters kept, space as `+`. */
function queryEscape(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : c === ' ' ? '+' : '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** What a client must escape to put a string on the request line at all. */
function requestLineSafe(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    out += code <= 32 || code === 127 || code > 126 || ch === '#' ? [...Buffer.from(ch, 'utf8')].map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('') : ch;
  }
  return out;
}

/** Header values cannot hold CR, LF or NUL: a client would refuse them, so they are escaped. */
function headerSafe(text: string): string {
  return text.replace(/[\r\n\0]/g, (c) => encodeURIComponent(c));
}

let hexCounter = 0;
/** Deterministic stand-in for gotestwaf's random hex names. */
function randomHex(): string {
  hexCounter = (hexCounter + 0x9e3779b1) >>> 0;
  return hexCounter.toString(16).padStart(8, '0');
}

function request(method: string, target: string, headers: [string, string][], body: string | Buffer | null): WafRequest {
  const bytes = body === null ? null : typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const all: [string, string][] = [['Host', 'example.test'], ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) Gotestwaf-replay'], ...headers];
  if (bytes) all.push(['Content-Length', String(bytes.length)]);
  return { method, target, headers: all, clientIp: '192.0.2.10', body: bytes ? new Uint8Array(bytes) : null, bodyTruncated: false, now: Date.UTC(2026, 0, 1) };
}

/** One request for one (encoded) payload in one placeholder; null for placeholders not replayed in process. */
export function buildRequest(placeholder: GotestwafCase['placeholders'][number], payload: string): WafRequest | null {
  const name = typeof placeholder === 'string' ? placeholder : placeholder.name;
  const param = randomHex();
  switch (name) {
    case 'URLParam':
      return request('GET', `/?${param}=${requestLineSafe(payload)}`, [], null);
    case 'URLPath':
      return request('GET', `/${requestLineSafe(payload)}`, [], null);
    case 'Header':
      return request('GET', '/', [[`X-${param}`, headerSafe(payload)]], null);
    case 'UserAgent':
      return { ...request('GET', '/', [], null), headers: [['Host', 'example.test'], ['User-Agent', headerSafe(payload)]] };
    case 'HTMLForm':
      return request('POST', '/', [['Content-Type', 'application/x-www-form-urlencoded']], `${param}=${payload}`);
    case 'HTMLMultipartForm': {
      const boundary = '----gotestwaf' + randomHex();
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="${param}"\r\n\r\n${payload}\r\n--${boundary}--\r\n`;
      return request('POST', '/', [['Content-Type', `multipart/form-data; boundary=${boundary}`]], body);
    }
    case 'JSONRequest':
      return request('POST', '/', [['Content-Type', 'application/json']], `{"test": true, "${param}": "${payload}"}`);
    case 'JSONBody':
      return request('POST', '/', [['Content-Type', 'application/json']], payload);
    case 'XMLBody':
      return request('POST', '/', [['Content-Type', 'text/xml']], payload);
    case 'SOAPBody':
      return request('POST', '/', [['Content-Type', 'text/xml'], ['SOAPAction', '"urn:test"']], `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${payload}</soap:Body></soap:Envelope>`);
    case 'GraphQL': {
      // GET: url.Values{query: payload}.Encode(); POST: the payload is the body, no content type.
      const config = typeof placeholder === 'string' ? {} : placeholder.config;
      return String(config.method ?? 'POST') === 'GET' ? request('GET', `/?query=${queryEscape(payload)}`, [], null) : request('POST', '/', [], payload);
    }
    case 'RawRequest': {
      const config = typeof placeholder === 'string' ? {} : placeholder.config;
      const fill = (s: unknown): string => String(s ?? '').split('{{payload}}').join(payload);
      const headers = Object.entries((config.headers ?? {}) as Record<string, unknown>).map(([k, v]) => [k, headerSafe(fill(v))] as [string, string]);
      return request(String(config.method ?? 'GET'), requestLineSafe(fill(config.path ?? '/')), headers, config.body === undefined ? null : fill(config.body));
    }
    default:
      return null;
  }
}

/** Every request of a set: payload × encoder × placeholder. */
export function gotestwafRequests(cases: readonly GotestwafCase[]): GotestwafRequest[] {
  const out: GotestwafRequest[] = [];
  for (const c of cases) {
    for (const payload of c.payloads) {
      for (const encoder of c.encoders.length ? c.encoders : ['Plain']) {
        const encoded = encodePayload(payload, encoder);
        for (const placeholder of c.placeholders) {
          const request = buildRequest(placeholder, encoded);
          if (request) out.push({ set: c.set, file: c.file, payload, encoder, placeholder: typeof placeholder === 'string' ? placeholder : placeholder.name, request });
        }
      }
    }
  }
  return out;
}
