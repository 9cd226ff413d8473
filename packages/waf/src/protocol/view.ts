import type { WafRequest } from '../types.ts';

/**
 * A request read once for the request-level checks: header names folded to lower case (each name
 * keeps every value it was sent with, in order: duplicates are themselves a finding), the target
 * cut into path and query. Built once per request; the checks only read it.
 */
export interface RequestView {
  method: string;
  target: string;
  /** The target up to `?` (still percent-encoded). */
  path: string;
  /** After the first `?`, or null without one. */
  query: string | null;
  /** Lower-case header name → values in arrival order. */
  headers: ReadonlyMap<string, readonly string[]>;
  body: Uint8Array | null;
}

export function viewOf(request: WafRequest): RequestView {
  const headers = new Map<string, string[]>();
  for (const [name, value] of request.headers) {
    const lower = name.toLowerCase();
    const values = headers.get(lower);
    if (values) values.push(value);
    else headers.set(lower, [value]);
  }
  const q = request.target.indexOf('?');
  return {
    method: request.method,
    target: request.target,
    path: q < 0 ? request.target : request.target.slice(0, q),
    query: q < 0 ? null : request.target.slice(q + 1),
    headers,
    body: request.body,
  };
}

/** The first value of a header, or undefined when it was not sent. */
export function header(view: RequestView, name: string): string | undefined {
  return view.headers.get(name)?.[0];
}

/** The host part of a Host header or URL authority: lower case, without port or brackets. */
export function hostName(authority: string): string {
  let host = authority.trim().toLowerCase();
  const at = host.lastIndexOf('@');
  if (at >= 0) host = host.slice(at + 1);
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']') < 0 ? undefined : host.indexOf(']'));
  const colon = host.indexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}
