/**
 * Request shapes as browsers and API clients send them: browser headers (agent, language, cookies,
 * referer), urlencoded forms with the WHATWG serializer, multipart with a WebKit boundary, JSON with
 * a bearer token.
 */
import { httpRequest, type BenchRequest, type HeaderList } from '../bench-request.ts';
import type { Random } from '../random.ts';
import { languages, userAgents } from './text.ts';

export type Fields = [name: string, value: string][];

/** application/x-www-form-urlencoded as a browser writes it (space → '+', `*-._` and alphanumerics kept). */
export function formEncode(fields: Fields): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()).replaceAll('%20', '+');
  return fields.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
}

/** A query string as a browser builds it from a GET form or a script builds it with URLSearchParams. */
export function query(fields: Fields): string {
  return fields.length ? '?' + formEncode(fields) : '';
}

export interface FilePart { field: string; filename: string; type: string; content: Buffer }

export function multipart(r: Random, fields: Fields, files: FilePart[] = []): { body: Buffer; type: string } {
  const boundary = '----WebKitFormBoundary' + r.bytes(12).toString('base64').replace(/[+/=]/g, 'x').slice(0, 16);
  const parts: Buffer[] = [];
  for (const [name, value] of fields) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`, 'utf8'));
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`, 'utf8'));
    parts.push(f.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

export interface Session { ua: string; lang: string; cookie: string; host: string }

export function browserSession(r: Random, host: string, cookie: string): Session {
  return { ua: r.pick(userAgents), lang: r.pick(languages), cookie, host };
}

export function analyticsCookies(r: Random): string {
  return `_ga=GA1.1.${r.int(100000000, 999999999)}.${r.int(1690000000, 1720000000)}; _ga_${r.hex(5).toUpperCase()}=GS1.1.${r.int(1690000000, 1720000000)}.${r.int(1, 40)}.1.${r.int(1690000000, 1720000000)}.0.0.0; cookie_consent=${encodeURIComponent(JSON.stringify({ necessary: true, analytics: r.chance(0.6), marketing: false }))}`;
}

/** A page navigation or asset request from a browser. */
export function browserGet(s: Session, target: string, referer?: string, accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'): Buffer {
  const h: HeaderList = [['Host', s.host], ['User-Agent', s.ua], ['Accept', accept], ['Accept-Language', s.lang], ['Accept-Encoding', 'gzip, deflate, br']];
  if (referer) h.push(['Referer', referer]);
  if (s.cookie) h.push(['Cookie', s.cookie]);
  return httpRequest('GET', target, h);
}

/** A form post or XHR from a browser page. */
export function browserPost(s: Session, target: string, contentType: string, body: Buffer | string, extra: HeaderList = [], referer?: string): Buffer {
  const h: HeaderList = [['Host', s.host], ['User-Agent', s.ua], ['Accept', extra.some(([n]) => n === 'X-Requested-With') ? 'application/json, text/javascript, */*; q=0.01' : 'text/html,application/xhtml+xml,*/*;q=0.8'], ['Accept-Language', s.lang], ['Accept-Encoding', 'gzip, deflate, br'], ['Content-Type', contentType], ['Origin', `https://${s.host}`], ['Referer', referer ?? `https://${s.host}/`]];
  if (s.cookie) h.push(['Cookie', s.cookie]);
  return httpRequest('POST', target, [...h, ...extra], body);
}

/** A JSON API call from a script or mobile app with a bearer token. */
export function apiCall(r: Random, method: string, target: string, body?: unknown, host = 'api.example.com'): Buffer {
  const h: HeaderList = [['Host', host], ['User-Agent', r.pick(['okhttp/4.12.0', 'axios/1.6.8', 'python-requests/2.31.0', 'MyShopApp/3.4.1 (iOS 17.4)', userAgents[0]!])], ['Accept', 'application/json'], ['Authorization', `Bearer ${jwt(r)}`]];
  if (body !== undefined) h.push(['Content-Type', 'application/json; charset=utf-8']);
  return httpRequest(method, target, h, body === undefined ? null : JSON.stringify(body));
}

export function jwt(r: Random): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: String(r.int(1, 99999)), iat: r.int(1700000000, 1720000000), scope: 'read write' })}.${r.bytes(32).toString('base64url')}`;
}

export function legit(set: string, id: string, wire: Buffer): BenchRequest {
  return { set: `legit/${set}`, id, expect: 'legit', wire, fresh: false };
}
