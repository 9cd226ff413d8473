/**
 * The answer to a request Node's HTTP parser cannot read (it never reaches a site or the engine).
 * Node's own clientError default picks the status by the parser's error; a handler of our own
 * replaces that default, so it picks the same way — a client (or an administrator reading the
 * access log) learns why: 431 for an oversized head, 408 for a head that arrived too slowly, 501 for
 * a method the parser does not know (RFC 9110 §15.6.2: the answer for an unrecognized method), 400
 * for the rest. Every answer closes the connection: after a parse error the byte stream cannot be
 * trusted to frame another request.
 */
const statusByCode: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
  HPE_HEADER_TIMEOUT: [408, 'Request Timeout'],
  HPE_INVALID_METHOD: [501, 'Not Implemented'],
};

export function parserRefusal(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const [status, reason] = (typeof code === 'string' ? statusByCode[code] : undefined) ?? [400, 'Bad Request'];
  return `HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`;
}
