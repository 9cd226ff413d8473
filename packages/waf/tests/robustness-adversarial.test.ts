import { describe, expect, it } from 'vitest';
import { withoutBracketClasses } from '../src/detect/cmdi/commands.ts';
import { inspectPhases } from '../src/inspect.ts';
import type { WafRequest } from '../src/types.ts';

/**
 * CPU denial of service: a body of ~250 KB made of one short piece repeated, each shape one that
 * once made a detector or decoder super-linear. Each request must be inspected in bounded time
 * (best of two runs, a generous limit so a busy CI machine passes; the slow code took seconds).
 */
function bodyRequest(type: string, body: string): WafRequest {
  return { method: 'POST', target: '/', headers: [['Host', 'example.com'], ['Content-Type', type]], clientIp: '192.0.2.1', body: new TextEncoder().encode(body), bodyTruncated: false, now: 0 };
}

function timed(request: WafRequest): number {
  const start = performance.now();
  inspectPhases(request, { mode: 'strict' }, [1, 2, 3]);
  return performance.now() - start;
}

/** Best of two runs (the second only when the first was slow: a quadratic input stays slow). */
function bestOfTwo(request: WafRequest, limit: number): number {
  const first = timed(request);
  return first < limit ? first : Math.min(first, timed(request));
}

function shapes(value: string): [string, WafRequest][] {
  return [
    ['json', bodyRequest('application/json', JSON.stringify({ v: value }))],
    ['xml', bodyRequest('text/xml', `<r><v>${value}</v></r>`)],
    ['text', bodyRequest('text/plain', value)],
  ];
}

describe('adversarial bodies stay linear', () => {
  // `[/[/[/…`: the shell glob checks removed bracket classes with /\[[^\]]*\]/g, which rescans to
  // the end of the value from every `[` that has no `]` after it: 1.3 s for 20 KB, minutes for
  // 250 KB. 64 KB keeps the old code failing within seconds instead of hanging the suite.
  it.each(['[/', '/[', '[\\'])('64 KB of %s', (piece) => {
    const value = piece.repeat(Math.floor(64_000 / piece.length));
    for (const [, request] of shapes(value)) expect(bestOfTwo(request, 2000)).toBeLessThan(2000);
  });
});

describe('withoutBracketClasses', () => {
  it('removes what /\\[[^\\]]*\\]/g removes', () => {
    for (const text of ['', 'abc', '[a]', '/e[t]c/[p]asswd', '[a[b]c]', '[[x', 'a[b', ']a[', '[]]', '[a]b[c', '[/[/[/]x']) {
      expect(withoutBracketClasses(text)).toBe(text.replace(/\[[^\]]*\]/g, ''));
    }
  });
});
