/**
 * What the engine did not read, as findings: a payload placed after padding must not pass because
 * the engine stopped reading before it reached it.
 *
 * Severities (the spec is silent; our choice):
 * - More values than the engine reads (`maxInputs`, 2,048 names and values across the request line,
 *   headers and body): 2, both modes. ModSecurity's recommended configuration refuses a request
 *   with 1,000 arguments (its rule 200007), PHP drops variables past 1,000 (`max_input_vars`), and
 *   a thousand dummy parameters before an attack are the cheapest padding there is.
 * - A value longer than the engine reads whole (`maxValueLength`, 256 KiB: its head and tail are
 *   read, the middle is not, which keeps a megabyte post from costing a second of CPU): 1, strict
 *   only, unless the middle is base64 or hex (an image or file sent inside JSON), which carries no
 *   readable payload. Loose reads the head and the tail and records it.
 * - A form, JSON or XML body longer than what was read (the gateway's window, `inspect_body_kb`, or
 *   the engine's `maxBodyBytes`, 1 MiB each by default): 1, strict only. ModSecurity refuses non-file
 *   bodies past 128 KiB (`SecRequestBodyNoFilesLimit`); but APIs do post megabytes of base64 images in
 *   JSON, so loose lets them through and records them. Files are not counted: multipart file
 *   contents are read by their head on purpose, and a PUT of a JSON or XML document (WebDAV, object
 *   stores) is a file upload too. A form body (urlencoded) is counted whatever the method. A
 *   compressed body counts by its inflated length (a zip bomb is read as far as `maxBodyBytes`). A
 *   multipart form counts when a text field (not a file) went unread: the window cut it and nothing
 *   past the window was handed over, or the reading of the parts past the window (every text field,
 *   file heads: parse/multipart-tail.ts) ran out of its budget. The gateway hands over what streamed
 *   past its window the same way (streamMultipart).
 */
import { decodeContentEncoding } from '../parse/body-encoding.ts';
import { declaredBodyKind, parseContentType } from '../parse/content-type.ts';
import { parseMultipart } from '../parse/multipart.ts';
import { headerValue, joinedHeaderValue } from '../policy/facts.ts';
import { multipartTailOf, type InputLimits } from '../inputs.ts';
import type { InputLocation, RequestInput, WafRequest } from '../types.ts';
import { protocolHit, type ProtocolHit } from './hit.ts';

const phaseLocation: Record<1 | 2 | 3, InputLocation> = { 1: 'query', 2: 'header', 3: 'body' };

/** The phase's values went past what the engine reads: the rest would pass unread. */
export function unreadInputsHit(phase: 1 | 2 | 3, maxInputs: number): ProtocolHit {
  return protocolHit('protocol.too_many_inputs', 2, { location: phaseLocation[phase] }, `more than ${maxInputs} names and values`);
}

/** A form, JSON or XML body that was not read to its end, or null. */
export function unreadBodyHit(request: WafRequest, limits: InputLimits): ProtocolHit | null {
  const maxBodyBytes = limits.maxBodyBytes;
  let length = request.body?.length ?? 0;
  const codings = joinedHeaderValue(request, 'content-encoding');
  let inflatedPastWindow = false;
  let bytes = request.body ? Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength) : null;
  if (codings !== undefined && request.body) {
    // A compressed body is read inflated (parse/body-encoding.ts): what counts is the inflated length.
    const decoded = decodeContentEncoding(request.body, codings, maxBodyBytes);
    if (decoded.failed === null) {
      inflatedPastWindow = decoded.truncated;
      length = Math.max(length, decoded.bytes.length);
      bytes = Buffer.from(decoded.bytes.buffer, decoded.bytes.byteOffset, decoded.bytes.byteLength);
    }
  }
  if (!request.bodyTruncated && !inflatedPastWindow && length <= maxBodyBytes) return null;
  const type = parseContentType(headerValue(request, 'content-type') ?? undefined);
  const kind = declaredBodyKind(type);
  if (kind === 'multipart' && bytes) {
    const boundary = type.params.boundary ?? '';
    const tail = multipartTailOf(bytes, boundary, limits);
    // Past the window the parts are read (inputs.ts): what counts is whether that reading stopped
    // short, or the body handed over was cut inside a text field.
    const unread = tail ? tail.stopped || ((request.bodyTruncated || inflatedPastWindow) && tail.endsInText) : cutInTextField(bytes.subarray(0, maxBodyBytes), boundary);
    return unread ? protocolHit('protocol.body_beyond_inspection', 1, { location: 'raw_body' }, `a form field past the ${Math.round(Math.min(maxBodyBytes, length) / 1024)} KiB read`) : null;
  }
  if (kind === 'urlencoded' || ((kind === 'json' || kind === 'xml') && request.method.toUpperCase() !== 'PUT')) {
    return protocolHit('protocol.body_beyond_inspection', 1, { location: 'raw_body' }, `a ${kind} body longer than the ${Math.round(Math.min(maxBodyBytes, length) / 1024)} KiB read`);
  }
  return null;
}

/**
 * The window (the gateway's or the engine's) ends inside a text field of a multipart form, or inside
 * a part's headers, not inside a file: the rest of that field went unread. A window ending inside a file is the ordinary large upload and is not.
 */
function cutInTextField(body: Buffer, boundary: string): boolean {
  if (!boundary) return false;
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  const last = body.lastIndexOf(delimiter);
  if (last < 0) return false;
  // The closing delimiter: the form was read to its end.
  if (body[last + delimiter.length] === 0x2d && body[last + delimiter.length + 1] === 0x2d) return false;
  // The last part read, up to the window's end: a text field, or a part whose headers were cut (a
  // file or a field, it cannot be told).
  const parts = parseMultipart(body.toString('latin1', last, Math.min(body.length, last + 16 * 1024)), boundary, { maxParts: 1, maxFileHead: 0 });
  return parts.length === 0 || parts[0]!.fileName === null;
}

/**
 * Only base64 (standard or URL-safe) or hex digits, with MIME line breaks: no readable payload. No
 * blanks: a readable payload needs them (or punctuation), and what it could spell with `+` alone
 * would have to follow 128 KiB of read head that is valid code of the same language.
 */
const encodedBlob = /^[A-Za-z0-9+/=_\-\r\n]*$/;

/** A value whose middle went unread (see above), or null. */
export function unreadValueHit(input: RequestInput, maxValueLength: number): ProtocolHit | null {
  const value = input.value;
  if (value.length <= maxValueLength || input.location === 'file_content') return null;
  const half = Math.floor(maxValueLength / 2);
  if (encodedBlob.test(value.slice(half, value.length - half))) return null;
  return protocolHit('protocol.value_beyond_inspection', 1, { location: input.location, name: input.name }, `a value of ${Math.round(value.length / 1024)} KiB, read ${Math.round(maxValueLength / 1024)} KiB of it`);
}
