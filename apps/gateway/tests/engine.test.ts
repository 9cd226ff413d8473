import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as waf from '@rampart/waf';
import { gatewayConfigSchema } from '@rampart/contracts';
import { GatewayServers } from '../src/gateway-servers.ts';
import type { GatewayEvent } from '../src/inspector.ts';
import { loadInspector } from '../src/load-inspector.ts';
import { freePort, hasNginx, request, startEchoServer, startNginxOrigin, type NginxOrigin } from './harness/origin.ts';

// The real engine (@rampart/waf `inspect`, written in parallel) behind the gateway, when it is there.
const hasEngine = typeof (waf as { inspect?: unknown }).inspect === 'function';

describe.skipIf(!hasNginx || !hasEngine)('gateway with the real engine in front of nginx', () => {
  let echo: Awaited<ReturnType<typeof startEchoServer>>;
  let origin: NginxOrigin;
  let gateway: GatewayServers;
  let port: number;
  const events: GatewayEvent[] = [];

  beforeAll(async () => {
    echo = await startEchoServer();
    origin = await startNginxOrigin(echo.port);
    port = await freePort();
    gateway = new GatewayServers({ inspector: await loadInspector(undefined, () => {}), onEvent: (e) => events.push(e) });
    await gateway.apply(gatewayConfigSchema.parse({
      sites: [{ id: 'shop', name: 'Shop', status: 'on', listen: [{ address: '127.0.0.1', port }], upstreams: [{ url: `http://127.0.0.1:${origin.port}` }] }],
    }));
  });
  afterAll(async () => {
    await gateway?.drain(500);
    await origin?.stop();
    await echo?.close();
  });

  it('blocks a SQL injection with the default 403 and lets ordinary requests through untouched', async () => {
    const attack = await request({ host: '127.0.0.1', port, path: `/index.html?id=${encodeURIComponent("1' OR '1'='1' -- ")}` });
    expect(attack.status).toBe(403);
    expect(events.at(-1)?.decision).toMatchObject({ action: 'block', kind: 'sqli' });
    const page = await request({ host: '127.0.0.1', port, path: '/index.html?q=where%20to%20buy%20shoes' });
    expect(page.status).toBe(200);
    expect(String(page.body)).toBe('<h1>origin</h1>\n');
    const json = JSON.stringify({ title: 'Select the best option', body: 'We union our efforts and drop by later.' });
    const post = await request({ host: '127.0.0.1', port, path: '/echo', method: 'POST', body: json, headers: { 'content-type': 'application/json' } });
    expect(post.status).toBe(200);
    expect(String(post.body)).toBe(json);
  });
});
