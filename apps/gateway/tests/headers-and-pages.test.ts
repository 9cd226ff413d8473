import { describe, expect, it } from 'vitest';
import { gatewaySiteSchema, websiteResponseSchema } from '@rampart/contracts';

const minimalSite = { id: 's', name: 'S', status: 'on', listen: [{ address: '127.0.0.1', port: 1 }], upstreams: [{ url: 'http://127.0.0.1:2' }] };
import { renderBlockResponse } from '../src/block-response.ts';
import { endToEndHeaders, upstreamRequestHeaders } from '../src/hop-by-hop.ts';
import { chooseSite } from '../src/site-router.ts';

describe('hop-by-hop headers', () => {
  it('drops connection-level headers and those named by Connection', () => {
    const raw = ['Host', 'a', 'Connection', 'keep-alive, X-Secret', 'Keep-Alive', 'timeout=5', 'TE', 'trailers', 'Upgrade', 'h2c',
      'Proxy-Authorization', 'x', 'Transfer-Encoding', 'chunked', 'X-Secret', 's', 'Accept', '*/*'];
    expect(endToEndHeaders(raw)).toEqual([['Host', 'a'], ['Accept', '*/*']]);
  });
  it('appends the peer to X-Forwarded-For and sets proto, host, real ip and via', () => {
    const out = upstreamRequestHeaders([['Host', 'shop'], ['X-Forwarded-For', '1.1.1.1'], ['X-Forwarded-Proto', 'https']], {
      peerAddress: '10.0.0.1', trustedPeer: false, proto: 'http', host: 'shop', clientIp: '1.1.1.1', upstreamHost: undefined, via: true,
    });
    expect(out).toEqual([
      ['Host', 'shop'], ['X-Forwarded-For', '1.1.1.1, 10.0.0.1'], ['X-Forwarded-Proto', 'http'], ['X-Forwarded-Host', 'shop'],
      ['X-Real-IP', '1.1.1.1'], ['Via', '1.1 rampart'],
    ]);
  });
  it('keeps X-Forwarded-Proto and -Host from a trusted proxy (a CDN that terminated TLS)', () => {
    const out = upstreamRequestHeaders([['Host', 'origin'], ['X-Forwarded-Proto', 'https'], ['X-Forwarded-Host', 'www.shop']], {
      peerAddress: '10.0.0.1', trustedPeer: true, proto: 'http', host: 'origin', clientIp: '1.1.1.1', upstreamHost: undefined, via: false,
    });
    expect(out).toContainEqual(['X-Forwarded-Proto', 'https']);
    expect(out).toContainEqual(['X-Forwarded-Host', 'www.shop']);
  });
  it('replaces Host when the client host is not preserved', () => {
    const out = upstreamRequestHeaders([['host', 'shop']], { peerAddress: '1.2.3.4', trustedPeer: false, proto: 'https', host: 'shop', clientIp: '1.2.3.4', upstreamHost: '127.0.0.1:9', via: false });
    expect(out[0]).toEqual(['Host', '127.0.0.1:9']);
    expect(out.filter(([n]) => n.toLowerCase() === 'host')).toHaveLength(1);
  });
});

describe('renderBlockResponse', () => {
  const decision = { action: 'block', rule: 'sqli.tautology', kind: 'sqli', evidence: "' or 1=1" } as const;
  it('defaults to 403 with the standard page', () => {
    const r = renderBlockResponse(gatewaySiteSchema.parse(minimalSite).block_response, decision, 'id-1');
    expect(r.status).toBe(403);
    expect(r.body).toContain('blocked');
    expect(r.body).not.toContain('sqli');
  });
  it('detailed names rule, kind and incident but never echoes the evidence', () => {
    const r = renderBlockResponse(websiteResponseSchema.parse({ type: 'detailed', status: 403, redirect_url: '', content: '' }), decision, 'id-2');
    expect(r.body).toContain('sqli.tautology');
    expect(r.body).toContain('id-2');
    expect(r.body).not.toContain('1=1');
  });
  it('redirects with a 3xx even when the status says 403', () => {
    const r = renderBlockResponse(websiteResponseSchema.parse({ type: 'redirect', status: 403, redirect_url: 'https://example.com/blocked', content: '' }), decision, 'x');
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe('https://example.com/blocked');
  });
  it('sends custom content as configured', () => {
    const r = renderBlockResponse(websiteResponseSchema.parse({ type: 'custom', status: 451, redirect_url: '', content: '<p>Nope</p>' }), decision, 'x');
    expect(r).toMatchObject({ status: 451, body: '<p>Nope</p>', headers: { 'content-type': 'text/html; charset=utf-8' } });
  });
});

describe('chooseSite', () => {
  const sites = [
    { id: 'a', site: { server_names: ['shop.example.com'] } },
    { id: 'b', site: { server_names: ['*.example.com'] } },
    { id: 'c', site: { server_names: [] } },
  ];
  it('prefers exact, then wildcard, then the nameless default', () => {
    expect(chooseSite(sites, 'SHOP.example.com:8080')?.id).toBe('a');
    expect(chooseSite(sites, 'blog.example.com')?.id).toBe('b');
    expect(chooseSite(sites, 'example.com')?.id).toBe('c');
    expect(chooseSite(sites, undefined)?.id).toBe('c');
  });
});
