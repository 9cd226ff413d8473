/**
 * File names are bytes; everything above the file system (results, SQLite, the console) holds a
 * path as a string. Node decodes a name that is not valid UTF-8 (a GBK name written by a Windows
 * tool, or by an attacker on purpose) with U+FFFD, and that string no longer names the file: it could
 * never be opened, so such a file evaded every scan. The choice here:
 *
 * - A path stays a string everywhere, and the string is a lossless encoding of the bytes.
 * - Bytes that are valid UTF-8 are the ordinary string: every real name stays as it was.
 * - A byte that is not part of a valid UTF-8 sequence is written `\xNN` (lowercase hex), so the
 *   console shows a readable `/var/www/\xb2\xe2.php`.
 * - A literal backslash is doubled only where it would otherwise read as an escape (followed by `\`
 *   or by `x` and two hex digits), so `a\b` stays `a\b` and the encoding is still reversible.
 *   Any other backslash in a string stands for itself (a path typed by hand is read leniently).
 * - Every fs call on such a path goes through `bytesOfPath` (Node accepts a Buffer path).
 *
 * Lone surrogates (Python's surrogateescape) were not chosen: they do not survive UTF-8 storage in
 * SQLite or JSON to the browser, and would show as garbage.
 */
import { isUtf8 } from 'node:buffer';

const backslash = 0x5c;
const hexPair = /^[0-9a-fA-F]{2}$/;

/** How many bytes the UTF-8 sequence starting with `lead` claims (1 for an invalid lead: escaped alone). */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 1;
}

/** True when a backslash followed by `next` (the already encoded rest) would read as an escape. */
function readsAsEscape(rest: string): boolean {
  return rest.startsWith('\\') || (rest.startsWith('x') && hexPair.test(rest.slice(1, 3)));
}

/** The string for a path's bytes (see the file comment). */
export function pathFromBytes(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fast = isUtf8(buffer) && !buffer.includes(backslash);
  if (fast) return buffer.toString('utf8');
  // Pieces first, then backslashes decided right to left: whether one is doubled depends on what follows it.
  const pieces: { text: string; literalBackslash: boolean }[] = [];
  for (let i = 0; i < buffer.length;) {
    const byte = buffer[i]!;
    if (byte === backslash) {
      pieces.push({ text: '\\', literalBackslash: true });
      i += 1;
      continue;
    }
    const length = sequenceLength(byte);
    const slice = buffer.subarray(i, i + length);
    if (byte >= 0x80 && (length === 1 || slice.length < length || !isUtf8(slice))) {
      pieces.push({ text: `\\x${byte.toString(16).padStart(2, '0')}`, literalBackslash: false });
      i += 1;
      continue;
    }
    pieces.push({ text: slice.toString('utf8'), literalBackslash: false });
    i += length;
  }
  let out = '';
  for (let p = pieces.length - 1; p >= 0; p -= 1) {
    const piece = pieces[p]!;
    out = (piece.literalBackslash && readsAsEscape(out) ? '\\\\' : piece.text) + out;
  }
  return out;
}

/** The bytes a path string stands for: the inverse of pathFromBytes, for every fs call. */
export function bytesOfPath(path: string): Buffer {
  if (!path.includes('\\')) return Buffer.from(path, 'utf8');
  const parts: Buffer[] = [];
  let plain = '';
  const flush = (): void => {
    if (plain) parts.push(Buffer.from(plain, 'utf8'));
    plain = '';
  };
  for (let i = 0; i < path.length;) {
    if (path[i] !== '\\') {
      plain += path[i];
      i += 1;
    } else if (path[i + 1] === '\\') {
      plain += '\\';
      i += 2;
    } else if (path[i + 1] === 'x' && hexPair.test(path.slice(i + 2, i + 4))) {
      flush();
      parts.push(Buffer.of(Number.parseInt(path.slice(i + 2, i + 4), 16)));
      i += 4;
    } else {
      plain += '\\';
      i += 1;
    }
  }
  flush();
  return Buffer.concat(parts);
}

/** A path as given, in its canonical encoded form (a hand-typed `\q` and an escaped `\\q` agree). */
export function canonicalPath(path: string): string {
  return path.includes('\\') ? pathFromBytes(bytesOfPath(path)) : path;
}
