import { describe, expect, it } from 'vitest';
import { decodedVariants } from '../src/decode/variants.ts';
import { detectSqliValue } from '../src/detect/sqli/index.ts';
import { detectXssValue } from '../src/detect/xss/index.ts';
import { inspectPhases } from '../src/inspect.ts';
import { requestInputs } from '../src/inputs.ts';
import type { WafRequest } from '../src/types.ts';

/**
 * Fuzz-ish robustness: random bytes and hostile shapes never make the engine throw, and each
 * request is inspected in bounded time. The pieces are called directly (not through inspect(),
 * which would swallow an exception) so a throw anywhere fails the test.
 */
let seed = 0x2545f491;
function random(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x100000000;
}

const alphabet = "'\"<>()=;:-#/*!%&+\\`{}[]@$ \t\r\n\0ab1xUNIONSELECTscriptonerror&#x;%u00";
function randomText(length: number, bytes = false): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out += bytes ? String.fromCharCode(Math.floor(random() * 256)) : alphabet[Math.floor(random() * alphabet.length)];
  }
  return out;
}

const contentTypes = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=ab', 'text/xml', 'text/plain', ''];

function randomRequest(): WafRequest {
  const bytes = random() < 0.5;
  const body = randomText(Math.floor(random() * 2000), bytes);
  return {
    method: 'POST',
    target: '/' + randomText(Math.floor(random() * 200), bytes) + '?' + randomText(Math.floor(random() * 300), bytes),
    headers: [
      ['Content-Type', contentTypes[Math.floor(random() * contentTypes.length)]!],
      ['Cookie', randomText(100, bytes)],
      ['X-' + randomText(5), randomText(200, bytes)],
    ],
    clientIp: '192.0.2.1',
    body: new Uint8Array(Buffer.from(random() < 0.3 ? '--ab\r\nContent-Disposition: form-data; name="x"\r\n\r\n' + body : body, 'latin1')),
    bodyTruncated: false,
    now: 0,
  };
}

const hostile: string[] = [
  '<'.repeat(100_000),
  '<a '.repeat(30_000),
  "'".repeat(100_000),
  '('.repeat(50_000) + 'select 1' + ')'.repeat(50_000),
  'union select '.repeat(10_000),
  '1+'.repeat(50_000) + '1',
  '%25'.repeat(50_000),
  '&#'.repeat(50_000),
  '\\u'.repeat(50_000),
  '/*!'.repeat(30_000),
  'on'.repeat(50_000) + '=alert(1)',
  '" onx='.repeat(20_000),
  'A'.repeat(200_000),
  'case '.repeat(20_000),
  'sleep('.repeat(20_000),
  '${'.repeat(30_000),
  'javascript:'.repeat(10_000),
];

describe('robustness', () => {
  it('never throws on random requests, each inspected within a bounded time', () => {
    const inspectOnce = (request: WafRequest): number => {
      const start = performance.now();
      expect(() => requestInputs(request)).not.toThrow();
      for (const input of requestInputs(request)) {
        for (const variant of decodedVariants(input.value, input.location)) {
          detectSqliValue(variant);
          detectXssValue(variant);
        }
      }
      inspectPhases(request, { mode: 'strict' }, [1, 2, 3]);
      return performance.now() - start;
    };
    let slowest = { ms: 0, request: null as WafRequest | null };
    for (let i = 0; i < 400; i++) {
      const request = randomRequest();
      const ms = inspectOnce(request);
      if (ms > slowest.ms) slowest = { ms, request };
    }
    // The slowest is timed again, best of three: an input the engine is slow on stays slow, while a
    // garbage collection or a busy machine (the whole suite runs in parallel) does not repeat.
    const again = Math.min(...[1, 2, 3].map(() => inspectOnce(slowest.request!)));
    expect(Math.min(slowest.ms, again)).toBeLessThan(500);
  });

  it.each(hostile.map((h) => [h.slice(0, 24), h]))('stays fast on %s…', (_label, value) => {
    const start = performance.now();
    for (const variant of decodedVariants(value, 'query')) {
      detectSqliValue(variant);
      detectXssValue(variant);
    }
    expect(performance.now() - start).toBeLessThan(1500);
  });

  // A value of 250,000 backslashes once took 20 s in the shell tokenizer (a string built by += was
  // flattened at every backslash); each of these is one request of 250 KB.
  it.each(['\\', '\\x', 'a(', '(a', '${', '{{', '<%', '&#13;'])('stays fast on 250 KB of %s in a JSON or form body', (piece) => {
    const value = piece.repeat(Math.floor(250_000 / piece.length));
    for (const [type, body] of [['application/json', JSON.stringify({ v: value })], ['application/x-www-form-urlencoded', `v=${value}`]] as const) {
      const request: WafRequest = { method: 'POST', target: '/', headers: [['Content-Type', type]], clientIp: '192.0.2.1', body: new TextEncoder().encode(body), bodyTruncated: false, now: 0 };
      const ms = Math.min(...[1, 2].map(() => {
        const start = performance.now();
        inspectPhases(request, { mode: 'strict' }, [3]);
        return performance.now() - start;
      }));
      expect(ms).toBeLessThan(2000);
    }
  });

  it('bounds nested JSON and huge bodies', () => {
    const deep = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);
    const request: WafRequest = { method: 'POST', target: '/', headers: [['Content-Type', 'application/json']], clientIp: '192.0.2.1', body: new TextEncoder().encode(deep), bodyTruncated: false, now: 0 };
    const start = performance.now();
    expect(() => inspectPhases(request, { mode: 'strict' }, [3])).not.toThrow();
    expect(performance.now() - start).toBeLessThan(2000);
  });
});
