import { multipartTailLimits, defaultInputLimits, type InputLimits } from './inputs.ts';
import { MultipartTailReader, resumeOffset } from './parse/multipart-tail.ts';
import { usableBoundary } from './parse/multipart.ts';
import { parseContentType } from './parse/content-type.ts';
import { headerValue } from './policy/facts.ts';
import type { WafRequest } from './types.ts';

/**
 * A multipart upload longer than the window a proxy reads before deciding (the gateway's
 * `inspect_body_kb`): the proxy forwards the rest as it streams, and this reads the parts in it as
 * the engine would have read them in one body (parse/multipart-tail.ts), so that a text field, a
 * file name or a file's head sent after a large file is judged too before the origin gets the
 * body's last bytes. Bounded like the engine's own reading past its window.
 */
export interface StreamedMultipart {
  /** Offset in the body from which the bytes are to be pushed: the delimiter of the part the window cut. */
  readonly from: number;
  /** Reads the body's bytes from `from` on, in order. */
  push(chunk: Uint8Array): void;
  /** The request to judge once the body ended, or null when nothing past the window needs it. */
  finish(): WafRequest | null;
}

/**
 * Null unless the request is a multipart form with a boundary and no Content-Encoding (a compressed
 * stream is not inflated on the way; the window's judgment counts it unread).
 */
export function streamMultipart(request: WafRequest, window: Uint8Array, limits: InputLimits = defaultInputLimits): StreamedMultipart | null {
  if (headerValue(request, 'content-encoding') !== null) return null;
  const type = parseContentType(headerValue(request, 'content-type') ?? undefined);
  const boundary = type.params.boundary ?? '';
  if (!type.mediaType.startsWith('multipart/') || !usableBoundary(boundary)) return null;
  const bytes = Buffer.from(window.buffer, window.byteOffset, window.byteLength);
  const from = resumeOffset(bytes, boundary);
  const windowCutAPart = from < bytes.length;
  const reader = new MultipartTailReader(boundary, multipartTailLimits(limits));
  return {
    from,
    push: (chunk) => reader.push(chunk),
    finish() {
      const tail = reader.result();
      // Only the file the window cut, and nothing else: its head was judged with the window.
      const cutFileOnly = !tail.stopped && tail.textParts === 0 && tail.fileParts <= (windowCutAPart ? 1 : 0);
      if (cutFileOnly) return null;
      const body = Buffer.concat([bytes.subarray(0, from), Buffer.from(tail.text, 'latin1')]);
      return { ...request, body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength), bodyTruncated: tail.stopped };
    },
  };
}
