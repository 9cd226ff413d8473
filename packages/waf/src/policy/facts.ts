import type { WafRequest } from '../types.ts';

/**
 * What the policy checks read about one request. The gateway fills it once per request: the
 * geo-IP lookup, the local time of day, the multipart file names and the DNS verdict on a claimed
 * spider are injected as values so every check stays a pure function.
 */
export interface RequestFacts {
  /** As sent (methods are case-sensitive; the denied list is upper case, as methods are). */
  method: string;
  /** The raw request target (path and `?query`, still percent-encoded): the URL length limit reads it. */
  target: string;
  /** Percent-decoded path. */
  path: string;
  /** Percent-decoded query, without the `?` ('' when none); `+` stays `+`, as the URL lists are written. */
  query: string;
  /**
   * The query read as a form, as the visitor typed it: `+` is a space, then percent-decoded (so
   * `%2B` is a `+`). The keyword libraries match this: a search box sends `free money` as `free+money`.
   */
  formQuery: string;
  /** Header lines as sent; names compared case-insensitively. */
  headers: readonly (readonly [name: string, value: string])[];
  clientIp: string;
  /** The areas the client address is in (country and Chinese province codes); empty = unknown. */
  areas: readonly string[];
  /** Milliseconds since the epoch. */
  now: number;
  /** Local time of day in minutes (0-1439), for time-limited access. */
  minuteOfDay: number;
  /** Declared or measured body size in bytes; null when there is no body. */
  bodyBytes: number | null;
  /** File names of the multipart parts that carry files. */
  uploads: readonly string[];
  /** The body as text for the keyword libraries (decoded form fields, JSON or plain text); '' when none. */
  bodyText: string;
  /**
   * The gateway's reverse+forward DNS verdict on a client whose user agent claims a whitelisted
   * spider (see spider.ts): 'genuine', 'fake', or undefined while unknown (then the client is
   * treated as an ordinary visitor: neither let through nor blocked as a fake).
   */
  spiderDns?: 'genuine' | 'fake';
  /** A reputation feed's verdict on the client address, when the gateway has one. */
  reputation?: 'malicious';
  /** The client passed the CC human verification (the gateway's pass cookie): loose CC lets it by. */
  verifiedHuman?: boolean;
}

/** The local time of day in minutes for `now` (the gateway's time zone, as the administrator set the windows). */
export function localMinuteOfDay(now: number): number {
  const date = new Date(now);
  return date.getHours() * 60 + date.getMinutes();
}

/** The first value of a header, or null. */
export function headerValue(facts: Pick<RequestFacts, 'headers'>, name: string): string | null {
  for (const [key, value] of facts.headers) if (key.length === name.length && key.toLowerCase() === name) return value;
  return null;
}

/** Every value of a header joined with `, ` (`Content-Encoding: gzip` twice stacks two codings), or undefined. */
export function joinedHeaderValue(facts: Pick<RequestFacts, 'headers'>, name: string): string | undefined {
  const values: string[] = [];
  for (const [key, value] of facts.headers) if (key.length === name.length && key.toLowerCase() === name) values.push(value);
  return values.length === 0 ? undefined : values.join(', ');
}

/** Path plus `?query`, decoded: what URL lists, time-limited rules and keyword libraries match. */
export function decodedUrl(facts: Pick<RequestFacts, 'path' | 'query'>): string {
  return facts.query === '' ? facts.path : `${facts.path}?${facts.query}`;
}

/** The host the client asked for, lower case, without the port. */
export function requestHost(facts: Pick<RequestFacts, 'headers'>): string {
  const host = (headerValue(facts, 'host') ?? '').trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.indexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

/** Decodes %XX sequences that form valid UTF-8; a malformed one stays as written (never throws). */
export function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%[0-9A-Fa-f]{2}/g, (seq) => {
      const code = parseInt(seq.slice(1), 16);
      return code < 0x80 ? String.fromCharCode(code) : seq;
    });
  }
}

/** A query or urlencoded body read as a form: `+` is a space, then %XX decoded (in that order, so `%2B` stays a `+`). */
export function formDecode(text: string): string {
  return percentDecode(text.includes('+') ? text.replace(/\+/g, ' ') : text);
}

/**
 * Facts from a WafRequest with what the gateway knows besides it. `query` keeps `+` as written (the
 * URL lists match the URL as sent); `formQuery` reads it as a form for the keyword libraries.
 */
export function factsFromRequest(
  request: WafRequest,
  extra: Pick<RequestFacts, 'areas' | 'minuteOfDay'> & Partial<Pick<RequestFacts, 'uploads' | 'bodyText' | 'spiderDns' | 'reputation' | 'verifiedHuman'>>,
): RequestFacts {
  const mark = request.target.indexOf('?');
  const rawPath = mark < 0 ? request.target : request.target.slice(0, mark);
  const rawQuery = mark < 0 ? '' : request.target.slice(mark + 1);
  const length = request.headers.find(([name]) => name.toLowerCase() === 'content-length')?.[1];
  const declared = length !== undefined && /^\d{1,15}$/.test(length.trim()) ? Number(length.trim()) : null;
  return {
    method: request.method,
    target: request.target,
    path: percentDecode(rawPath),
    query: percentDecode(rawQuery),
    formQuery: formDecode(rawQuery),
    headers: request.headers,
    clientIp: request.clientIp,
    now: request.now,
    bodyBytes: declared ?? (request.body ? request.body.length : null),
    uploads: [],
    bodyText: '',
    ...extra,
  };
}
