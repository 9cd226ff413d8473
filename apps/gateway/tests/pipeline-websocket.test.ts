import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadInspector } from '../src/load-inspector.ts';
import { hasNginx, sha256 } from './harness/origin.ts';
import { browser, settings, siteHost, startPolicyGateway, type PolicyHarness } from './harness/policy-gateway.ts';

// WebSockets through the gateway with settings groups switched on: the real engine, the real nginx
// proxying the upgrade (proxy_set_header Upgrade/Connection) to the ws echo of the harness on
// loopback (nginx cannot echo frames itself).

/** CC protection, keyword libraries, header limits, cookie attributes, frame options and the lists, all on. */
const policyOn = () =>
  settings((s) => {
    s.protect.cc = { enabled: true, mode: 'strict', verification: 'redirect', per_minute: 5, block_minutes: 1 };
    s.sql.keywords.block = { enabled: true, rules: ['casino'] };
    s.sql.keywords.record = { enabled: true, rules: ['jackpot'] };
    s.sql.keywords.filter = { enabled: true, rules: ['poker==p*ker'] };
    s.request.limits = { url_bytes: 512, header_bytes: 4000, post_bytes: 1000, snapshot_bytes: 0 };
    s.request.header_rules = [{ id: 1, enabled: true, header: 'x-token', max_bytes: 10 }];
    s.base.cookie = { http_only: true, same_site: 'strict' };
    s.base.frame_options = { mode: 'sameorigin', domains: [] };
    s.lists.ip_black = { enabled: true, ips: ['192.0.2.66'], areas: [] };
    s.lists.url_black = { enabled: true, entries: ['/ws/private'] };
  });

type Opened = { ws: WebSocket; handshake: IncomingMessage };

