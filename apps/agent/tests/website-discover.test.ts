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
    });
    const result = websiteDiscoverySchema.parse(await handlers['website.discover']());
    const shop = result.sites.find((s) => s.server === 'nginx' && s.name === 'shop.example.com')!;
    expect(shop).toMatchObject({ server_names: ['shop.example.com', 'www.shop.example.com'], upstream_hint: 'http://127.0.0.1:3000' });
    expect(shop.listen[0]).toEqual({ address: '127.0.0.1', port: 8081, tls: false });
    expect(shop.source).toMatch(/nginx\.conf:\d+$/);
    // `proxy_pass http://blog_backend` is resolved to the upstream block's first server by the parser.
    const blog = result.sites.find((s) => s.server === 'nginx' && s.name === 'blog.example.org')!;
    expect(blog.upstream_hint).toBe('http://127.0.0.1:4000');
    // A site that serves files itself: the web server on loopback becomes the origin.
    const apacheShop = result.sites.find((s) => s.server === 'apache' && s.name === 'shop.example.com')!;
    expect(apacheShop.upstream_hint).toBe('http://127.0.0.1:8082');
    expect(blog.listen[0]).toMatchObject({ port: 8443, tls: true });
    expect(result.sites.filter((s) => s.server === 'apache').map((s) => s.name)).toContain('api.example.com');
  });

  it('answers an empty list when neither server is installed', async () => {
    const handlers = websiteHandlers({ nginx: { command: '/nonexistent/nginx', args: ['-T'] }, apache: { command: '/nonexistent/apachectl', args: ['-S'] } });
    expect(await handlers['website.discover']()).toEqual({ sites: [] });
  });
});
