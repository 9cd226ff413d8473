import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gatewayConfigSchema, type GatewayEventRecord, type GatewaySite, type WebsiteSettings } from '@rampart/contracts';
import { GatewayServers } from '../src/gateway-servers.ts';
import { loadInspector } from '../src/load-inspector.ts';
import { createLocalServices, type WorkerServices } from '../src/services.ts';
import { freePort, hasNginx, request, startNginxOrigin, type NginxOrigin } from './harness/origin.ts';
import { settings } from './harness/policy-gateway.ts';
import { jpeg, pluginFile, png } from './harness/upload-samples.ts';

/*
 * The web-shell scan of uploads (upload-scan.ts) through the real gateway in front of the real
 * nginx, which streams /sink (request buffering off) to a Node upload handler that records what it
 * got: whether each request's body reached its end, and the bytes. A refused upload must never be
 * received whole by the handler (its application never runs), whether the body fits the gateway's
 * window (never forwarded at all) or streams past it (aborted before its last chunk).
 */

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const host = 'shop.example';
const boundary = '----rampartShellScan5';
const marker = 'RAMPART-SHELL-MARKER';

const filePart = (field: string, fileName: string, content: Buffer, type = 'application/octet-stream') =>
  Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`), content, Buffer.from('\r\n')]);
const textPart = (field: string, value: string) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`);
const form = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);

/** A generic PHP web shell (eval of a POST field) and the same idea hidden after a JPEG. */
const phpShell = Buffer.from(`<?php /* ${marker} */ @eval($_POST['c']);?>`);
const jpegShell = (size: number) => Buffer.concat([jpeg(size), Buffer.from(`<?php /* ${marker} */ system($_GET['x']); ?>`)]);

interface Received { path: string; bytes: number; complete: boolean; sha256: string; hasMarker: boolean }

