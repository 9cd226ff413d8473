import type { WafRequest } from '../../src/types.ts';

/**
 * A request written the way it goes over the wire (`\n` line ends are fine): request line,
 * header lines, blank line, body. Fixtures stay readable, and what a test sends is what a client
 * would send.
 */
export function wire(text: string): WafRequest {
  const normalized = text.replace(/\r?\n/g, '\r\n');
  const end = normalized.indexOf('\r\n\r\n');
  const head = end < 0 ? normalized : normalized.slice(0, end);
  const body = end < 0 ? '' : normalized.slice(end + 4);
  const [requestLine = '', ...lines] = head.split('\r\n');
  const [method = 'GET', target = '/'] = requestLine.split(' ');
  const headers = lines.filter((l) => l.length > 0).map((l) => {
    const colon = l.indexOf(':');
    return [l.slice(0, colon), l.slice(colon + 1).trim()] as const;
  });
  return {
    method,
    target,
    headers,
    clientIp: '192.0.2.10',
    body: body.length > 0 ? new Uint8Array(Buffer.from(body, 'utf8')) : null,
    bodyTruncated: false,
    now: 0,
  };
}

/** The headers a current browser sends on a page view. */
export const browser = 'Host: shop.example\nUser-Agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36\nAccept: text/html,application/xhtml+xml,*/*;q=0.8\nAccept-Encoding: gzip, deflate, br\nAccept-Language: en-GB,en;q=0.9';
