import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gatewayConfigSchema, type GatewayEventRecord, type TrojanLibrary, type WebsiteSettings } from '@rampart/contracts';
import { GatewayServers } from '../src/gateway-servers.ts';
import { loadInspector } from '../src/load-inspector.ts';
import { createLocalServices, type WorkerServices } from '../src/services.ts';
import { freePort, request, sha256, startEchoServer } from './harness/origin.ts';
import { settings } from './harness/policy-gateway.ts';
import { png } from './harness/upload-samples.ts';

/*
 * The upload scan's two later parts through the real gateway in front of a real Node origin (its
 * /sink hashes what it received): the trojan module's custom library carried in the configuration
 * (policy.custom_library), and files carried in JSON or form fields as base64.
 */

const host = 'shop.example';
const boundary = '----rampartCarried9';
const browser = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

/** Harmless to the built-in rules and the analysis: only the administrator's own rule or hash flags them. */
const ruleOnly = Buffer.from('Quarterly notes\nACME-IMPLANT-7731 was seen in the logs of host 12.\n');
const hashOnly = Buffer.from(`Release checklist ${randomBytes(8).toString('hex')}\n- tag\n- publish\n`);
const harmless = Buffer.from('Meeting minutes: budget approved, next review in May.\n');
const library: TrojanLibrary = {
  rules: 'rule acme_implant {\n  strings:\n    $a = "ACME-IMPLANT-7731"\n  condition:\n    $a\n}\n',
  hashes: [`${sha256(hashOnly)}  # seen on host 12`],
};

/** A generic one-line PHP web shell (eval of a POST field), long enough to be worth a base64 field (>= 64 characters). */
const phpShell = Buffer.from("<?php /* profile picture */ if (isset($_POST['c'])) { @eval($_POST['c']); } ?>");
/** A minimal real PDF with a binary (compressed-looking) stream, as avatar and document uploads send. */
const pdf = Buffer.concat([
  Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Length 600 /Filter /FlateDecode >>\nstream\n', 'latin1'),
  randomBytes(600),
  Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
]);

const filePart = (field: string, fileName: string, content: Buffer) =>
  Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: text/plain\r\n\r\n`), content, Buffer.from('\r\n')]);
const textPart = (field: string, value: string) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`);
const form = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);

