import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayConfigSchema } from '@rampart/contracts';
import { GatewayServers } from '../src/gateway-servers.ts';
import { freePort, hasNginx, startEchoServer, startNginxOrigin, type NginxOrigin } from './harness/origin.ts';
import { inspector } from './harness/test-inspector.ts';

/** Writes `raw`, shuts the sending side (FIN, as shutdown(SHUT_WR) and `nc -q` do) and reads until the server closes. */
function sendThenHalfClose(port: number, raw: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, allowHalfOpen: true });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.setTimeout(8000, () => {
      socket.destroy();
      reject(new Error(`no end after 8 s; got ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 200))}`));
    });
    socket.once('connect', () => socket.end(raw));
  });
}

/** The body of one HTTP/1.1 answer, de-chunked when it is chunked. */
function bodyOf(answer: string): string {
  const split = answer.indexOf('\r\n\r\n');
  const head = answer.slice(0, split);
  let rest = answer.slice(split + 4);
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) return rest;
  let out = '';
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (!(size > 0)) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

describe.skipIf(!hasNginx)('a client that half-closes after its request (real nginx origin)', () => {
  let echo: Awaited<ReturnType<typeof startEchoServer>>;
  let origin: NginxOrigin;
  let gateway: GatewayServers;
  let port: number;

  beforeAll(async () => {
    echo = await startEchoServer();
    origin = await startNginxOrigin(echo.port);
    port = await freePort();
    gateway = new GatewayServers({ inspector, onEvent: () => {} });
    await gateway.apply(gatewayConfigSchema.parse({
      workers: 1,
      timeouts: { header_ms: 5000, idle_ms: 10_000, upstream_connect_ms: 1000, upstream_response_ms: 5000 },
      sites: [{ id: 'on', name: 'On', status: 'on', listen: [{ address: '127.0.0.1', port }], upstreams: [{ url: `http://127.0.0.1:${origin.port}` }] }],
    }));
  });
  afterAll(async () => {
    await gateway?.drain(1000);
    await origin?.stop();
    await echo?.close();
  });

  it('nginx itself answers such a client (the behaviour the gateway must match)', async () => {
    const answer = await sendThenHalfClose(origin.port, 'GET /index.html HTTP/1.1\r\nHost: site.test\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('<h1>origin</h1>');
  });

  it('gets the static page the origin serves', async () => {
    const answer = await sendThenHalfClose(port, 'GET /index.html HTTP/1.1\r\nHost: site.test\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('<h1>origin</h1>');
  });

  it('gets an answer the origin gives late (the FIN arrives long before it)', async () => {
    const answer = await sendThenHalfClose(port, 'GET /slow?ms=600 HTTP/1.1\r\nHost: site.test\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('slow done');
  });

  it('gets the echo of a POST body sent before the FIN', async () => {
    const body = 'x'.repeat(5000);
    const answer = await sendThenHalfClose(port, `POST /echo HTTP/1.1\r\nHost: site.test\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(bodyOf(answer)).toBe(body);
  });

  it('gets both answers of two pipelined requests, then the close', async () => {
    const answer = await sendThenHalfClose(port, 'GET /index.html?a=1 HTTP/1.1\r\nHost: site.test\r\n\r\nGET /slow?ms=200 HTTP/1.1\r\nHost: site.test\r\n\r\n');
    expect(answer.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    expect(answer).toContain('slow done');
  });
});
