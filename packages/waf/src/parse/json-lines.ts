/**
 * A body of JSON documents one per line (NDJSON, JSON Lines; Sentry's envelopes, Elasticsearch's
 * _bulk, log shippers), whose items may carry binary payloads: Sentry's item header names the
 * payload's byte `length`, and a session-replay payload is a JSON line followed by zlib-compressed
 * rrweb events. Read as JSON text it does not parse, and its compressed bytes read as strings would
 * be noise (NUL bytes, stray quotes); read here line by line, each document gives its leaves, and a
 * compressed payload is inflated (bounded) and read the same way. Null when the body is not of this
 * shape (the first line must be a JSON object and at least one more line must follow).
 */
import { decodeContentEncoding } from './body-encoding.ts';
import { flattenJson, type JsonLeaf } from './json.ts';

export interface JsonLinesLimits {
  maxDepth: number;
  maxLeaves: number;
  /** Bytes an inflated payload may grow to. */
  maxInflated: number;
}

export interface JsonLinesReading {
  leaves: JsonLeaf[];
  /** Text that is neither JSON nor a compressed JSON payload, to be read raw. */
  rest: string[];
}

const newline = 0x0a;

export function readJsonLines(bytes: Uint8Array, limits: JsonLinesLimits): JsonLinesReading | null {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const firstEnd = buffer.indexOf(newline);
  if (firstEnd < 0 || firstEnd === buffer.length - 1) return null;
  if (!isJsonObject(buffer.subarray(0, firstEnd).toString('utf8'))) return null;
  const reading: JsonLinesReading = { leaves: [], rest: [] };
  let pos = 0;
  for (let line = 0; pos < buffer.length && line < 10_000 && reading.leaves.length < limits.maxLeaves; line++) {
    let end = buffer.indexOf(newline, pos);
    if (end < 0) end = buffer.length;
    const text = buffer.subarray(pos, end).toString('utf8');
    pos = end + 1;
    if (text.trim() === '') continue;
    const parsed = parseObject(text);
    if (parsed === null) {
      // A line that is no JSON: compressed bytes without an item header, or plain text.
      readPayload(buffer.subarray(pos - text.length - 1, end), `[${line}]`, reading, limits);
      continue;
    }
    add(flattenJson(text, limits), `[${line}]`, reading, limits);
    // An item header with the payload's length: the next `length` bytes are the payload.
    const length = (parsed as { length?: unknown }).length;
    if (typeof length === 'number' && Number.isInteger(length) && length > 0 && pos + length <= buffer.length && line > 0) {
      readPayload(buffer.subarray(pos, pos + length), `[${line}].payload`, reading, limits);
      pos += length;
      if (buffer[pos] === newline) pos++;
    }
  }
  return reading;
}

/** A payload: JSON, or a JSON line and compressed bytes, or compressed bytes, or text. */
function readPayload(payload: Buffer, path: string, reading: JsonLinesReading, limits: JsonLinesLimits): void {
  const whole = payload.toString('utf8');
  const json = flattenJson(whole, limits);
  if (json !== null) return add(json, path, reading, limits);
  const split = payload.indexOf(newline);
  const head = split > 0 ? payload.subarray(0, split).toString('utf8') : '';
  const body = split > 0 && isJsonObject(head) ? payload.subarray(split + 1) : payload;
  if (body !== payload) add(flattenJson(head, limits), path, reading, limits);
  const coding = compression(body);
  if (coding !== null) {
    const inflated = decodeContentEncoding(body, coding, limits.maxInflated);
    if (inflated.failed === null) {
      const text = Buffer.from(inflated.bytes.buffer, inflated.bytes.byteOffset, inflated.bytes.byteLength).toString('utf8');
      const leaves = flattenJson(text, limits);
      if (leaves !== null) return add(leaves, `${path}.inflated`, reading, limits);
      reading.rest.push(text);
      return;
    }
  }
  reading.rest.push(body.toString('utf8'));
}

/** gzip (1F 8B) or zlib (a CMF/FLG pair whose check bits hold: 78 01/5E/9C/DA). */
function compression(bytes: Buffer): 'gzip' | 'deflate' | null {
  if (bytes.length < 3) return null;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip';
  if ((bytes[0]! & 0x0f) === 8 && ((bytes[0]! << 8) | bytes[1]!) % 31 === 0) return 'deflate';
  return null;
}

function add(leaves: JsonLeaf[] | null, prefix: string, reading: JsonLinesReading, limits: JsonLinesLimits): void {
  if (leaves === null) return;
  for (const leaf of leaves) {
    if (reading.leaves.length >= limits.maxLeaves) return;
    reading.leaves.push({ ...leaf, path: leaf.path ? `${prefix}.${leaf.path}` : prefix });
  }
}

function parseObject(text: string): object | null {
  const t = text.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' ? v : null;
  } catch {
    return null;
  }
}

function isJsonObject(text: string): boolean {
  return text.trimStart().startsWith('{') && parseObject(text) !== null;
}
