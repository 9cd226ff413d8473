import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../src/config.ts';
import { planListeners } from '../src/site-runtime.ts';

const site = { id: 's1', name: 'Shop', status: 'on', listen: [{ address: '127.0.0.1', port: 8080 }], upstreams: [{ url: 'http://127.0.0.1:9000' }] };

describe('parseGatewayConfig', () => {
  it('accepts a minimal site and fills the defaults', () => {
    const r = parseGatewayConfig(JSON.stringify({ sites: [site] }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.workers).toBe(0);
    expect(r.config.sites[0]).toMatchObject({ preserve_host: true, inspect_body_kb: 1024, block_response: { type: 'standard', status: 403 } });
  });
  it('refuses broken JSON, bad upstreams, duplicate ids and mixed TLS on one port, with the reason', () => {
    expect(parseGatewayConfig('{').ok).toBe(false);
    const bad = parseGatewayConfig(JSON.stringify({ sites: [{ ...site, upstreams: [{ url: 'ftp://x' }] }] }));
    expect(bad.ok ? '' : bad.reason).toContain('upstream must be http(s)://host:port');
    const dup = parseGatewayConfig(JSON.stringify({ sites: [site, site] }));
    expect(dup.ok ? '' : dup.reason).toContain('duplicate site id');
  });
  it('refuses a certificate that does not load', () => {
    const tls = { cert: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' };
    const r = parseGatewayConfig(JSON.stringify({ sites: [{ ...site, listen: [{ address: '127.0.0.1', port: 8443, tls }] }] }));
    expect(r.ok ? '' : r.reason).toContain('does not load');
  });
  it('opens no listener for a stopped site and shares a port between sites', () => {
    const r = parseGatewayConfig(JSON.stringify({ sites: [site, { ...site, id: 's2', server_names: ['b.test'] }, { ...site, id: 's3', running: false, listen: [{ address: '127.0.0.1', port: 9090 }] }] }));
    if (!r.ok) throw new Error(r.reason);
    const plans = planListeners(r.config);
    expect(plans.map((p) => [p.key, p.sites.map((s) => s.site.id)])).toEqual([['127.0.0.1:8080', ['s1', 's2']]]);
    for (const p of plans) for (const s of p.sites) s.pool.destroy();
  });
});
