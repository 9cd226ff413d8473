import type { StreamedMultipart, WafRequest } from '@rampart/waf';
import type { RenderedResponse } from './block-response.ts';

/** The error a body stream fails with when what streamed past the window is refused; it carries the page. */
export const uploadRefused = 'RAMPART_UPLOAD_REFUSED';

export type UploadRefusedError = Error & { code: typeof uploadRefused; refusal: RenderedResponse };

/**
 * The chunks of a multipart upload longer than the window, forwarded as they come while the parts
 * past the window are read (the engine's streamMultipart). The last chunk is held until what was
 * read has been judged: the origin never has the whole body before the verdict, and on a refusal
 * the stream fails, so the upstream request is aborted and the origin's application never runs.
 */
export async function* judgedUpload(
  chunks: AsyncIterable<Buffer>,
  streamed: StreamedMultipart,
  judge: (request: WafRequest) => Promise<RenderedResponse | null>,
): AsyncGenerator<Buffer> {
  let offset = 0;
  let held: Buffer | null = null;
  for await (const chunk of chunks) {
    const end = offset + chunk.length;
    if (end > streamed.from) streamed.push(offset >= streamed.from ? chunk : chunk.subarray(streamed.from - offset));
    offset = end;
    if (held) yield held;
    held = chunk;
  }
  const request = streamed.finish();
  const refusal = request ? await judge(request) : null;
  if (refusal) throw Object.assign(new Error('upload refused past the inspected window'), { code: uploadRefused, refusal });
  if (held) yield held;
}
