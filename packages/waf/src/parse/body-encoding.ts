/**
 * A request body as the application reads it, not as it crossed the wire: inflated when the client
 * compressed it (`Content-Encoding: gzip`, `deflate`, `br`: Rails, Django, ASP.NET, Spring and Go
 * APIs with a decompression middleware read the inflated body, and the compressed bytes hide any
 * payload from a filter that reads them as they are), and turned into text from UTF-16 or UTF-32
 * (Java and .NET decode a JSON or XML body by its BOM or its `charset`; read as UTF-8, every other
 * byte is a NUL and no detector sees a keyword).
 *
 * Bounded: at most `maxBytes` of output per coding (a zip bomb stops there and the body counts as
 * not read to its end), at most three codings stacked, and the result is kept per body so the
 * inputs and the request-level checks inflate it once.
 */
import zlib from 'node:zlib';

export interface DecodedBody {
  bytes: Uint8Array;
  /** The inflated body went past `maxBytes`: the rest was not read. */
  truncated: boolean;
  /** Why the body could not be inflated (it is then read as sent), or null. */
  failed: string | null;
}

/** The codings the engine inflates; `identity` is no coding. */
const decodable = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/** `Content-Encoding: gzip, br` → ['gzip', 'br'] (applied in that order), identity left out. */
export function contentCodings(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/** Every coding is one the engine inflates, and no more than three are stacked. */
export function codingsDecodable(codings: readonly string[]): boolean {
  return codings.length <= 3 && codings.every((c) => decodable.has(c));
}

function inflateOnce(coding: string, input: Buffer, maxBytes: number): Buffer {
  const options = { maxOutputLength: maxBytes, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (coding === 'br') return zlib.brotliDecompressSync(input, { maxOutputLength: maxBytes, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  if (coding === 'deflate') {
    // RFC 9110 means zlib-wrapped deflate; some clients (old IIS, some SDKs) send raw deflate.
    try {
      return zlib.inflateSync(input, options);
    } catch (error) {
      if (error instanceof RangeError) throw error;
      return zlib.inflateRawSync(input, options);
    }
  }
  // gzip: Node reads concatenated members too, as gzip(1) and Go do.
  return zlib.gunzipSync(input, options);
}

/**
 * One coding, its output bounded: past `maxBytes` Node refuses the whole output, so a shorter head
 * of the input is inflated instead (a truncated stream inflates as far as it goes with a sync
 * flush), halving until the output fits.
 */
function inflateBounded(coding: string, input: Buffer, maxBytes: number): { bytes: Buffer; truncated: boolean } {
  let length = input.length;
  for (let attempt = 0; attempt < 40 && length > 0; attempt++) {
    try {
      const bytes = inflateOnce(coding, length === input.length ? input : input.subarray(0, length), maxBytes);
      return { bytes, truncated: length < input.length };
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      length = Math.floor(length / 2);
    }
  }
  return { bytes: Buffer.alloc(0), truncated: true };
}

/**
 * A stream followed by bytes that are no stream (trailing garbage): Java's GZIPInputStream and Go's
 * gzip reader hand on what came before them, Node's one-shot inflate refuses the whole. The longest
 * head that inflates is found by halving (each try bounded as above); none at all is a failure.
 */
function inflateLenient(coding: string, input: Buffer, maxBytes: number): { bytes: Buffer; truncated: boolean } {
  try {
    return inflateBounded(coding, input, maxBytes);
  } catch (error) {
    let best: { bytes: Buffer; truncated: boolean } | null = null;
    let low = 1;
    let high = input.length - 1;
    for (let tries = 0; tries < 24 && low <= high; tries++) {
      const middle = (low + high) >>> 1;
      try {
        best = inflateBounded(coding, input.subarray(0, middle), maxBytes);
        // The head already fills the window: a longer one would read no more.
        if (best.truncated) return best;
        low = middle + 1;
      } catch {
        high = middle - 1;
      }
    }
    if (best === null || best.bytes.length === 0) throw error;
    return { bytes: best.bytes, truncated: best.truncated };
  }
}

const memo = new WeakMap<Uint8Array, { header: string; maxBytes: number; result: DecodedBody }>();

/** The body inflated by its Content-Encoding (see above); as sent when there is none. */
export function decodeContentEncoding(body: Uint8Array, header: string | undefined, maxBytes: number): DecodedBody {
  const codings = contentCodings(header);
  if (codings.length === 0 || body.length === 0) return { bytes: body, truncated: false, failed: null };
  const known = memo.get(body);
  if (known && known.header === header && known.maxBytes === maxBytes) return known.result;
  let result: DecodedBody;
  if (!codingsDecodable(codings)) {
    result = { bytes: body, truncated: false, failed: `unsupported coding ${codings.join(', ')}` };
  } else {
    let bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    let truncated = false;
    try {
      for (let i = codings.length - 1; i >= 0; i--) {
        const step = inflateLenient(codings[i]!, bytes, maxBytes);
        bytes = step.bytes;
        truncated ||= step.truncated;
      }
      result = { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), truncated, failed: null };
    } catch (error) {
      result = { bytes: body, truncated: false, failed: error instanceof Error ? error.message : 'does not inflate' };
    }
  }
  memo.set(body, { header: header ?? '', maxBytes, result });
  return result;
}

/** The charsets the engine turns into text itself (UTF-8 being the default reading). */
type WideCharset = 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';

/**
 * A UTF-16 or UTF-32 body: by its BOM, else by the NUL pattern of its first ASCII characters
 * (RFC 4627 §3: `{"` in UTF-16LE is `7B 00 22 00`), which also tells the byte order a bare
 * `charset=utf-16` leaves open.
 * Null when the body is UTF-8 (or another single-byte reading).
 */
export function wideCharset(bytes: Uint8Array, declared: string | undefined): { charset: WideCharset; bom: number } | null {
  const [b0, b1, b2, b3] = [bytes[0], bytes[1], bytes[2], bytes[3]];
  if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) return { charset: 'utf-32le', bom: 4 };
  if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) return { charset: 'utf-32be', bom: 4 };
  if (b0 === 0xff && b1 === 0xfe) return { charset: 'utf-16le', bom: 2 };
  if (b0 === 0xfe && b1 === 0xff) return { charset: 'utf-16be', bom: 2 };
  if (bytes.length < 4) return null;
  const pattern = (b0 === 0 ? 'z' : 'x') + (b1 === 0 ? 'z' : 'x') + (b2 === 0 ? 'z' : 'x') + (b3 === 0 ? 'z' : 'x');
  const sniffed: WideCharset | null = pattern === 'zzzx' ? 'utf-32be' : pattern === 'xzzz' ? 'utf-32le' : pattern === 'zxzx' ? 'utf-16be' : pattern === 'xzxz' ? 'utf-16le' : null;
  if (sniffed === null) return null;
  // A charset declared without a BOM is believed only when the NULs agree: PHP and Node read a form
  // labelled `charset=utf-16` as the bytes it is, so an ASCII body under that label stays ASCII.
  // Sniffed alone (nothing declared): only a body that opens like a document (`{`, `[`, `<`, a quote
  // or a blank), so a binary upload with NULs in it is not read as text it is not.
  const name = (declared ?? '').trim().toLowerCase().replace(/^"|"$/g, '');
  const declaredWide = /^(?:utf-?(?:16|32)(?:[lb]e)?|ucs-?[24])$/.test(name);
  const first = bytes.find((b) => b !== 0);
  if (!declaredWide && (first === undefined || !'{[<" \t\r\n'.includes(String.fromCharCode(first)))) return null;
  return { charset: sniffed, bom: 0 };
}

/** The text of a UTF-16 or UTF-32 body (invalid units become U+FFFD, as decoders do). */
export function decodeWide(bytes: Uint8Array, wide: { charset: WideCharset; bom: number }): string {
  const body = bytes.subarray(wide.bom);
  if (wide.charset === 'utf-16le' || wide.charset === 'utf-16be') return new TextDecoder(wide.charset).decode(body);
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength - (body.byteLength % 4));
  const little = wide.charset === 'utf-32le';
  let out = '';
  const chunk: number[] = [];
  for (let i = 0; i + 4 <= view.byteLength; i += 4) {
    const code = view.getUint32(i, little);
    chunk.push(code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? code : 0xfffd);
    if (chunk.length === 4096) {
      out += String.fromCodePoint(...chunk);
      chunk.length = 0;
    }
  }
  return out + String.fromCodePoint(...chunk);
}
