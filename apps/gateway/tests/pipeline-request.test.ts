import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadInspector } from '../src/load-inspector.ts';
import http from 'node:http';
import { hasNginx, request, sha256 } from './harness/origin.ts';
import { browser, settings, siteHost, startPolicyGateway, windowNotNow, type PolicyHarness } from './harness/policy-gateway.ts';

// The real engine behind the gateway, the policy's settings groups in front of it, real nginx behind.

function multipart(fileName: string): { body: string; type: string } {
  const boundary = 'rampartboundary42';
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nholiday\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\nplain bytes\r\n--${boundary}--\r\n`;
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

const uploadBoundary = '----rampartUpload7';
const textPart = (name: string, value: string) => Buffer.from(`--${uploadBoundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
const filePart = (name: string, fileName: string, content: Buffer) =>
  Buffer.concat([Buffer.from(`--${uploadBoundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`), content, Buffer.from('\r\n')]);
const multipartOf = (parts: Buffer[]) => ({ body: Buffer.concat([...parts, Buffer.from(`--${uploadBoundary}--\r\n`)]), type: `multipart/form-data; boundary=${uploadBoundary}` });

describe.skipIf(!hasNginx)('gateway pipeline: request, protect, injection, response and base tabs through nginx', () => {
  let h: PolicyHarness;

  beforeAll(async () => {
    h = await startPolicyGateway(await loadInspector(undefined, () => {}));
  });
  afterAll(async () => {
    await h?.stop();
  });
  beforeEach(async () => {
    h.events.length = 0;
    h.legacy.length = 0;
    await h.apply(settings());
  });

  const lastEvent = () => h.events.at(-1);

  it('passes legitimate traffic byte-identical with a policy present', async () => {
    const page = await h.get('/index.html?q=where%20to%20buy%20shoes');
    expect(page.status).toBe(200);
    expect(page.text).toBe('<h1>origin</h1>\n');
    expect(page.headers['x-frame-options']).toBeUndefined();
    const big = await h.get('/big.txt');
    expect(big.body.length).toBe(3 * 1024 * 1024);
    expect(sha256(big.body)).toBe(sha256(Buffer.alloc(3 * 1024 * 1024, 'casino ')));
    const json = JSON.stringify({ title: 'Select the best option', body: 'We union our efforts and drop by later.' });
    const post = await h.get('/echo', { method: 'POST', body: json, headers: { 'content-type': 'application/json' } });
    expect(post.status).toBe(200);
    expect(post.text).toBe(json);
    expect(h.events).toEqual([]);
  });

  it('refuses denied request methods (request tab)', async () => {
    // Not denied by default: nginx answers DELETE on a static file itself (405), so it got there.
    expect((await h.get('/index.html', { method: 'DELETE' })).status).toBe(405);
    await h.apply(settings((s) => (s.request.denied_methods = ['DELETE'])));
    const r = await h.get('/index.html', { method: 'DELETE' });
    expect(r.status).toBe(403);
    expect(lastEvent()).toMatchObject({ type: 'block', rule: 'request.method', kind: 'policy', site_id: 'shop', client_ip: '198.51.100.1', method: 'DELETE' });
  });

  it('enforces the URL, header and POST size limits (0 = unlimited)', async () => {
    const longQuery = `/index.html?q=${'a'.repeat(80)}`;
    expect((await h.get(longQuery)).status).toBe(200);
    await h.apply(settings((s) => (s.request.limits = { url_bytes: 64, header_bytes: 2000, post_bytes: 100, snapshot_bytes: 0 })));
    expect((await h.get(longQuery)).status).toBe(403);
    expect(lastEvent()?.rule).toBe('request.url_length');
    expect((await h.get('/index.html?q=short')).status).toBe(200);
    expect((await h.get('/index.html', { headers: { 'x-pad': 'p'.repeat(2500) } })).status).toBe(403);
    expect(lastEvent()?.rule).toBe('request.header_length');
    expect((await h.get('/echo', { method: 'POST', body: 'b'.repeat(101) })).status).toBe(403);
    expect(lastEvent()?.rule).toBe('request.post_size');
    const small = await h.get('/echo', { method: 'POST', body: 'b'.repeat(100) });
    expect(small.status).toBe(200);
    expect(small.text).toBe('b'.repeat(100));
  });

  it('enforces the POST size on a chunked body longer than the inspected head, while it streams', async () => {
    await h.apply(settings((s) => (s.request.limits.post_bytes = 5000)), { inspect_body_kb: 1 });
    const chunked = { 'transfer-encoding': 'chunked', 'content-type': 'application/octet-stream' };
    const fits = await h.get('/echo', { method: 'POST', body: 'c'.repeat(4000), headers: chunked });
    expect(fits.status).toBe(200);
    expect(fits.text).toBe('c'.repeat(4000));
    const over = await h.get('/echo', { method: 'POST', body: 'c'.repeat(10_000), headers: chunked });
    expect(over.status).toBe(403);
    expect(lastEvent()).toMatchObject({ type: 'block', rule: 'request.post_size' });
  });

  it('reads a form body to 1 MiB by default, and refuses in strict a form body longer than what it read', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // An attack after 300 KB of padding: inside the default window (inspect_body_kb 1024), so seen.
    const padded = `note=${'a'.repeat(300 * 1024)}&q=${encodeURIComponent("1' union select password from users--")}`;
    expect((await h.get('/echo', { method: 'POST', body: padded, headers: form })).status).toBe(403);
    expect(lastEvent()).toMatchObject({ type: 'block', kind: 'sqli' });
    // A window of 64 KiB: a 100 KB form passes in loose (recorded), is refused in strict.
    const long = `note=${'lorem ipsum '.repeat(100 * 1024 / 12)}`;
    await h.apply(settings(), { inspect_body_kb: 64 });
    const loose = await h.get('/echo', { method: 'POST', body: long, headers: form });
    expect(loose.status).toBe(200);
    expect(loose.text).toBe(long);
    await h.apply(settings(), { inspect_body_kb: 64, block_mode: 'strict' });
    expect((await h.get('/echo', { method: 'POST', body: long, headers: form })).status).toBe(403);
    expect(lastEvent()).toMatchObject({ type: 'block', rule: 'protocol.body_beyond_inspection' });
  });

  it('judges the parts of an upload streaming past the window before the origin has the whole body', async () => {
    // The web-shell scan of uploads (its own tests: upload-scan*.test.ts) is off: it would refuse shell.php first.
    await h.apply(settings((s) => {
      s.request.upload = { enabled: true, types: 'mp4,jpg' };
      s.request.upload_scan = { enabled: false };
    }), { inspect_body_kb: 64 });
    const video = filePart('video', 'clip.mp4', Buffer.alloc(300 * 1024, 7));
    const send = async (label: string, parts: Buffer[], headers: Record<string, string> = {}) => {
      const form = multipartOf(parts);
      const r = await h.get(`/sink?case=${label}`, { method: 'POST', body: form.body, headers: { 'content-type': form.type, ...headers } });
      return { ...r, sent: form.body };
    };
    // Ordinary: the title after the video reaches the origin byte for byte, with or without a length.
    const framings: Record<string, string>[] = [{}, { 'transfer-encoding': 'chunked' }];
    for (const headers of framings) {
      const ok = await send('ok', [video, textPart('title', 'Holiday in Crete, day 2')], headers);
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.text)).toEqual({ bytes: ok.sent.length, sha256: sha256(ok.sent) });
    }
    // A text field after the video, a second file of a refused type after it: refused, with or without a length.
    for (const headers of framings) {
      expect((await send('sqli', [video, textPart('title', "1' union select password from users--")], headers)).status).toBe(403);
      expect(lastEvent()).toMatchObject({ type: 'block', kind: 'sqli' });
      expect((await send('shell', [video, filePart('extra', 'shell.php', Buffer.from('<?php system($_GET[1]); ?>'))], headers)).status).toBe(403);
      expect(lastEvent()).toMatchObject({ type: 'block', rule: 'request.upload_type', evidence: 'shell.php' });
    }
    // The origin had the refused requests begin, never end: nginx logs them as cut short by the client.
    const log = h.originLog().filter((l) => l.startsWith('POST /sink'));
    expect(log.filter((l) => l === 'POST /sink?case=ok 200')).toHaveLength(2);
    const refused = log.filter((l) => l.includes('case=sqli') || l.includes('case=shell'));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.filter((l) => l.endsWith(' 200'))).toEqual([]);
    // Strict: a long text field the window cuts is read on as it streams, so it is not refused as unread.
    await h.apply(settings(), { inspect_body_kb: 64, block_mode: 'strict' });
    const story = await send('story', [textPart('story', 'The harbour at dawn, the boats coming in. '.repeat(3000)), textPart('title', 'Crete')]);
    expect(story.status).toBe(200);
    expect(JSON.parse(story.text)).toEqual({ bytes: story.sent.length, sha256: sha256(story.sent) });
  });

  it('an origin that answers while the upload still streams: a refusal past the window cuts its answer off', async () => {
    await h.apply(settings(), { inspect_body_kb: 64 });
    const form = multipartOf([filePart('video', 'clip.mp4', Buffer.alloc(300 * 1024, 7)), textPart('title', "1' union select password from users--")]);
    // /echo answers as the body comes: its 200 may reach the gateway before the verdict. Then the
    // answer is cut off (the client sees an error); if not, the client gets the block page.
    const outcome = await h.get('/echo', { method: 'POST', body: form.body, headers: { 'content-type': form.type } }).then(
      (r) => r.status,
      () => 'cut off',
    );
    expect([403, 'cut off']).toContain(outcome);
    expect(lastEvent()).toMatchObject({ type: 'block', kind: 'sqli' });
    expect((await h.get('/index.html')).status).toBe(200);
  });

  it('reads as much of a body as the window holds when the window is raised past 1 MiB', async () => {
    const json = { 'content-type': 'application/json' };
    // An API posting an image inline, the attack in a field after it: 1.5 MB of JSON.
    const body = JSON.stringify({ image: 'iVBORw0KGgo'.repeat(140_000), note: "1' union select password from users--" });
    // The default window (1 MiB): loose lets the unread rest through and records that it did.
    const unread = await h.get('/echo', { method: 'POST', body, headers: json });
    expect(unread.status).toBe(200);
    expect(lastEvent()).toMatchObject({ type: 'record', rule: 'protocol.body_beyond_inspection' });
    // Raised to 2 MiB: the engine reads it all and finds the attack.
    await h.apply(settings(), { inspect_body_kb: 2048 });
    expect((await h.get('/echo', { method: 'POST', body, headers: json })).status).toBe(403);
    expect(lastEvent()).toMatchObject({ type: 'block', kind: 'sqli' });
    const clean = JSON.stringify({ image: 'iVBORw0KGgo'.repeat(140_000), note: 'Our holiday, day 2' });
    const passed = await h.get('/echo', { method: 'POST', body: clean, headers: json });
    expect(passed.status).toBe(200);
    expect(passed.text).toBe(clean);
  });

  it('applies HTTP header limit rules, only the enabled ones', async () => {
    const rule = { id: 1, enabled: true, header: 'x-token', max_bytes: 10 };
    await h.apply(settings((s) => (s.request.header_rules = [rule, { id: 2, enabled: false, header: '*', max_bytes: 1 }])));
    expect((await h.get('/index.html', { headers: { 'x-token': 'abcdefghijk' } })).status).toBe(403);
    expect(lastEvent()).toMatchObject({ rule: 'request.header_rule', evidence: 'x-token' });
    expect((await h.get('/index.html', { headers: { 'x-token': 'abcdefghij' } })).status).toBe(200);
  });

  it('file types: deny in the root folder or everywhere, allow mode refusing the unlisted', async () => {
    const first = await h.get('/backup.csv');
    expect(first.status, JSON.stringify(h.events)).toBe(200);
    await h.apply(settings((s) => (s.request.file_types = { enabled: true, mode: 'deny', scope: 'root', extensions: ['csv'] })));
    expect((await h.get('/backup.csv')).status).toBe(403);
    expect(lastEvent()).toMatchObject({ rule: 'request.file_type', evidence: 'csv' });
    expect((await h.get('/admin/old.csv')).status).toBe(200);
    await h.apply(settings((s) => (s.request.file_types = { enabled: true, mode: 'deny', scope: 'all', extensions: ['csv'] })));
    expect((await h.get('/admin/old.csv')).status).toBe(403);
    await h.apply(settings((s) => (s.request.file_types = { enabled: true, mode: 'allow', scope: 'all', extensions: ['html'] })));
    expect((await h.get('/report.txt')).status).toBe(403);
    expect((await h.get('/index.html')).status).toBe(200);
    expect((await h.get('/admin/')).status).toBe(200); // a folder is not a file type
  });

  it('upload types: a listed extension passes, another is refused', async () => {
    await h.apply(settings((s) => (s.request.upload = { enabled: true, types: 'jpg,png' })));
    const bad = multipart('shell.php');
    expect((await h.get('/echo', { method: 'POST', body: bad.body, headers: { 'content-type': bad.type } })).status).toBe(403);
    expect(lastEvent()).toMatchObject({ rule: 'request.upload_type', evidence: 'shell.php' });
    const good = multipart('holiday.png');
    const r = await h.get('/echo', { method: 'POST', body: good.body, headers: { 'content-type': good.type } });
    expect(r.status).toBe(200);
    expect(r.text).toBe(good.body);
    await h.apply(settings((s) => (s.request.upload = { enabled: true, types: '' })));
    expect((await h.get('/echo', { method: 'POST', body: good.body, headers: { 'content-type': good.type } })).status).toBe(403);
  });

  it('hotlinking: foreign referers refused, own site and whitelist allowed, empty referer as set', async () => {
    await h.apply(settings((s) => (s.protect.hotlink = { enabled: true, extensions: ['png'], referers: ['friend.example'], empty_referer: 'allow' })));
    expect((await h.get('/img/logo.png', { headers: { referer: 'http://evil.example/page' } })).status).toBe(403);
    expect(lastEvent()?.rule).toBe('protect.hotlink');
    expect((await h.get('/img/logo.png', { headers: { referer: 'https://cdn.friend.example/a' } })).status).toBe(200);
    expect((await h.get('/img/logo.png', { headers: { referer: 'http://shop.example/index.html' } })).status).toBe(200);
    expect((await h.get('/img/logo.png')).status).toBe(200);
    expect((await h.get('/index.html', { headers: { referer: 'http://evil.example/' } })).status).toBe(200);
    await h.apply(settings((s) => (s.protect.hotlink = { enabled: true, extensions: ['png'], referers: [], empty_referer: 'deny' })));
    expect((await h.get('/img/logo.png')).status).toBe(403);
  });

  it('time-limited access: the URL is refused outside its windows, open inside them', async () => {
    await h.apply(settings((s) => (s.protect.time_limits = [{ id: 1, enabled: true, url: '/admin', windows: [windowNotNow()] }])));
    expect((await h.get('/admin/')).status).toBe(403);
    expect(lastEvent()?.rule).toBe('protect.time_limit');
    expect((await h.get('/index.html')).status).toBe(200);
    await h.apply(settings((s) => (s.protect.time_limits = [{ id: 1, enabled: true, url: '/admin', windows: [{ start: '00:00', end: '24:00' }] }])));
    expect((await h.get('/admin/')).status).toBe(200);
  });

  it('block and record keyword libraries (++ and --)', async () => {
    await h.apply(settings((s) => {
      s.sql.keywords.block = { enabled: true, rules: ['casino++poker', 'lottery--lottery results'] };
      s.sql.keywords.record = { enabled: true, rules: ['bonus'] };
    }));
    expect((await h.get('/index.html?q=poker%20at%20the%20Casino')).status).toBe(403);
    expect(lastEvent()).toMatchObject({ type: 'block', rule: 'sql.keywords.block', evidence: 'casino++poker' });
    expect((await h.get('/index.html?q=casino')).status).toBe(200);
    expect((await h.get('/index.html?q=lottery%20results%20today')).status).toBe(200);
    expect((await h.get('/index.html?q=lottery')).status).toBe(403);
    const form = await h.get('/echo', { method: 'POST', body: 'msg=casino+and+poker', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(403);
    h.events.length = 0;
    const recorded = await h.get('/index.html?q=welcome%20bonus');
    expect(recorded.status).toBe(200);
    expect(h.events).toHaveLength(1);
    expect(h.events[0]).toMatchObject({ type: 'record', rule: 'sql.keywords.record', kind: 'policy', evidence: 'bonus' });
  });

  it("records a detector's doubtful finding in loose mode under its attack kind", async () => {
    // An ORM lookup reaching a secret field: suspicious only, so loose forwards and records it.
    const recorded = await h.get('/index.html?owner__api_token__gt=a');
    expect(recorded.status).toBe(200);
    expect(h.events).toMatchObject([{ type: 'record', rule: 'orm.secret_lookup', kind: 'sqli' }]);
  });

  it('keyword libraries read + as a space in the query and in form bodies, %2B as a plus', async () => {
    await h.apply(settings((s) => {
      s.sql.keywords.block = { enabled: true, rules: ['free money'] };
      s.sql.keywords.record = { enabled: true, rules: ['big win'] };
    }));
    // A search box sends what the visitor typed, spaces as `+`.
    expect((await h.get('/index.html?q=free+money')).status).toBe(403);
    expect(lastEvent()).toMatchObject({ type: 'block', rule: 'sql.keywords.block', evidence: 'free money' });
    expect((await h.get('/index.html?q=Free+Money+now')).status).toBe(403);
    // A typed plus is sent as %2B: not a space.
    expect((await h.get('/index.html?q=free%2Bmoney')).status).toBe(200);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await h.get('/echo', { method: 'POST', body: 'msg=free+money', headers: form })).status).toBe(403);
    const plus = await h.get('/echo', { method: 'POST', body: 'msg=free%2Bmoney', headers: form });
    expect(plus.status).toBe(200);
    expect(plus.text).toBe('msg=free%2Bmoney'); // forwarded as sent
    h.events.length = 0;
    expect((await h.get('/index.html?q=a+big+win')).status).toBe(200);
    expect(h.events).toMatchObject([{ type: 'record', rule: 'sql.keywords.record', evidence: 'big win' }]);
  });

  it('HEAD answers agree with the GET when the filter library rewrites the body', async () => {
    await h.apply(settings((s) => (s.sql.keywords.filter = { enabled: true, rules: ['casino==gambling hall'] })));
    const get = await h.get('/news.html');
    expect(get.text).toBe('<p>The gambling hall opened. gambling hall fans came to the gambling hall.</p>\n');
    expect(Number(get.headers['content-length'])).toBe(get.body.length);
    // One keep-alive connection for HEAD then GET: a HEAD that promised a length would be no harm
    // to framing, but a client sizing the page from it (download managers, caches) would be wrong.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const ask = (method: string, path: string) =>
        request({ host: '127.0.0.1', port: h.port, path, method, agent, headers: { host: siteHost, 'user-agent': browser, 'x-forwarded-for': '198.51.100.1' } });
      const head = await ask('HEAD', '/news.html');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      const length = head.headers['content-length'];
      if (length !== undefined) expect(Number(length)).toBe(get.body.length);
      expect(head.headers.etag).toBeUndefined(); // the origin's tag names bytes a GET does not return
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      // The connection is still in step: the next answer on it is whole.
      const after = await ask('GET', '/news.html');
      expect(after.body.toString('utf8')).toBe(get.text);
      // A body too big to rewrite goes out as it is: HEAD keeps the origin's length, the GET's.
      const bigHead = await ask('HEAD', '/big.txt');
      expect(Number(bigHead.headers['content-length'])).toBe(3 * 1024 * 1024);
    } finally {
      agent.destroy();
    }
    // Off: HEAD is the origin's, length and tag.
    await h.apply(settings());
    const plain = await h.get('/news.html', { method: 'HEAD' });
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength('<p>The casino opened. Casino fans came to the CASINO.</p>\n'));
    expect(plain.headers.etag).toBeDefined();
  });

  it('filter keyword library rewrites text answers of the origin, fixes Content-Length, leaves big and binary bodies alone', async () => {
    await h.apply(settings((s) => (s.sql.keywords.filter = { enabled: true, rules: ['casino==c*sino'] })));
    const page = await h.get('/news.html');
    expect(page.status).toBe(200);
    expect(page.text).toBe('<p>The c*sino opened. c*sino fans came to the c*sino.</p>\n');
    expect(Number(page.headers['content-length'])).toBe(page.body.length);
    expect(page.headers.etag).toBeUndefined();
    expect((await h.get('/index.html')).headers.etag).toBeDefined(); // unchanged bodies keep the origin's tag
    const slice = await h.get('/news.html', { headers: { range: 'bytes=0-9' } });
    expect(slice.status).toBe(206);
    expect(slice.text).toBe('<p>The cas');
    expect((await h.get('/data.json')).text).toBe('{"text":"free c*sino chips"}\n');
    const big = await h.get('/big.txt');
    expect(big.body.length).toBe(3 * 1024 * 1024);
    expect(big.text.startsWith('casino casino')).toBe(true);
    const head = await h.get('/news.html', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('cookie attributes and X-Frame-Options (base tab)', async () => {
    const plain = await h.get('/cookie');
    expect(plain.headers['set-cookie']).toEqual(['sid=abc123; Path=/', 'theme=dark; Path=/; SameSite=None; Secure']);
    await h.apply(settings((s) => {
      s.base.cookie = { http_only: true, same_site: 'strict' };
      s.base.frame_options = { mode: 'sameorigin', domains: [] };
    }));
    const r = await h.get('/cookie');
    expect(r.headers['set-cookie']).toEqual(['sid=abc123; Path=/; HttpOnly; SameSite=Strict', 'theme=dark; Path=/; Secure; HttpOnly; SameSite=Strict']);
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
    await h.apply(settings((s) => (s.base.frame_options = { mode: 'allow_from', domains: ['partner.example'] })));
    const framed = await h.get('/index.html');
    expect(framed.headers['content-security-policy']).toBe("frame-ancestors 'self' https://partner.example http://partner.example");
    expect(framed.text).toBe('<h1>origin</h1>\n');
  });

  it('answers blocked requests with each of the four response types of the site', async () => {
    const deny = settings((s) => (s.lists.url_black = { enabled: true, entries: ['/forbidden'] }));
    await h.apply(deny);
    const standard = await h.get('/forbidden');
    expect(standard.status).toBe(403);
    expect(standard.text).toContain('blocked by the website firewall');
    await h.apply(deny, { block_response: { type: 'detailed', status: 406, redirect_url: '', content: '' } });
    const detailed = await h.get('/forbidden');
    expect(detailed.status).toBe(406);
    expect(detailed.text).toContain('lists.url_black');
    expect(detailed.text).toContain(lastEvent()!.incident_id);
    await h.apply(deny, { block_response: { type: 'redirect', status: 403, redirect_url: 'https://www.example.com/blocked', content: '' } });
    const redirect = await h.get('/forbidden');
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe('https://www.example.com/blocked');
    await h.apply(deny, { block_response: { type: 'custom', status: 451, redirect_url: '', content: '<p>Not here.</p>' } });
    const custom = await h.get('/forbidden');
    expect(custom.status).toBe(451);
    expect(custom.text).toBe('<p>Not here.</p>');
  });

  it('puts a snapshot cut at the snapshot size into events, none when snapshots are off; area and alert', async () => {
    h.areas.set('198.51.100.9', ['CN', 'CN-GD']);
    await h.apply(settings((s) => {
      s.request.denied_methods = ['PUT'];
      s.request.limits.snapshot_bytes = 64;
      s.base.alert = { enabled: true, area: 'all', methods: ['email'] };
    }));
    await h.get('/echo', { method: 'PUT', ip: '198.51.100.9', body: 'x'.repeat(200), headers: { 'content-type': 'text/plain' } });
    const event = lastEvent()!;
    expect(event).toMatchObject({ type: 'block', rule: 'request.method', area: 'CN-GD', alert: true });
    expect(event.snapshot?.headers.startsWith('PUT /echo HTTP/1.1\r\n')).toBe(true);
    expect(Buffer.byteLength(event.snapshot!.headers)).toBeLessThanOrEqual(64);
    expect(event.snapshot?.body).toBe('x'.repeat(64));
    await h.apply(settings((s) => {
      s.request.denied_methods = ['PUT'];
      s.base.snapshot.enabled = false;
      s.base.alert = { enabled: true, area: 'unknown', methods: ['email'] };
    }));
    await h.get('/echo', { method: 'PUT', ip: '198.51.100.9', body: 'x' });
    expect(lastEvent()?.snapshot).toBeUndefined();
    expect(lastEvent()?.alert).toBe(false); // the address has a known area
  });

  it('runs only the attack kinds the settings turn on', async () => {
    const sqli = `/index.html?id=${encodeURIComponent("1' OR '1'='1' -- ")}`;
    const xss = `/index.html?q=${encodeURIComponent('<script>alert(document.cookie)</script>')}`;
    expect((await h.get(sqli)).status).toBe(403);
    expect(lastEvent()).toMatchObject({ type: 'block', kind: 'sqli', location: 'query' });
    expect((await h.get(xss)).status).toBe(403);
    await h.apply(settings((s) => (s.sql.sqli = false)));
    expect((await h.get(sqli)).status).toBe(200);
    expect((await h.get(xss)).status).toBe(403);
    await h.apply(settings((s) => (s.attack.kinds.xss = false)));
    expect((await h.get(xss)).status).toBe(200);
  });

  it('reads only the headers the attack tab lists (Cookie always)', async () => {
    const payload = "1' OR '1'='1' -- ";
    expect((await h.get('/index.html', { headers: { 'x-custom': payload } })).status).toBe(200);
    expect((await h.get('/index.html', { headers: { 'user-agent': payload } })).status).toBe(403);
    expect((await h.get('/index.html', { headers: { cookie: `id=${encodeURIComponent(payload)}` } })).status).toBe(403);
    await h.apply(settings((s) => (s.attack.headers = ['x-custom'])));
    expect((await h.get('/index.html', { headers: { 'x-custom': payload } })).status).toBe(403);
    expect(lastEvent()).toMatchObject({ location: 'header', name: 'x-custom' });
  });

  it('404 scan: too many 404 answers put the address on the interception list', async () => {
    await h.apply(settings((s) => (s.protect.scan_404 = { enabled: true, per_minute: 3, block_minutes: 5 })));
    const ip = '198.51.100.40';
    for (let i = 0; i < 4; i++) expect((await h.get(`/missing-${i}.php`, { ip })).status).toBe(404);
    const intercept = h.events.find((e) => e.type === 'intercept');
    expect(intercept).toMatchObject({ rule: 'protect.scan_404', client_ip: ip, intercept: { ip, reason: 'scan_404' } });
    expect(intercept!.intercept!.expires_at - intercept!.intercept!.created_at).toBe(5 * 60_000);
    const after = await h.get('/index.html', { ip });
    expect(after.status).toBe(403);
    expect(lastEvent()?.rule).toBe('lists.intercept');
    expect((await h.get('/index.html', { ip: '198.51.100.41' })).status).toBe(200);
  });

  it('keeps the in-process event hook working beside services.emit', async () => {
    await h.apply(settings((s) => (s.request.denied_methods = ['DELETE'])));
    await h.get('/index.html', { method: 'DELETE' });
    expect(h.legacy.at(-1)).toMatchObject({ type: 'website.block', siteId: 'shop', decision: { rule: 'request.method' } });
    expect(h.legacy.at(-1)?.incidentId).toBe(lastEvent()?.incident_id);
  });

  it('serves the reserved prefix itself, never forwarding it', async () => {
    const r = await h.get('/.rampart/anything?x=1');
    expect(r.status).toBe(404);
    expect(h.originLog().some((line) => line.includes('/.rampart/'))).toBe(false);
  });
});
