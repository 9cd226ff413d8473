import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { websiteDiscoverySchema } from '@rampart/contracts';
import { websiteHandlers } from '../src/website/website-handlers.ts';

/* The agent's discovery call over @rampart/web-discovery's parsers, fed its recorded `nginx -T` and `apachectl -S` output. */

const fixtures = join(import.meta.dirname, '..', '..', '..', 'packages', 'web-discovery', 'tests', 'fixtures');

describe('website.discover', () => {
  it('offers the nginx and Apache sites with a listener, a source and an origin hint', async () => {
    const handlers = websiteHandlers({
      nginx: { command: 'cat', args: [join(fixtures, 'nginx-T.txt')] },
      apache: { command: 'cat', args: [join(fixtures, 'apachectl-S.txt')] },
      // As if something listened on 8080 on this host: the suggested loopback origins skip it.
      busyPorts: () => new Set([8080]),
    });
    const result = websiteDiscoverySchema.parse(await handlers['website.discover']());
    const shop = result.sites.find((s) => s.server === 'nginx' && s.name === 'shop.example.com')!;
    expect(shop).toMatchObject({ server_names: ['shop.example.com', 'www.shop.example.com'], upstream_hint: 'http://127.0.0.1:3000', origin_move: null });
    expect(shop.listen[0]).toEqual({ address: '127.0.0.1', port: 8081, tls: false });
    expect(shop.source).toMatch(/nginx\.conf:\d+$/);
    // `proxy_pass http://blog_backend` is resolved to the upstream block's first server by the parser.
    const blog = result.sites.find((s) => s.server === 'nginx' && s.name === 'blog.example.org')!;
    expect(blog.upstream_hint).toBe('http://127.0.0.1:4000');
    // A site that serves files itself: the web server moves to a free loopback port (not 8080, busy;
    // not 8081-8082, the found sites'), and the answer says which listener to change. Its listener
    // itself would be the gateway: never the suggestion.
    const apacheShop = result.sites.find((s) => s.server === 'apache' && s.name === 'shop.example.com')!;
    expect(apacheShop.listen[0]).toMatchObject({ address: '127.0.0.1', port: 8082 });
    expect(apacheShop.upstream_hint).toBe('http://127.0.0.1:8083');
    expect(apacheShop.origin_move).toEqual({ from: '127.0.0.1:8082', to: '127.0.0.1:8083', tls: false });
    // Its name-based neighbour on the same listener moves with it.
    expect(result.sites.find((s) => s.server === 'apache' && s.name === 'api.example.com')!.origin_move).toEqual(apacheShop.origin_move);
    expect(blog.listen[0]).toMatchObject({ port: 8443, tls: true });
    expect(result.sites.filter((s) => s.server === 'apache').map((s) => s.name)).toContain('api.example.com');
  });

  it('answers an empty list when neither server is installed', async () => {
    const handlers = websiteHandlers({ nginx: { command: '/nonexistent/nginx', args: ['-T'] }, apache: { command: '/nonexistent/apachectl', args: ['-S'] } });
    expect(await handlers['website.discover']()).toEqual({ sites: [] });
  });
});