describe('upload scan: custom library and files carried in fields, through the gateway', () => {
  let origin: Awaited<ReturnType<typeof startEchoServer>>;
  let gateway: GatewayServers;
  let port: number;
  const events: GatewayEventRecord[] = [];
  const logs: string[] = [];

  /**
   * Every attack kind of the WAF engine is off: the web shell upload kind's file-name rule would
   * refuse `.php` names, and the code-injection kinds read base64 too; these tests are about the scan.
   */
  const engineOnly = settings((s: WebsiteSettings) => {
    for (const kind of Object.keys(s.attack.kinds) as (keyof typeof s.attack.kinds)[]) s.attack.kinds[kind] = false;
  });
  const apply = (custom?: TrojanLibrary) =>
    gateway.apply(gatewayConfigSchema.parse({
      workers: 1,
      timeouts: { header_ms: 5000, idle_ms: 10_000, upstream_connect_ms: 1000, upstream_response_ms: 10_000 },
      sites: [{ id: 'shop', name: 'Shop', status: 'on', listen: [{ address: '127.0.0.1', port }], upstreams: [{ url: `http://127.0.0.1:${origin.port}` }], block_mode: 'loose' }],
      policy: { settings: engineOnly, cookie_secret: 'cd'.repeat(32), ...(custom ? { custom_library: custom } : {}) },
    }));
  const post = async (body: Buffer | string, type: string) => {
    const r = await request({ host: '127.0.0.1', port, path: '/sink/upload', method: 'POST', body, headers: { host, 'user-agent': browser, 'content-type': type } });
    return { status: r.status, text: r.body.toString('utf8') };
  };
  const upload = (name: string, content: Buffer) => post(form(textPart('title', 'notes'), filePart('file', name, content)), `multipart/form-data; boundary=${boundary}`);
  /** Passed whole: the origin received exactly the bytes sent. */
  const expectPassed = (r: { status: number; text: string }, body: Buffer | string) => {
    expect(r.status, r.text).toBe(200);
    expect(JSON.parse(r.text)).toMatchObject({ sha256: sha256(body) });
  };
  const expectRefused = (r: { status: number }, name: string) => {
    expect(r.status).toBe(403);
    expect(events.at(-1)).toMatchObject({ type: 'block', kind: 'webshell_upload', rule: 'webshell_upload.engine', name });
  };

  beforeAll(async () => {
    origin = await startEchoServer();
    port = await freePort();
    const services = createLocalServices({ emit: (e) => events.push(e) });
    gateway = new GatewayServers({ inspector: await loadInspector(undefined, () => {}), onEvent: () => {}, services: services as WorkerServices, log: (m) => logs.push(m) });
  }, 30_000);
  afterAll(async () => {
    await gateway?.drain(500);
    await origin?.close();
  });
  beforeEach(() => {
    events.length = 0;
  });

  it('refuses what only a custom rule or a custom hash flags, passes a harmless file, and lets both through once the library is cleared', async () => {
    await apply(library);
    expectRefused(await upload('notes.txt', ruleOnly), 'notes.txt');
    expect(events.at(-1)?.evidence).toContain('acme_implant');
    expectRefused(await upload('checklist.txt', hashOnly), 'checklist.txt');
    expect(events.at(-1)?.evidence).toContain(sha256(hashOnly));
    const fine = form(textPart('title', 'notes'), filePart('file', 'minutes.txt', harmless));
    expectPassed(await post(fine, `multipart/form-data; boundary=${boundary}`), fine);

    // Cleared (the console writes no custom_library then): the next configuration's thread has none.
    await apply();
    events.length = 0;
    for (const [name, content] of [['notes.txt', ruleOnly], ['checklist.txt', hashOnly]] as const) {
      const body = form(textPart('title', 'notes'), filePart('file', name, content));
      expectPassed(await post(body, `multipart/form-data; boundary=${boundary}`), body);
    }
    expect(events.filter((e) => e.type === 'block')).toEqual([]);
  }, 30_000);

  it('keeps scanning with the built-in rules when the library does not compile, and logs it once', async () => {
    await apply({ rules: 'rule broken { condition: $missing }', hashes: library.hashes });
    logs.length = 0;
    expectRefused(await upload('shell.txt', phpShell), 'shell.txt');
    // The hash list parsed: it still applies; the rules did not: the rule-only file passes.
    expectRefused(await upload('checklist.txt', hashOnly), 'checklist.txt');
    const body = form(textPart('title', 'notes'), filePart('file', 'notes.txt', ruleOnly));
    expectPassed(await post(body, `multipart/form-data; boundary=${boundary}`), body);
    expect(logs.filter((m) => m.includes('custom library does not compile'))).toHaveLength(1);
    await apply();
  }, 30_000);

  it('refuses a PHP shell carried in base64 in JSON and as a data: URL in form fields', async () => {
    const json = JSON.stringify({ user: 7, upload: { name: 'avatar.php', file: phpShell.toString('base64') } });
    expectRefused(await post(json, 'application/json'), 'avatar.php');

    const dataUrl = `data:application/x-php;base64,${phpShell.toString('base64')}`;
    const urlencoded = new URLSearchParams({ title: 'Profile', photo: dataUrl }).toString();
    expectRefused(await post(urlencoded, 'application/x-www-form-urlencoded'), 'photo');

    const multipart = form(textPart('filename', 'x.php'), textPart('content', dataUrl));
    expectRefused(await post(multipart, `multipart/form-data; boundary=${boundary}`), 'x.php');
  }, 30_000);

  it('passes a base64 PNG avatar, a base64 PDF and a long base64 of random bytes whole', async () => {
    const avatar = JSON.stringify({ name: 'me.png', avatar: `data:image/png;base64,${png(64, 64).toString('base64')}` });
    expectPassed(await post(avatar, 'application/json'), avatar);
    const doc = new URLSearchParams({ filename: 'invoice.pdf', file: pdf.toString('base64') }).toString();
    expectPassed(await post(doc, 'application/x-www-form-urlencoded'), doc);
    const noise = JSON.stringify({ blob: randomBytes(48 * 1024).toString('base64') });
    expectPassed(await post(noise, 'application/json'), noise);
    expect(events.filter((e) => e.type === 'block')).toEqual([]);
  }, 30_000);
});
