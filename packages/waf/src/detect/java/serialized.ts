/**
 * The Java serialization stream header, AC ED 00 05, in the shapes it travels in: raw bytes (also
 * as UTF-8 read as Latin-1, and as a UTF-8 decoder replaces them), hex, base64 at each of its three byte alignments (a nested object sits
 * at any offset of a base64 blob), and gzip-wrapped base64 in a value that is one token (JSF
 * ViewState, some session cookies).
 */
import { gunzipSync } from 'node:zlib';

export interface SerializedFinding {
  rule: 'java.serialized_object' | 'java.serialized_gzip';
  at: number;
  /** The stream sits where an application legitimately keeps serialized state (JSF's ViewState). */
  expectedThere: boolean;
}

/**
 * The header's base64 at byte offsets 0, 1 and 2 of a 3-byte group, keeping only the characters
 * the header fills completely, plus the next one as the header's own low bits leave it
 * (Buffer.from([0xac,0xed,0,5]).toString('base64') = "rO0ABQ==").
 */
const shiftedHeaders = /KztAAU|Cs7QAF/; // (offset 0, "rO0AB", is searched on its own)

function isBase64Char(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 45 || c === 95;
}

export function findSerializedStream(value: string, name: string): SerializedFinding | null {
  if (value.length < 4) return null;
  let start = 0;
  while (start < value.length && value.charCodeAt(start) <= 32) start++;
  const c0 = value.charCodeAt(start);
  // Raw bytes as the body carried them: AC ED 00 05, or its UTF-8 encoding read back as Latin-1 (C2 AC C3 AD).
  if (c0 === 0xac && value.charCodeAt(start + 1) === 0xed && value.charCodeAt(start + 2) === 0 && value.charCodeAt(start + 3) === 5) {
    return { rule: 'java.serialized_object', at: start, expectedThere: false };
  }
  if (value.startsWith('\u00c2\u00ac\u00c3\u00ad\u0000\u0005', start)) return { rule: 'java.serialized_object', at: start, expectedThere: false };
  // The raw bytes through a UTF-8 decoder: AC and ED are no valid sequence there, each becomes U+FFFD,
  // and the NUL and 05 that follow survive (a form body carrying the stream unencoded).
  if (value.startsWith('\ufffd\ufffd\u0000\u0005', start)) return { rule: 'java.serialized_object', at: start, expectedThere: false };
  if ((c0 === 0x61 || c0 === 0x41) && /^ac\s?ed\s?00\s?05/i.test(value.slice(start, start + 16))) return { rule: 'java.serialized_object', at: start, expectedThere: false };
  for (let at = value.indexOf('rO0AB'); at >= 0; at = value.indexOf('rO0AB', at + 1)) {
    // rO0AB opens a blob: the start of the value or of a token.
    if (at === start || !isBase64Char(value.charCodeAt(at - 1))) return { rule: 'java.serialized_object', at, expectedThere: viewState(name) };
  }
  // The shifted forms sit inside a base64 blob, wherever the blob is (a JSON or XML part included).
  const shifted = shiftedHeaders.exec(value);
  if (shifted) return { rule: 'java.serialized_object', at: shifted.index, expectedThere: viewState(name) };
  // gzip: a base64 value that is one token and starts with the gzip magic.
  if (value.startsWith('H4sI', start) && singleToken(value, start)) {
    if (gunzippedIsSerialized(value.slice(start, start + 2048))) {
      return { rule: 'java.serialized_gzip', at: start, expectedThere: viewState(name) };
    }
  }
  const hex = hexHeader.exec(value);
  // Inside a longer value: a cookie or field that carries a serialized blob after a prefix.
  if (hex && hex.index > start && /[\s"'=:,;(]/.test(value[hex.index - 1]!)) return { rule: 'java.serialized_object', at: hex.index, expectedThere: false };
  return null;
}

const hexHeader = /aced0005/i;

function viewState(name: string): boolean {
  return name.length > 8 && /viewstate/i.test(name);
}

/** Base64 characters only from `start` (a token in the first 64 KiB, not text). */
function singleToken(value: string, start: number): boolean {
  const end = Math.min(value.length, start + 65536);
  for (let i = start; i < end; i++) {
    const c = value.charCodeAt(i);
    if (!isBase64Char(c) && c !== 61) return false;
  }
  return true;
}

/** Inflates the head of a base64 gzip blob (truncation tolerated) and reads the stream header. */
function gunzippedIsSerialized(head: string): boolean {
  let end = 0;
  while (end < head.length && isBase64Char(head.charCodeAt(end))) end++;
  try {
    const out = gunzipSync(Buffer.from(head.slice(0, end - (end % 4)), 'base64'), { finishFlush: 2 /* Z_SYNC_FLUSH */, maxOutputLength: 1 << 20 });
    return out.length >= 4 && out[0] === 0xac && out[1] === 0xed && out[2] === 0 && out[3] === 5;
  } catch {
    return false;
  }
}
