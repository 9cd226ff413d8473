import type { IncomingMessage } from 'node:http';

export interface BodyHead {
  /** Everything read so far, to be forwarded before the rest is piped. */
  chunks: Buffer[];
  /** At most `limit` bytes: what the engine reads. */
  inspected: Buffer;
  /** The request body ended within what was read. */
  ended: boolean;
  /** The body is longer than `inspected`. */
  truncated: boolean;
  /** The client broke off while sending: nothing is to be forwarded. */
  aborted: boolean;
}

/**
 * Reads the first `limit` bytes of a request body and pauses the stream there, so the engine can
 * decide before a byte reaches the origin while a 1 GB upload never sits in memory: the rest is
 * piped later, with backpressure. A chunk that crosses the limit is kept whole for forwarding.
 */
export function readBodyHead(req: IncomingMessage, limit: number): Promise<BodyHead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (ended: boolean, aborted = false) => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      const all = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      const inspected = all.length > limit ? all.subarray(0, limit) : all;
      resolve({ chunks, inspected, ended, truncated: !ended || all.length > limit, aborted });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) {
        req.pause();
        // Not "ended" even if this was the last chunk: the pipe that follows sees the end itself.
        finish(false);
      }
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false, true);
    // No body inspection: nothing is read here; the body (if any) is piped unread.
    if (limit === 0) return resolve({ chunks, inspected: Buffer.alloc(0), ended: false, truncated: !announcesNoBody(req), aborted: false });
    if (announcesNoBody(req)) return resolve({ chunks, inspected: Buffer.alloc(0), ended: true, truncated: false, aborted: false });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** No Content-Length (or 0) and no Transfer-Encoding: HTTP/1.1 says there is no body. */
export function announcesNoBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined;
}
