import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Language } from '@rampart/contracts';

/*
 * The few calls the trust terminal makes to the panel, over node:http(s) rather than fetch: fetch
 * cannot skip certificate verification or take a CA per request, and it follows redirects, while the
 * safe entry is a 302 whose cookie has to be kept.
 */

/** The cookie a visit of the panel's safe entry sets (apps/console/src/portal/gate.ts). */
const entryCookieName = 'rampart_entry';
const timeoutMs = 20_000;
const maxBody = 1 << 20;

export interface PanelOptions {
  /** The URL the administrator gave: the panel's origin, perhaps with the safe entry as its path. */
  url: URL;
  lang: Language;
  /** Skip certificate verification (a self-signed certificate). */
  insecure: boolean;
  /** Certificates (PEM) to verify the panel's certificate against. */
  ca?: string;
  userAgent: string;
}

/**
 * What a call came back with:
 * - ok: envelope code 0 or 1;
 * - refused: the panel said no (envelope code 2, HTTP 200 or 4xx), with its message in our language;
 * - ended: HTTP 401 on a terminal call, the terminal is over;
 * - offline: no answer (network, timeout, 5xx, rate limit): worth trying again;
 * - tls: the certificate could not be verified;
 * - foreign: an answer that is not an envelope (a wrong URL, the gate's bare 404).
 */
export type Answer<T> =
  | { kind: 'ok'; data: T; msg: string }
  | { kind: 'refused'; msg: string; status: number }
  | { kind: 'ended'; msg: string }
  | { kind: 'offline'; error: string }
  | { kind: 'tls'; error: string }
  | { kind: 'foreign'; status: number };

/** Every answer but success. */
export type Failure = Exclude<Answer<unknown>, { kind: 'ok' }>;

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const tlsErrorCodes = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE', 'ERR_SSL_WRONG_VERSION_NUMBER',
]);

export class TlsError extends Error {}

export class PanelClient {
  readonly origin: string;
  /** The safe entry's path ('' when the URL has none). */
  readonly entryPath: string;
  #options: PanelOptions;
  #cookie: string | undefined;
  /** The terminal token; never printed. */
  token: string | undefined;

  constructor(options: PanelOptions) {
    this.#options = options;
    this.origin = options.url.origin;
    this.entryPath = options.url.pathname.replace(/\/+$/, '');
  }

  /**
   * Visits the safe entry, when the URL has one, for the cookie that must go with every later call.
   * Returns null when done, or the answer that says why not.
   */
  async enter(): Promise<Failure | null> {
    if (!this.entryPath) return null;
    let raw: RawAnswer;
    try {
      raw = await this.#send('GET', this.entryPath, undefined, false);
    } catch (error) {
      return failureOf(error);
    }
    const cookie = entryCookieOf(raw.headers['set-cookie']);
    if (raw.status >= 300 && raw.status < 400 && cookie) {
      this.#cookie = cookie;
      return null;
    }
    // The address of the /trust page itself, given without an entry: the panel has none, go on.
    if (/(^|\/)trust$/.test(this.entryPath) && raw.status === 200) return null;
    if (raw.status >= 500) return { kind: 'offline', error: `HTTP ${raw.status}` };
    return { kind: 'foreign', status: raw.status };
  }

  /** One /magapi call, in our language, with the entry cookie and the terminal token when there are. */
  async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer<T>> {
    let raw: RawAnswer;
    try {
      raw = await this.#send(method, `/magapi${path}`, body, true);
    } catch (error) {
      return failureOf(error);
    }
    let envelope: { code?: unknown; msg?: unknown; data?: unknown };
    try {
      envelope = JSON.parse(raw.body) as typeof envelope;
    } catch {
      if (raw.status >= 500 || raw.status === 429) return { kind: 'offline', error: `HTTP ${raw.status}` };
      return { kind: 'foreign', status: raw.status };
    }
    if (typeof envelope !== 'object' || envelope === null || typeof envelope.code !== 'number') return { kind: 'foreign', status: raw.status };
    const msg = typeof envelope.msg === 'string' ? envelope.msg : '';
    if (raw.status === 401) return { kind: 'ended', msg };
    if (raw.status >= 500 || raw.status === 429) return { kind: 'offline', error: msg || `HTTP ${raw.status}` };
    if (raw.status !== 200 || envelope.code > 1) return { kind: 'refused', msg, status: raw.status };
    return { kind: 'ok', data: envelope.data as T, msg };
  }

  #send(method: 'GET' | 'POST', path: string, body: unknown, json: boolean): Promise<RawAnswer> {
    const url = new URL(path, this.origin);
    const payload = method === 'POST' && body !== undefined ? JSON.stringify(body) : undefined;
    const headers: Record<string, string> = {
      'accept-language': this.#options.lang,
      'user-agent': this.#options.userAgent,
      ...(json ? { accept: 'application/json' } : {}),
      ...(this.#cookie ? { cookie: this.#cookie } : {}),
      ...(json && this.token ? { authorization: `Bearer ${this.token}` } : {}),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      // A POST without a body says so (the terminal's beat and stop take none).
      ...(method === 'POST' ? { 'content-length': String(payload === undefined ? 0 : Buffer.byteLength(payload)) } : {}),
    };
    const https = url.protocol === 'https:';
    const send = https ? httpsRequest : httpRequest;
    const tls = https ? { rejectUnauthorized: !this.#options.insecure, ...(this.#options.ca ? { ca: this.#options.ca } : {}) } : {};
    return new Promise((resolve, reject) => {
      const req = send(url, { method, headers, timeout: timeoutMs, agent: false, ...tls }, (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBody) req.destroy(new Error('answer too large'));
          else chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer in ${timeoutMs / 1000} s`), { code: 'ETIMEDOUT' })));
      req.on('error', (error: NodeJS.ErrnoException) => reject(error.code && tlsErrorCodes.has(error.code) ? new TlsError(`${error.code}: ${error.message}`) : error));
      req.end(payload);
    });
  }
}

function failureOf(error: unknown): Failure {
  if (error instanceof TlsError) return { kind: 'tls', error: error.message };
  const e = error as NodeJS.ErrnoException;
  return { kind: 'offline', error: e.code && !e.message.includes(e.code) ? `${e.code}: ${e.message}` : e.message };
}

function entryCookieOf(header: string[] | undefined): string | undefined {
  for (const line of header ?? []) {
    const pair = line.split(';')[0]?.trim() ?? '';
    if (pair.startsWith(`${entryCookieName}=`) && pair.length > entryCookieName.length + 1) return pair;
  }
  return undefined;
}
