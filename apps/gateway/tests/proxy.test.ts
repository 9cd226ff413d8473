import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { gatewayConfigSchema, gatewaySiteSchema, type GatewayConfig } from '@rampart/contracts';
import { GatewayServers } from '../src/gateway-servers.ts';
import type { GatewayEvent } from '../src/inspector.ts';
import { freePort, hasNginx, makeCert, request, sha256, startEchoServer, startNginxOrigin, type NginxOrigin } from './harness/origin.ts';
import { calls, inspector } from './harness/test-inspector.ts';

// The inspector here is the test stand-in for the engine (see harness/test-inspector.ts).

describe.skipIf(!hasNginx)('gateway in front of a real nginx', () => {
  let echo: Awaited<ReturnType<typeof startEchoServer>>;
  let origin: NginxOrigin;
  let gateway: GatewayServers;
  const events: GatewayEvent[] = [];
  let port: number; // site "on"
  let offPort: number; // site "off"
  let trustPort: number; // site "on" behind a trusted proxy (127.0.0.1)

  const configFor = (extra: Partial<GatewayConfig> = {}): GatewayConfig => {
    const upstreams = [{ url: `http://127.0.0.1:${origin.port}` }];
    return gatewayConfigSchema.parse({
      workers: 1,
      timeouts: { header_ms: 5000, idle_ms: 10_000, upstream_connect_ms: 1000, upstream_response_ms: 3000 },
      sites: [
        { id: 'on', name: 'On', status: 'on', listen: [{ address: '127.0.0.1', port }], upstreams, inspect_body_kb: 4, via: true },
        { id: 'off', name: 'Off', status: 'off', listen: [{ address: '127.0.0.1', port: offPort }], upstreams },
        { id: 'trust', name: 'Behind CDN', status: 'on', listen: [{ address: '127.0.0.1', port: trustPort }], upstreams, trusted_proxies: ['127.0.0.0/8'],
          block_response: { type: 'detailed', status: 406, redirect_url: '', content: '' } },
      ],
      ...extra,
    });
  };

  beforeAll(async () => {
    echo = await startEchoServer();
    origin = await startNginxOrigin(echo.port);
    [port, offPort, trustPort] = [await freePort(), await freePort(), await freePort()];
    gateway = new GatewayServers({ inspector, onEvent: (e) => events.push(e) });
    await gateway.apply(configFor());
  });
  afterAll(async () => {
    await gateway?.drain(1000);
    await origin?.stop();
    await echo?.close();
  });
  beforeEach(() => {
    calls.length = 0;
    events.length = 0;
  });

  it('serves a static binary file byte-identical', async () => {
    const r = await request({ host: '127.0.0.1', port, path: '/bin.dat' });
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(origin.binary.length);
    expect(sha256(r.body)).toBe(sha256(origin.binary));
    expect(r.headers.via).toBe('1.1 rampart');
  });

  it('streams a POST body to the origin and back byte-identical', async () => {
    const body = Buffer.alloc(2 * 1024 * 1024 + 3);
    for (let i = 0; i < body.length; i++) body[i] = (i * 7919) % 251;
    const r = await request({ host: '127.0.0.1', port, path: '/echo', method: 'POST', body, headers: { 'content-type': 'application/octet-stream' } });
    expect(r.status).toBe(200);
    expect(sha256(r.body)).toBe(sha256(body));
    // The engine saw only the first inspect_body_kb (4 KiB) and was told the rest exists.
    expect(calls[0]?.body?.length).toBe(4096);
    expect(calls[0]?.bodyTruncated).toBe(true);
  });

  it('reuses upstream connections (keep-alive on both sides)', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const before = origin.accessLog().length;
    for (let i = 0; i < 30; i++) {
      const r = await request({ host: '127.0.0.1', port, path: `/index.html?ka=${i}`, agent });
      expect(r.status).toBe(200);
    }
    agent.destroy();
    const lines = origin.accessLog().slice(before).filter((l) => l.includes('?ka='));
    expect(lines).toHaveLength(30);
    const upstreamConnections = new Set(lines.map((l) => l.split(' ')[0]));
    expect(upstreamConnections.size).toBe(1);
  });

  it('strips hop-by-hop headers and adds forwarding headers', async () => {
    const r = await request({
      host: '127.0.0.1', port, path: '/echo', method: 'POST', body: 'x',
      headers: { Connection: 'keep-alive, X-Secret', 'X-Secret': 'hop', 'Keep-Alive': 'timeout=5', TE: 'trailers', 'Proxy-Authorization': 'Basic eA==', 'X-Forwarded-For': '6.6.6.6' },
    });
    const seen = JSON.parse(String(r.headers['x-echo-headers'])) as Record<string, string>;
    expect(seen['x-secret']).toBeUndefined();
    expect(seen['keep-alive']).toBeUndefined();
    expect(seen['proxy-authorization']).toBeUndefined();
    // Appended by the gateway (peer 127.0.0.1), then by nginx? No: nginx passes it as is.
    expect(seen['x-forwarded-for']).toBe('6.6.6.6, 127.0.0.1');
    expect(seen['x-real-ip']).toBe('127.0.0.1'); // untrusted peer: its own X-Forwarded-For is not believed
    expect(seen['x-forwarded-proto']).toBe('http');
    expect(seen.via).toBe('1.1 rampart');
  });

  it('believes X-Forwarded-For from a trusted proxy (rightmost untrusted)', async () => {
    const r = await request({ host: '127.0.0.1', port: trustPort, path: '/echo', method: 'POST', body: 'x', headers: { 'X-Forwarded-For': '1.2.3.4, 198.51.100.9' } });
    const seen = JSON.parse(String(r.headers['x-echo-headers'])) as Record<string, string>;
    expect(calls[0]?.clientIp).toBe('198.51.100.9');
    expect(seen['x-real-ip']).toBe('198.51.100.9');
    expect(seen['x-forwarded-for']).toBe('1.2.3.4, 198.51.100.9, 127.0.0.1');
  });

  it('blocks with the configured response; the origin never sees the request; the block is reported', async () => {
    const seenBefore = echo.seen.length;
    const logBefore = origin.accessLog().length;
    const r = await request({ host: '127.0.0.1', port, path: '/echo?q=attack-marker', method: 'POST', body: 'x' });
    expect(r.status).toBe(403);
    expect(String(r.body)).toContain('blocked by the website firewall');
    const detailed = await request({ host: '127.0.0.1', port: trustPort, path: '/index.html', headers: { 'x-test-block': '1', 'X-Forwarded-For': '203.0.113.8' } });
    expect(detailed.status).toBe(406);
    expect(String(detailed.body)).toContain('test.header');
    const inBody = await request({ host: '127.0.0.1', port, path: '/echo', method: 'POST', body: 'a=1&b=EVIL-BODY' });
    expect(inBody.status).toBe(403);
    expect(echo.seen.length).toBe(seenBefore);
    expect(origin.accessLog().length).toBe(logBefore);
    expect(events.map((e) => [e.type, e.siteId, e.decision.action === 'block' ? e.decision.rule : '', e.clientIp])).toEqual([
      ['website.block', 'on', 'test.query', '127.0.0.1'],
      ['website.block', 'trust', 'test.header', '203.0.113.8'],
      ['website.block', 'on', 'test.body', '127.0.0.1'],
    ]);
  });

  it('passes a marker that lies beyond the inspected part of the body (documented limit)', async () => {
    const body = 'a'.repeat(8192) + 'EVIL-BODY';
    const r = await request({ host: '127.0.0.1', port, path: '/echo', method: 'POST', body });
    expect(r.status).toBe(200);
    expect(String(r.body)).toBe(body);
  });

  it('passes everything uninspected when the site is off', async () => {
    const r = await request({ host: '127.0.0.1', port: offPort, path: '/echo?q=attack-marker', method: 'POST', body: 'EVIL-BODY', headers: { 'x-test-block': '1' } });
    expect(r.status).toBe(200);
    expect(String(r.body)).toBe('EVIL-BODY');
    expect(calls).toHaveLength(0);
    expect(events).toHaveLength(0);
  });

  it('passes WebSocket frames both ways, through the gateway and nginx', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
    const received: { data: Buffer; binary: boolean }[] = [];
    ws.on('message', (data: Buffer, binary) => received.push({ data, binary }));
    const big = Buffer.alloc(200_000, 7);
    ws.send('hello');
    ws.send(big);
    await new Promise<void>((r) => { const t = setInterval(() => received.length >= 2 && (clearInterval(t), r()), 20); });
    expect(String(received[0]?.data)).toBe('hello');
    expect(received[1]?.binary).toBe(true);
    expect(sha256(received[1]?.data ?? Buffer.alloc(0))).toBe(sha256(big));
    ws.close();
    // An upgrade is inspected on its head too.
    const blocked = new WebSocket(`ws://127.0.0.1:${port}/ws?x=attack-marker`);
    const status = await new Promise<number>((resolve) => blocked.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)).once('error', () => resolve(-1)));
    expect(status).toBe(403);
  });

  it('answers pipelined requests in order on one connection', async () => {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.write('GET /slow?ms=300 HTTP/1.1\r\nHost: a\r\n\r\nGET /index.html HTTP/1.1\r\nHost: a\r\n\r\nGET /echo?attack-marker HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    await new Promise<void>((r) => socket.once('close', () => r()));
    const slow = text.indexOf('slow done');
    const index = text.indexOf('<h1>origin</h1>');
    const blocked = text.indexOf('HTTP/1.1 403');
    expect(slow).toBeGreaterThan(0);
    expect(index).toBeGreaterThan(slow);
    expect(blocked).toBeGreaterThan(index);
  });

  it('answers 502 when the origin is down, 504 when it is too slow, and skips a dead origin', async () => {
    const dead = await freePort();
    const deadPort = await freePort();
    const twoPort = await freePort();
    await gateway.apply(configFor({ sites: [
      ...configFor().sites,
      gatewaySiteSchema.parse({ id: 'dead', name: 'Dead', status: 'on', listen: [{ address: '127.0.0.1', port: deadPort }], upstreams: [{ url: `http://127.0.0.1:${dead}` }] }),
      gatewaySiteSchema.parse({ id: 'two', name: 'Two', status: 'on', listen: [{ address: '127.0.0.1', port: twoPort }],
        upstreams: [{ url: `http://127.0.0.1:${dead}` }, { url: `http://127.0.0.1:${origin.port}` }] }),
    ] }));
    const down = await request({ host: '127.0.0.1', port: deadPort, path: '/' });
    expect(down.status).toBe(502);
    expect(String(down.body)).toContain('502 Bad Gateway');
    const slow = await request({ host: '127.0.0.1', port, path: '/slow?ms=5000' });
    expect(slow.status).toBe(504);
    for (let i = 0; i < 10; i++) expect((await request({ host: '127.0.0.1', port: twoPort, path: '/index.html' })).status).toBe(200);
    await gateway.apply(configFor());
  });

  it('serves TLS with SNI choosing the certificate by server name', async () => {
    const tlsPort = await freePort();
    const a = makeCert('a.test');
    const b = makeCert('b.test');
    const upstreams = [{ url: `http://127.0.0.1:${origin.port}` }];
    await gateway.apply(configFor({ sites: [
      ...configFor().sites,
      gatewaySiteSchema.parse({ id: 'a', name: 'A', status: 'on', server_names: ['a.test'], listen: [{ address: '127.0.0.1', port: tlsPort, tls: a }], upstreams }),
      gatewaySiteSchema.parse({ id: 'b', name: 'B', status: 'on', server_names: ['b.test'], listen: [{ address: '127.0.0.1', port: tlsPort, tls: b }], upstreams }),
    ] }));
    const peerCn = (servername: string) => new Promise<string>((resolve, reject) => {
      const s = tls.connect({ host: '127.0.0.1', port: tlsPort, servername, rejectUnauthorized: false }, () => {
        resolve(String(s.getPeerCertificate().subject.CN));
        s.end();
      });
      s.on('error', reject);
    });
    expect(await peerCn('a.test')).toBe('a.test');
    expect(await peerCn('b.test')).toBe('b.test');
    const body = await new Promise<string>((resolve, reject) => {
      https.get({ host: '127.0.0.1', port: tlsPort, path: '/echo', servername: 'b.test', headers: { host: 'b.test' }, ca: b.cert, checkServerIdentity: () => undefined }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(String(res.headers['x-echo-headers'])));
      }).on('error', reject);
    });
    expect(JSON.parse(body)['x-forwarded-proto']).toBe('https');
    await gateway.apply(configFor());
  });

  it('closes a connection whose request head does not arrive in time (slowloris)', async () => {
    const slowPort = await freePort();
    const slowGateway = new GatewayServers({ inspector, onEvent: () => {} });
    await slowGateway.apply(gatewayConfigSchema.parse({
      timeouts: { header_ms: 600 },
      sites: [{ id: 's', name: 'S', status: 'on', listen: [{ address: '127.0.0.1', port: slowPort }], upstreams: [{ url: `http://127.0.0.1:${origin.port}` }] }],
    }));
    const socket = net.connect(slowPort, '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    socket.write('GET / HTTP/1.1\r\nHost: a\r\nX-Slow: ');
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString()));
    const started = Date.now();
    await new Promise<void>((r) => socket.once('close', () => r()));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    await slowGateway.drain(100);
  });

  const rawExchange = (wire: string | Buffer, to = port) => new Promise<string>((resolve, reject) => {
    const socket = net.connect(to, '127.0.0.1', () => socket.write(wire));
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
  const statusLine = (answer: string) => answer.split('\r\n', 1)[0];

  it('refuses a request the HTTP parser cannot read with the site\'s block response and records it; never forwards it', async () => {
    const unknownMethod = await rawExchange('CUST /x?a=1 HTTP/1.1\r\nHost: a\r\n\r\n');
    expect(statusLine(unknownMethod)).toBe('HTTP/1.1 403 Forbidden');
    expect(unknownMethod).toContain('blocked by the website firewall');
    expect(unknownMethod).toMatch(/\r\nconnection: close\r\n/i);
    // A body longer than its Content-Length whose rest is no request (a smuggling attempt), and a
    // header line without a colon.
    const smuggled = 'POST /form HTTP/1.1\r\nHost: a\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbarGET /admin HTTP/1.1\r\n\r\n';
    expect(statusLine(await rawExchange(smuggled))).toBe('HTTP/1.1 403 Forbidden');
    expect(statusLine(await rawExchange('GET / HTTP/1.1\r\nHost: a\r\nNo colon here\r\n\r\n'))).toBe('HTTP/1.1 403 Forbidden');
    expect(events.map((e) => [e.type, e.siteId, e.decision.action === 'block' && e.decision.rule])).toEqual([
      ['website.block', 'on', 'protocol.unparseable'],
      ['website.block', 'on', 'protocol.unparseable'],
      ['website.block', 'on', 'protocol.unparseable'],
    ]);
    const first = events[0]!;
    expect([first.method, first.target, first.host]).toEqual(['CUST', '/x?a=1', 'a']);
    expect(events.map((e) => e.decision.action === 'block' && e.decision.evidence)).toEqual([
      String.raw`HPE_INVALID_METHOD at "CUST /x?a=1 HTTP/1.1\r\nHost: a\r\n\r\n"`,
      String.raw`HPE_CLOSED_CONNECTION at "barGET /admin HTTP/1.1\r\n\r\n"`,
      String.raw`HPE_INVALID_HEADER_TOKEN at "No colon here\r\n\r\n"`,
    ]);
    // Only the well-formed request in front of the smuggled bytes reached the engine; the
    // listener still serves the next client.
    expect(calls.map((c) => `${c.method} ${c.target}`)).toEqual(['POST /form']);
    expect((await request({ host: '127.0.0.1', port, path: '/index.html' })).status).toBe(200);
  });

  it('cuts the connection, writing nothing into it, when the request turns unreadable while its answer streams back', async () => {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    // A chunked upload past the engine's window (4 KiB here): /echo starts answering while it streams.
    const chunk = 'x'.repeat(8192);
    socket.write(`POST /echo HTTP/1.1\r\nHost: a\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const deadline = Date.now() + 5000;
    while (!answer.includes('\r\n\r\n') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    // Then a chunk size that is no number: the parser's error arrives with the 200 half written.
    socket.write('zz\r\n');
    await closed;
    expect(answer.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(answer).not.toContain('blocked by the website firewall');
    expect(events).toHaveLength(0);
  });

  it('answers with the site\'s own block response (detailed 406 here) for a site behind a CDN, naming the forwarded client', async () => {
    const answer = await rawExchange('CUST / HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: 203.0.113.9\r\n\r\n', trustPort);
    expect(statusLine(answer)).toBe('HTTP/1.1 406 Not Acceptable');
    expect(answer).toContain('protocol.unparseable');
    expect(events.map((e) => [e.siteId, e.clientIp])).toEqual([['trust', '203.0.113.9']]);
  });

  it('keeps the parser\'s own answer, unrecorded, for limits, a TLS handshake on a plain port, and a site with status off', async () => {
    expect(statusLine(await rawExchange(`GET / HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`))).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(statusLine(await rawExchange(Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03])))).toBe('HTTP/1.1 501 Not Implemented');
    expect(statusLine(await rawExchange('CUST / HTTP/1.1\r\nHost: a\r\n\r\n', offPort))).toBe('HTTP/1.1 501 Not Implemented');
    expect(statusLine(await rawExchange('GET / HTTP/1.1\r\nHost: a\r\nNo colon here\r\n\r\n', offPort))).toBe('HTTP/1.1 400 Bad Request');
    expect(events).toHaveLength(0);
    expect(calls).toHaveLength(0);
  });

  it('reports a record decision and lets the request through', async () => {
    const r = await request({ host: '127.0.0.1', port, path: '/index.html', headers: { 'x-test-record': '1' } });
    expect(r.status).toBe(200);
    expect(events.map((e) => [e.type, e.decision.action])).toEqual([['website.record', 'record']]);
  });

  it('handles Expect: 100-continue (the gateway answers the 100, the body follows)', async () => {
    const body = Buffer.alloc(100_000, 65);
    const answer = await new Promise<{ status: number; text: string; continued: boolean }>((resolve, reject) => {
      let continued = false;
      const req = http.request({ host: '127.0.0.1', port, path: '/echo', method: 'POST', headers: { expect: '100-continue', 'content-length': body.length } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, continued }));
      });
      req.on('continue', () => {
        continued = true;
        req.end(body);
      });
      req.on('error', reject);
    });
    expect(answer.continued).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(body.toString());
  });

  it('forwards to an https origin', async () => {
    const cert = makeCert('origin.test');
    const tlsOrigin = https.createServer(cert, (req, res) => res.end(`tls origin saw ${req.headers.host} ${req.headers['x-forwarded-proto']}`));
    await new Promise<void>((r) => tlsOrigin.listen(0, '127.0.0.1', r));
    const originPort = (tlsOrigin.address() as net.AddressInfo).port;
    const sitePort = await freePort();
    await gateway.apply(configFor({ sites: [...configFor().sites, gatewaySiteSchema.parse({
      id: 'tls-origin', name: 'TLS origin', status: 'on', preserve_host: false, listen: [{ address: '127.0.0.1', port: sitePort }], upstreams: [{ url: `https://127.0.0.1:${originPort}` }],
    })] }));
    const r = await request({ host: '127.0.0.1', port: sitePort, path: '/' });
    expect(String(r.body)).toBe(`tls origin saw 127.0.0.1:${originPort} http`);
    await gateway.apply(configFor());
    tlsOrigin.closeAllConnections();
    await new Promise<void>((r2) => tlsOrigin.close(() => r2()));
  });

  it('answers a blocked large upload with the block page, not a reset', async () => {
    const seenBefore = echo.seen.length;
    const total = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024, 120);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/sink', method: 'POST', headers: { 'content-length': total } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write('EVIL-BODY');
      let sent = 9;
      const pump = () => {
        while (sent < total) {
          const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
          sent += piece.length;
          if (!req.write(piece)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('blocked');
    expect(echo.seen.length).toBe(seenBefore);
  });
});
