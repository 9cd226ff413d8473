import type { ParsedFields } from '../event.ts';
import { parseClfTime } from './clf-time.ts';
import { normalizeIp } from './ip.ts';
import { unescapeLogField } from './log-escapes.ts';

/*
 * One reader for the access-log formats servers ship with, told apart by their shape:
 *   Apache common          %h %l %u %t "%r" %>s %b
 *   Apache combined        common + "%{Referer}i" "%{User-Agent}i"
 *   Apache vhost_combined  %v:%p + combined (with %O for the size)
 *   nginx combined         as Apache combined
 *   nginx main             combined + "$http_x_forwarded_for" (ignored: any client can send it)
 * Anything after the user agent (request times, upstream fields) is ignored.
 */
const quoted = '"((?:[^"\\\\]|\\\\.)*)"';
const line = new RegExp(`^(?:(\\S+) )?(\\S+) \\S+ (\\S+) \\[([^\\]]+)\\] ${quoted} (\\d{3}) (\\d+|-)(?: ${quoted} ${quoted})?`);
const requestLine = /^([A-Za-z][A-Za-z_-]{0,19}) (.+?)(?: (HTTP\/\d(?:\.\d)?))?$/;

export interface AccessLogLine {
  time: number;
  fields: ParsedFields;
}

const dash = (text: string | undefined): string | undefined => (text === undefined || text === '-' || text === '' ? undefined : unescapeLogField(text));

/** The vhost of `%v:%p`, without its port. */
function vhost(text: string): string {
  const colon = text.lastIndexOf(':');
  return colon > 0 && /^\d+$/.test(text.slice(colon + 1)) ? text.slice(0, colon) : text;
}

/** Undefined when the line is not an access-log line or its client is not an address. */
export function parseAccessLog(text: string): AccessLogLine | undefined {
  const m = line.exec(text);
  if (!m) return undefined;
  const ip = normalizeIp(m[2]!);
  const time = parseClfTime(m[4]!);
  if (!ip || time === undefined) return undefined;
  const fields: ParsedFields = { kind: 'http_request', ip, status: Number(m[6]), bytes: m[7] === '-' ? 0 : Number(m[7]) };
  if (m[1] !== undefined) fields.host = vhost(m[1]);
  const user = dash(m[3]);
  if (user !== undefined) fields.user = user;
  const request = requestLine.exec(unescapeLogField(m[5]!));
  if (request) {
    fields.method = request[1]!;
    const target = request[2]!;
    const q = target.indexOf('?');
    fields.path = q < 0 ? target : target.slice(0, q);
    if (q >= 0) fields.query = target.slice(q + 1);
    if (request[3] !== undefined) fields.protocol = request[3];
  }
  const referer = dash(m[8]);
  if (referer !== undefined) fields.referer = referer;
  const userAgent = dash(m[9]);
  if (userAgent !== undefined) fields.userAgent = userAgent;
  return { time, fields };
}