/** The origin's upload handler: records each request's body, answers with its length and hash once it has all of it. */
async function startUploadHandler(): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    const entry: Received = { path: req.url ?? '', bytes: 0, complete: false, sha256: '', hasMarker: false };
    received.push(entry);
    req.on('data', (c: Buffer) => {
      chunks.push(c);
      entry.bytes += c.length;
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      entry.complete = true;
      entry.sha256 = sha256(body);
      entry.hasMarker = body.includes(marker);
      res.end(JSON.stringify({ bytes: body.length, sha256: entry.sha256 }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe.skipIf(!hasNginx)('web-shell scan of uploads through the gateway and nginx', () => {
  let handler: Awaited<ReturnType<typeof startUploadHandler>>;
  let nginx: NginxOrigin;
  let gateway: GatewayServers;
  let port: number;
  const events: GatewayEventRecord[] = [];

  const apply = (s: WebsiteSettings, site: Partial<GatewaySite> = {}) =>
    gateway.apply(
      gatewayConfigSchema.parse({
        workers: 1,
        timeouts: { header_ms: 5000, idle_ms: 10_000, upstream_connect_ms: 1000, upstream_response_ms: 10_000 },
        sites: [{ id: 'shop', name: 'Shop', status: 'on', listen: [{ address: '127.0.0.1', port }], upstreams: [{ url: `http://127.0.0.1:${nginx.port}` }], block_mode: 'loose', ...site }],
        policy: { settings: s, cookie_secret: 'cd'.repeat(32) },
      }),
    );
  /**
   * The web shell upload kind of the attack tab is off: its file-name rule refuses any `.php` upload
   * by name, and these tests are about what the engine reads in the files.
   */
  const engineOnly = (change: (s: WebsiteSettings) => void = () => {}) => settings((s) => {
    s.attack.kinds.webshell_upload = false;
    change(s);
  });

  const upload = async (label: string, body: Buffer, headers: Record<string, string> = {}) => {
    const r = await request({
      host: '127.0.0.1', port, path: `/sink/upload?case=${label}`, method: 'POST', body,
      headers: { host, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0', 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers },
    });
    return { status: r.status, text: r.body.toString('utf8') };
  };
  /** What the handler got for a case (waits a moment for an aborted request to be seen). */
  const receivedFor = async (label: string) => {
    await new Promise((r) => setTimeout(r, 150));
    return handler.received.filter((r) => r.path.endsWith(`case=${label}`));
  };
  const expectNeverReceivedWhole = async (label: string) => {
    const got = await receivedFor(label);
    expect(got.filter((r) => r.complete)).toEqual([]);
    expect(got.some((r) => r.hasMarker)).toBe(false);
    return got;
  };
  const expectPassedWhole = async (label: string, r: { status: number; text: string }, body: Buffer) => {
    expect(r.status, r.text).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ bytes: body.length, sha256: sha256(body) });
    expect((await receivedFor(label)).map((x) => [x.complete, x.sha256])).toEqual([[true, sha256(body)]]);
  };
  const lastEvent = () => events.at(-1);

  beforeAll(async () => {
    handler = await startUploadHandler();
    nginx = await startNginxOrigin(handler.port);
    port = await freePort();
    const services = createLocalServices({ emit: (e) => events.push(e) });
    gateway = new GatewayServers({ inspector: await loadInspector(undefined, () => {}), onEvent: () => {}, services: services as WorkerServices });
    await apply(engineOnly());
  }, 30_000);
  afterAll(async () => {
    await gateway?.drain(500);
    await nginx?.stop();
    await handler?.close();
  });
  beforeEach(() => {
    events.length = 0;
  });

  it('refuses a small PHP web shell and a JPEG with PHP appended; the handler never gets them', async () => {
    const shell = await upload('small-php', form(textPart('title', 'my avatar'), filePart('file', 'avatar.php', phpShell, 'application/x-php')));
    expect(shell.status).toBe(403);
    expect(lastEvent()).toMatchObject({ type: 'block', kind: 'webshell_upload', rule: 'webshell_upload.engine', location: 'file_content', name: 'avatar.php' });
    expect(await receivedFor('small-php')).toEqual([]);

    const image = await upload('small-jpeg', form(filePart('file', 'cat.jpg', jpegShell(40_000), 'image/jpeg')));
    expect(image.status).toBe(403);
    expect(lastEvent()).toMatchObject({ type: 'block', kind: 'webshell_upload', rule: 'webshell_upload.engine', name: 'cat.jpg' });
    expect(lastEvent()?.evidence).toMatch(/^cat\.jpg: /);
    expect(await receivedFor('small-jpeg')).toEqual([]);
  }, 30_000);

  it('refuses the same in uploads streaming past the window, before the handler has the body', async () => {
    await apply(engineOnly(), { inspect_body_kb: 64 });
    // A shell after a large video: the window saw only the video's head.
    const afterVideo = form(filePart('video', 'clip.mp4', randomBytes(600 * 1024), 'video/mp4'), filePart('file', 'notes.php', phpShell), textPart('title', 'trip'));
    expect((await upload('stream-php', afterVideo)).status).toBe(403);
    expect(lastEvent()).toMatchObject({ type: 'block', kind: 'webshell_upload', rule: 'webshell_upload.engine', name: 'notes.php' });
    const got = await expectNeverReceivedWhole('stream-php');
    expect(got.every((r) => r.bytes < afterVideo.length)).toBe(true);

    // A 1 MB photo with PHP appended, chunked (no length), the payload 1 MB past the window.
    const photo = form(textPart('album', 'holiday'), filePart('photo', 'beach.jpg', jpegShell(1024 * 1024), 'image/jpeg'));
    expect((await upload('stream-jpeg', photo, { 'transfer-encoding': 'chunked' })).status).toBe(403);
    expect(lastEvent()).toMatchObject({ type: 'block', kind: 'webshell_upload', rule: 'webshell_upload.engine', name: 'beach.jpg' });
    await expectNeverReceivedWhole('stream-jpeg');
  }, 30_000);

  it('passes a benign plugin file and a real PNG byte for byte, small and streamed', async () => {
    const plugin = pluginFile();
    const picture = png(300, 300);
    expect(picture.length).toBeGreaterThan(200_000);
    const small = form(textPart('title', 'Acme Gallery 1.4.2'), filePart('plugin', 'acme-gallery.php', plugin, 'application/x-php'));
    await expectPassedWhole('small-benign', await upload('small-benign', small), small);
    const smallPng = form(filePart('photo', 'dog.png', png(40, 40), 'image/png'));
    await expectPassedWhole('small-png', await upload('small-png', smallPng), smallPng);

    await apply(engineOnly(), { inspect_body_kb: 64 });
    const streamed = form(filePart('photo', 'garden.png', picture, 'image/png'), filePart('plugin', 'acme-gallery.php', plugin, 'application/x-php'), textPart('note', 'v1.4.2'));
    await expectPassedWhole('stream-benign', await upload('stream-benign', streamed), streamed);
    await expectPassedWhole('stream-benign-chunked', await upload('stream-benign-chunked', streamed, { 'transfer-encoding': 'chunked' }), streamed);
    // The WAF engine records (loose mode) the plugin's HTML markup as possible XSS: its business, not a refusal.
    expect(events.filter((e) => e.type !== 'record')).toEqual([]);
  }, 30_000);

  it('reads a PUT as one file named by the URL: refuses a shell, small or streamed, and passes a picture byte for byte', async () => {
    const put = async (label: string, name: string, body: Buffer, headers: Record<string, string> = {}) => {
      const r = await request({
        host: '127.0.0.1', port, path: `/sink/dav/${name}?case=${label}`, method: 'PUT', body,
        headers: { host, 'user-agent': 'curl/8.5.0', 'content-type': 'application/octet-stream', ...headers },
      });
      return { status: r.status, text: r.body.toString('utf8') };
    };
    // Within the window the WAF engine reads the raw body too and may refuse it first: either way it never lands.
    expect((await put('put-php', 'notes.php', phpShell)).status).toBe(403);
    expect(lastEvent()).toMatchObject({ type: 'block' });
    expect(await receivedFor('put-php')).toEqual([]);

    const picture = png(200, 200);
    await expectPassedWhole('put-png', await put('put-png', 'garden.png', picture, { 'content-type': 'image/png' }), picture);

    await apply(engineOnly(), { inspect_body_kb: 64 });
    expect((await put('put-stream-jpeg', 'beach.jpg', jpegShell(1024 * 1024), { 'content-type': 'image/jpeg', 'transfer-encoding': 'chunked' })).status).toBe(403);
    expect(lastEvent()).toMatchObject({ type: 'block', kind: 'webshell_upload', rule: 'webshell_upload.engine', name: 'beach.jpg' });
    await expectNeverReceivedWhole('put-stream-jpeg');
    await expectPassedWhole('put-stream-png', await put('put-stream-png', 'garden.png', picture, { 'content-type': 'image/png' }), picture);
  }, 30_000);

  it('is on by default alongside the file-name rule, and off when the request tab turns it off', async () => {
    // Defaults: the attack tab's file-name rule refuses the .php name first; a .png name is the engine's.
    await apply(settings());
    expect((await upload('default-php', form(filePart('file', 'a.php', phpShell)))).status).toBe(403);
    expect(lastEvent()).toMatchObject({ kind: 'webshell_upload', rule: 'webshell.script_upload' });
    expect((await upload('default-png', form(filePart('file', 'a.png', jpegShell(300_000))))).status).toBe(403);
    expect(lastEvent()).toMatchObject({ kind: 'webshell_upload', rule: 'webshell_upload.engine' });
    // Switched off (and the name rule too): the upload reaches the handler whole.
    await apply(engineOnly((s) => (s.request.upload_scan = { enabled: false })));
    events.length = 0;
    const body = form(filePart('file', 'a.png', jpegShell(300_000)));
    await expectPassedWhole('scan-off', await upload('scan-off', body), body);
    expect(events).toEqual([]);
  }, 30_000);
});