/** Opens a WebSocket from `ip`; the handshake answer, or the status of a refusal. */
function connect(port: number, path: string, ip: string, headers: Record<string, string> = {}): Promise<Opened | { refused: number; answer: IncomingMessage }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers: { host: siteHost, 'user-agent': browser, 'x-forwarded-for': ip, ...headers } });
  return new Promise((resolve, reject) => {
    let handshake: IncomingMessage | undefined;
    ws.once('upgrade', (res) => (handshake = res));
    ws.once('open', () => resolve({ ws, handshake: handshake! }));
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve({ refused: res.statusCode ?? 0, answer: res });
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

async function open(port: number, path: string, ip: string, headers: Record<string, string> = {}): Promise<Opened> {
  const result = await connect(port, path, ip, headers);
  if ('refused' in result) throw new Error(`upgrade refused with ${result.refused}`);
  return result;
}

/** The next `count` messages on `ws`, in order. */
function messages(ws: WebSocket, count: number): Promise<{ data: Buffer; binary: boolean }[]> {
  const got: { data: Buffer; binary: boolean }[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${got.length} of ${count} messages came back`)), 5000);
    ws.on('message', (data: Buffer, binary) => {
      got.push({ data, binary });
      if (got.length === count) {
        clearTimeout(timer);
        resolve(got);
      }
    });
  });
}

function closed(ws: WebSocket): Promise<void> {
  return new Promise((r) => (ws.readyState === WebSocket.CLOSED ? r() : (ws.once('close', () => r()), ws.close())));
}

describe.skipIf(!hasNginx)('gateway pipeline: WebSocket pass-through with a policy on, through nginx', () => {
  let h: PolicyHarness;

  beforeAll(async () => {
    h = await startPolicyGateway(await loadInspector(undefined, () => {}));
  });
  afterAll(async () => {
    await h?.stop();
  });
  beforeEach(async () => {
    h.events.length = 0;
    await h.apply(policyOn());
  });

  /** nginx's access log lines that `keep` selects, once there are `count` of them (or after 3 s). */
  async function originLines(keep: (line: string) => boolean, count: number): Promise<string[]> {
    const until = Date.now() + 3000;
    for (;;) {
      const lines = h.originLog().filter(keep);
      if (lines.length >= count || Date.now() > until) return lines;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('upgrades, carries frames both ways intact, and counts the handshake, not the frames, as a request', async () => {
    const ip = '198.51.100.150';
    const { ws, handshake } = await open(h.port, '/ws/chat', ip, { 'x-token': 'short' });
    expect(handshake.statusCode).toBe(101);
    // The handshake's cookie gets the site's cookie attributes, as any answer's does.
    expect(handshake.headers['set-cookie']).toEqual(['ws_session=s1; Path=/ws; HttpOnly; SameSite=Strict']);
    // Frames are the application's stream, not requests or pages: keyword libraries neither block
    // nor rewrite them (rewriting would break the frame lengths the peers agreed on).
    const text = 'casino poker jackpot: 你好 ✓';
    const big = Buffer.alloc(200_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
    const small = Array.from({ length: 30 }, (_, i) => `frame ${i}`);
    const echoed = messages(ws, 2 + small.length);
    ws.send(text);
    ws.send(big);
    for (const m of small) ws.send(m);
    const got = await echoed;
    expect(got[0]).toEqual({ data: Buffer.from(text), binary: false });
    expect(got[1]!.binary).toBe(true);
    expect(got[1]!.data.length).toBe(big.length);
    expect(sha256(got[1]!.data)).toBe(sha256(big));
    expect(got.slice(2).map((m) => m.data.toString())).toEqual(small);
    await closed(ws);
    // 32 frames went by, yet the address has used 1 of its 5 requests a minute: more pass.
    for (let i = 0; i < 4; i++) expect((await h.get('/index.html', { ip })).status).toBe(200);
    expect(h.events).toEqual([]);
    expect(await originLines((line) => line.startsWith('GET /ws/chat '), 1)).toEqual(['GET /ws/chat 101']);
  });

  it('refuses an upgrade the lists, keywords, header limits or CC refuse before the origin hears of it; cookies of an origin refusal get the attributes', async () => {
    const refusal = async (path: string, ip: string, headers: Record<string, string> = {}) => {
      const r = await connect(h.port, path, ip, headers);
      if (!('refused' in r)) await closed(r.ws);
      return 'refused' in r ? r.refused : 101;
    };
    expect(await refusal('/ws/chat', '192.0.2.66')).toBe(403);
    expect(h.events.at(-1)).toMatchObject({ type: 'block', rule: 'lists.ip_black', client_ip: '192.0.2.66' });
    expect(await refusal('/ws/private', '198.51.100.151')).toBe(403);
    expect(h.events.at(-1)).toMatchObject({ rule: 'lists.url_black' });
    expect(await refusal('/ws/chat?room=Casino+Royale', '198.51.100.152')).toBe(403);
    expect(h.events.at(-1)).toMatchObject({ rule: 'sql.keywords.block', evidence: 'casino' });
    expect(await refusal('/ws/chat', '198.51.100.153', { 'x-token': 'much-too-long-token' })).toBe(403);
    expect(h.events.at(-1)).toMatchObject({ rule: 'request.header_rule', evidence: 'x-token' });
    expect(await refusal(`/ws/chat?q=${encodeURIComponent("1' OR '1'='1' -- ")}`, '198.51.100.154')).toBe(403);
    expect(h.events.at(-1)).toMatchObject({ kind: 'sqli' });
    // CC (strict): five upgrades a minute pass, the sixth is refused and the address intercepted.
    const ip = '198.51.100.155';
    for (let i = 0; i < 5; i++) expect(await refusal(`/ws/cc${i}`, ip)).toBe(101);
    expect(await refusal('/ws/cc5', ip)).toBe(403);
    expect(h.events.find((e) => e.type === 'intercept')).toMatchObject({ rule: 'protect.cc', intercept: { ip, reason: 'cc' } });
    // The refused handshakes never reached nginx; the allowed ones did (nginx logs a tunnel when it closes).
    const tunnels = await originLines((line) => line.includes(' /ws/') && !line.includes('/ws/chat '), 5);
    expect(tunnels.sort()).toEqual(Array.from({ length: 5 }, (_, i) => `GET /ws/cc${i} 101`));
    // An origin that answers the handshake with a page instead: the page's cookies get the attributes too.
    const page = await connect(h.port, '/cookie', '198.51.100.157');
    expect(page).toMatchObject({ refused: 200 });
    expect('answer' in page && page.answer.headers['set-cookie']).toEqual(['sid=abc123; Path=/; HttpOnly; SameSite=Strict', 'theme=dark; Path=/; Secure; HttpOnly; SameSite=Strict']);
    // A record rule lets the upgrade through and logs it.
    h.events.length = 0;
    expect(await refusal('/ws/chat?prize=jackpot', '198.51.100.156')).toBe(101);
    expect(h.events).toMatchObject([{ type: 'record', rule: 'sql.keywords.record', evidence: 'jackpot' }]);
  });
});
