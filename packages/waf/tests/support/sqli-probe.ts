import { decodedVariants } from '../../src/decode/variants.ts';
import { detectSqli } from '../../src/detect/sqli/index.ts';
import type { InputLocation, WafRequest } from '../../src/types.ts';

/**
 * What the whole-value SQL probe tests share: the strongest finding over a raw value's decoded
 * variants, as the pipeline sees them, and requests from an ordinary browser.
 */
export function strongestSqli(raw: string, location: InputLocation = 'query', name?: string) {
  let best: ReturnType<typeof detectSqli> = null;
  for (const variant of decodedVariants(raw, location)) {
    const hit = detectSqli(variant, location, name);
    if (hit && (!best || hit.severity > best.severity)) best = hit;
  }
  return best;
}

export const browserHeaders: [string, string][] = [['Host', 'example.test'], ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0'], ['Accept', '*/*']];

export function getRequest(target: string, headers: [string, string][] = browserHeaders): WafRequest {
  return { method: 'GET', target, headers, clientIp: '192.0.2.1', body: null, bodyTruncated: false, now: 0 };
}

export function postRequest(contentType: string, body: string, target = '/submit'): WafRequest {
  return { method: 'POST', target, headers: [...browserHeaders, ['Content-Type', contentType]], clientIp: '192.0.2.1', body: new TextEncoder().encode(body), bodyTruncated: false, now: 0 };
}
