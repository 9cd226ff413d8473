/**
 * The request-level checks on hand-written requests (fixtures.ts): every attack is found with its
 * rule and blocks in loose mode; what real clients send odd is at most suspicious; ordinary browser,
 * API and upload traffic produces no finding at all.
 */
import { describe, expect, it } from 'vitest';
import { inspect } from '../../src/inspect.ts';
import { bodyInputs, headerInputs, requestLineInputs } from '../../src/inputs.ts';
import { protocolHits, viewOf, type ProtocolHit } from '../../src/protocol/index.ts';
import type { WafRequest } from '../../src/types.ts';
import { attacks, benign, probes, suspicious } from './fixtures.ts';
import { wire } from './wire.ts';

function findings(request: WafRequest): ProtocolHit[] {
  const view = viewOf(request);
  return [
    ...protocolHits(1, view, requestLineInputs(request)),
    ...protocolHits(2, view, headerInputs(request)),
    ...protocolHits(3, view, bodyInputs(request)),
  ];
}

describe('request-level checks: attacks', () => {
  it.each(attacks.map((f) => [f.what, f]))('%s', (_what, fixture) => {
    const request = wire(fixture.wire);
    const hits = findings(request);
    expect(hits.map((h) => `${h.rule}/${h.severity}`)).toContain(`${fixture.rule}/${fixture.severity}`);
    expect(inspect(request, { mode: 'loose' })).toMatchObject({ action: 'block' });
  });
});

describe('request-level checks: odd but real clients', () => {
  it.each(suspicious.map((f) => [f.what, f]))('%s', (_what, fixture) => {
    const request = wire(fixture.wire);
    const hits = findings(request);
    expect(hits.map((h) => h.rule)).toContain(fixture.rule);
    expect(hits.filter((h) => h.severity === 2)).toEqual([]);
    expect(inspect(request, { mode: 'loose' }).action).not.toBe('block');
  });
});

describe('request-level checks: probes no client sends', () => {
  it.each(probes.map((f) => [f.what, f]))('%s', (_what, fixture) => {
    const request = wire(fixture.wire);
    const hits = findings(request);
    expect(hits.map((h) => `${h.rule}/${h.severity}`)).toContain(`${fixture.rule}/1`);
    expect(hits.filter((h) => h.severity === 2)).toEqual([]);
    expect(inspect(request, { mode: 'loose' })).toMatchObject({ action: 'record', rule: fixture.rule });
    expect(inspect(request, { mode: 'strict' })).toMatchObject({ action: 'block', rule: fixture.rule });
  });
});

describe('request-level checks: ordinary traffic', () => {
  it.each(benign.map((f) => [f.what, f]))('%s', (_what, fixture) => {
    const request = wire(fixture.wire);
    expect(findings(request)).toEqual([]);
    expect(inspect(request, { mode: 'strict' })).toEqual({ action: 'pass' });
  });
});

describe('request-level checks in the pipeline', () => {
  const smuggled = wire('POST /x HTTP/1.1\nHost: shop.example\nUser-Agent: x/1\nContent-Type: text/plain\nContent-Length: 2\nTransfer-Encoding: chunked\n\nab');

  it('report where they looked', () => {
    expect(inspect(smuggled, { mode: 'loose' })).toMatchObject({ action: 'block', rule: 'protocol.length_and_chunked', kind: 'crlf', location: 'header', name: 'Transfer-Encoding' });
  });

  it('follow the enabled kinds and can be switched off', () => {
    expect(inspect(smuggled, { mode: 'loose', kinds: ['sqli'] })).toEqual({ action: 'pass' });
    expect(inspect(smuggled, { mode: 'loose', protocol: false })).toEqual({ action: 'pass' });
    const scanner = wire('GET / HTTP/1.1\nHost: shop.example\nUser-Agent: Nikto/2.5.0\n\n');
    expect(inspect(scanner, { mode: 'loose', kinds: ['protocol'] })).toMatchObject({ action: 'block', rule: 'protocol.scanner_agent' });
  });

  it('still run when padding used up most of the input budget', () => {
    const padded = { ...smuggled, target: '/x?' + Array.from({ length: 40 }, (_, i) => `p${i}=1`).join('&') };
    expect(inspect(padded, { mode: 'loose', limits: { maxInputs: 90 } })).toMatchObject({ action: 'block', rule: 'protocol.length_and_chunked' });
    // Past the budget, the padding is refused by itself (protocol/unread.ts).
    expect(inspect(padded, { mode: 'loose', limits: { maxInputs: 10 } })).toMatchObject({ action: 'block', rule: 'protocol.too_many_inputs' });
  });

  it('record in loose mode what they only find suspicious', () => {
    const emptyAgent = wire('GET /api/items HTTP/1.1\nHost: shop.example\nUser-Agent: \nAccept: */*\n\n');
    expect(inspect(emptyAgent, { mode: 'loose' })).toMatchObject({ action: 'record', rule: 'protocol.user_agent_empty' });
    expect(inspect(emptyAgent, { mode: 'strict' })).toMatchObject({ action: 'block', rule: 'protocol.user_agent_empty' });
  });

  it('never throw on a request with garbage everywhere', () => {
    const garbage: WafRequest = {
      method: '\u0000', target: '%%%u12#\u0000?;;&&==%0d%0a', clientIp: '', now: 0, bodyTruncated: true,
      headers: [['Content-Type', 'multipart/form-data; boundary=""; charset'], ['Range', 'bytes=' + '1-,'.repeat(5000)], ['Transfer-Encoding', ''], ['Host', '[']],
      body: new Uint8Array(Buffer.from('--\r\n\r\n--x--', 'latin1')),
    };
    expect(() => findings(garbage)).not.toThrow();
    expect(inspect(garbage, { mode: 'loose' })).toMatchObject({ action: 'block' });
  });
});
