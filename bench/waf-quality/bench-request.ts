/**
 * One request of the quality benchmark, already in wire shape. Every request is sent over a plain
 * socket exactly as built here (no client library re-encodes the target or the headers), because the
 * corpora hold requests a fetch() cannot express: raw request lines, malformed targets, custom
 * methods, duplicated or odd headers.
 */

/** Whether the request must be blocked (an attack) or must pass (legitimate traffic). */
export type Expectation = 'attack' | 'legit';

export interface BenchRequest {
  /** The set it is counted in, e.g. 'gotestwaf/owasp', 'crs/REQUEST-942', 'legit/wordpress'. */
  set: string;
  /** Stable id for the report of misses: file, payload, encoder and placeholder. */
  id: string;
  expect: Expectation;
  /**
   * The bytes to write. Built once; the runner fills in `Host` only when the request has none
   * (corpus requests carry their own).
   */
  wire: Buffer;
  /**
   * True when the connection must not be reused after this request (raw corpus requests that may
   * leave the peer's parser in any state); ordinary requests go over kept-alive connections.
   */
  fresh: boolean;
}

export type HeaderList = [name: string, value: string][];

/**
 * Serializes an HTTP/1.1 request. `Host` defaults to `localhost`; `Content-Length` is added for a
 * body unless the caller set a length or a chunked transfer itself.
 */
export function httpRequest(method: string, target: string, headers: HeaderList, body?: Buffer | string | null): Buffer {
  const payload = body == null ? null : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  const lines = [`${method} ${target} HTTP/1.1`];
  if (!has('host')) lines.push('Host: localhost');
  for (const [name, value] of headers) lines.push(`${name}: ${value}`);
  if (payload && !has('content-length') && !has('transfer-encoding')) lines.push(`Content-Length: ${payload.length}`);
  // Text goes out as UTF-8 bytes, as Go's client (gotestwaf) and go-ftw write their strings.
  const head = Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'utf8');
  return payload ? Buffer.concat([head, payload]) : head;
}
