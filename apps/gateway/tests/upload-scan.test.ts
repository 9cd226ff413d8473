import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { WafRequest } from '@rampart/waf';
import type { RenderedResponse } from '../src/block-response.ts';
import { UploadFiles, UploadScanner, defaultUploadScanLimits, scanWholeBody, scannedUpload, uploadBoundary, uploadReaderFor } from '../src/upload-scan.ts';
import { uploadRefused } from '../src/upload-tail.ts';

// The file parts cut out of a body in any chunking, and the scan's hold on the last chunk, without sockets.

const boundary = '----scanBoundary3';
const text = (name: string, value: string) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
const file = (name: string, fileName: string, content: Buffer) =>
  Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`), content, Buffer.from('\r\n')]);
const form = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);

function cut(body: Buffer, size: number, maxFileBytes = 1 << 20) {
  const files = new UploadFiles(boundary, maxFileBytes);
  const out = [];
  for (let at = 0; at < body.length; at += size) out.push(...files.push(body.subarray(at, at + size)));
  out.push(...files.end());
  return out;
}

async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

const page: RenderedResponse = { status: 403, headers: {}, body: 'refused' };
const shell = Buffer.from("<?php @eval($_POST['c']);?>");

describe('UploadFiles', () => {
  // Contents that end in CR, hold a boundary not at a line start, and binary bytes.
  const odd = Buffer.concat([Buffer.from(`line\r\nnot a delimiter: --${boundary} here\r\n`), randomBytes(3000), Buffer.from('\r')]);
  const body = form(text('title', 'holiday'), file('a', 'a.txt', odd), file('b', 'C:\\fakepath\\b.php', shell), text('after', 'x'));

  it('cuts every file part out byte for byte, at any chunk size', () => {
    for (const size of [1, 2, 3, 7, 50, 512, 4096, body.length]) {
      const files = cut(body, size);
      expect(files.map((f) => [f.field, f.fileName, f.size]), `chunk size ${size}`).toEqual([['a', 'a.txt', odd.length], ['b', 'C:\\fakepath\\b.php', shell.length]]);
      expect(files[0]!.bytes!.equals(odd)).toBe(true);
      expect(files[1]!.bytes!.equals(shell)).toBe(true);
    }
  });

  it('reads LF-only forms, parts after the closing delimiter, a body cut inside a file, and RFC 5987 names', () => {
    const lf = Buffer.from(`--${boundary}\nContent-Disposition: form-data; name="f"; filename="x.php"\n\n<?php echo 1;\n--${boundary}--\n`);
    expect(cut(lf, 5).map((f) => f.bytes!.toString())).toEqual(['<?php echo 1;']);
    const epilogue = Buffer.concat([form(text('t', 'v')), file('late', 'late.php', shell)]);
    expect(cut(epilogue, 9).map((f) => f.fileName)).toEqual(['late.php']);
    const unfinished = Buffer.concat([text('t', 'v'), Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="cut.php"\r\n\r\n`), shell]);
    expect(cut(unfinished, 4).map((f) => f.bytes!.equals(shell))).toEqual([true]);
    const extended = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.jpg"; filename*=UTF-8''s%C3%A9.php\r\n\r\nx\r\n--${boundary}--\r\n`);
    expect(cut(extended, 64).map((f) => f.fileName)).toEqual(['sé.php']);
  });

  it('keeps no bytes of a file over the cap, but counts it', () => {
    const big = randomBytes(5000);
    const files = cut(form(file('v', 'clip.mp4', big), file('s', 's.php', shell)), 333, 4096);
    expect(files.map((f) => [f.fileName, f.size, f.bytes === null])).toEqual([['clip.mp4', 5000, true], ['s.php', shell.length, false]]);
  });

  it('reads the boundary of a multipart request only, never of a compressed one', () => {
    const request = (headers: [string, string][]): WafRequest => ({ method: 'POST', target: '/', headers, clientIp: '192.0.2.1', body: null, bodyTruncated: false, now: 0 });
    expect(uploadBoundary(request([['Content-Type', `multipart/form-data; boundary="${boundary}"`]]))).toBe(boundary);
    expect(uploadBoundary(request([['content-type', `Multipart/Form-Data; charset=utf-8; boundary=${boundary}`]]))).toBe(boundary);
    expect(uploadBoundary(request([['Content-Type', 'application/x-www-form-urlencoded']]))).toBeNull();
    expect(uploadBoundary(request([['Content-Type', `multipart/form-data; boundary=${boundary}`], ['Content-Encoding', 'gzip']]))).toBeNull();
  });

  it('reads a PUT, or a body sent as a file type, as one file named by the URL; never an application\'s data', () => {
    const request = (method: string, target: string, headers: [string, string][]): WafRequest => ({ method, target, headers, clientIp: '192.0.2.1', body: null, bodyTruncated: false, now: 0 });
    const read = (req: WafRequest, body: Buffer, max = 1000) => {
      const reader = uploadReaderFor(req, max)?.();
      if (!reader) return null;
      return [...reader.push(body.subarray(0, 3)), ...reader.push(body.subarray(3)), ...reader.end()].map((f) => [f.fileName, f.size, f.bytes?.toString('latin1') ?? null]);
    };
    const body = Buffer.from('<?php echo 1;');
    expect(read(request('PUT', '/dav/site/x%2Ephp?v=1', []), body)).toEqual([['x.php', body.length, body.toString('latin1')]]);
    expect(read(request('put', '/uploads/', [['Content-Type', 'text/plain']]), body)).toEqual([['upload', body.length, body.toString('latin1')]]);
    expect(read(request('POST', '/api/avatar/me.jpg', [['Content-Type', 'image/jpeg']]), body)).toEqual([['me.jpg', body.length, body.toString('latin1')]]);
    // octet-stream is left to streaming APIs unless it is a PUT; a body announced over the cap is not read.
    expect(read(request('POST', '/upload?name=a.php', [['Content-Type', 'application/octet-stream']]), body)).toBeNull();
    expect(read(request('PUT', '/upload/', [['Content-Type', 'application/octet-stream']]), body)).toEqual([['upload', body.length, body.toString('latin1')]]);
    expect(read(request('PUT', '/big.iso', [['Content-Length', '5000']]), body, 4000)).toBeNull();
    expect(read(request('PATCH', '/f/a%2f..%2fb.php', [['Content-Type', 'application/x-httpd-php']]), body)).toEqual([['b.php', body.length, body.toString('latin1')]]);
    // WordPress's REST media upload names the file in Content-Disposition.
    expect(read(request('POST', '/wp-json/wp/v2/media', [['Content-Type', 'image/jpeg'], ['Content-Disposition', 'attachment; filename="cat.php.jpg"']]), body)).toEqual([['cat.php.jpg', body.length, body.toString('latin1')]]);
    expect(read(request('PUT', '/media', [['Content-Disposition', "attachment; filename*=UTF-8''..%2Fs%C3%A9.php"]]), body)).toEqual([['sé.php', body.length, body.toString('latin1')]]);
    // Over the cap: counted, not kept.
    expect(read(request('PUT', '/big.bin', []), body, 5)).toEqual([['big.bin', body.length, null]]);
    // An application's data, a compressed body, a multipart body without a boundary: not read as files.
    expect(read(request('POST', '/api', [['Content-Type', 'application/json']]), body)).toBeNull();
    expect(read(request('POST', '/login', [['Content-Type', 'application/x-www-form-urlencoded']]), body)).toBeNull();
    expect(read(request('POST', '/x.php', []), body)).toBeNull();
    expect(read(request('PUT', '/x.php', [['Content-Encoding', 'gzip']]), body)).toBeNull();
    expect(read(request('PUT', '/x.php', [['Content-Type', 'multipart/form-data']]), body)).toBeNull();
    // A form is read part by part, as before.
    expect(read(request('PUT', '/', [['Content-Type', `multipart/form-data; boundary=${boundary}`]]), form(file('f', 'in.php', body)))).toEqual([['in.php', body.length, body.toString('latin1')]]);
  });
});

describe('the scan of uploads with the web-shell engine', () => {
  const scanner = new UploadScanner();
  afterAll(() => scanner.close());

  it('flags a web shell in a whole body, passes an ordinary one', async () => {
    const multipart = () => new UploadFiles(boundary, defaultUploadScanLimits.maxFileBytes);
    const flagged = await scanWholeBody(scanner, multipart, form(text('t', 'v'), file('f', 'notes.txt', Buffer.from('plain notes')), file('s', 'up.php', shell)));
    expect(flagged?.file.fileName).toBe('up.php');
    expect(['high', 'medium']).toContain(flagged?.result.risk);
    expect(await scanWholeBody(scanner, multipart, form(file('f', 'notes.txt', Buffer.from('<?php echo "hello"; ?>'))))).toBeNull();
  }, 20_000);

  it('streams every chunk of a clean upload, and never the last one of a flagged upload', async () => {
    const clean = form(file('v', 'clip.mp4', randomBytes(200_000)), text('title', 'a title'));
    const forwarded: Buffer[] = [];
    const scan = { scanner, reader: () => new UploadFiles(boundary, defaultUploadScanLimits.maxFileBytes), refuse: () => page };
    for await (const chunk of scannedUpload(chunksOf(clean, 8192), scan)) forwarded.push(chunk);
    expect(Buffer.concat(forwarded).equals(clean)).toBe(true);

    const bad = form(file('v', 'clip.mp4', randomBytes(200_000)), file('s', 'avatar.png', shell), text('title', 'a title'));
    const sent: Buffer[] = [];
    const reading = (async () => {
      for await (const chunk of scannedUpload(chunksOf(bad, 8192), scan)) sent.push(chunk);
    })();
    await expect(reading).rejects.toMatchObject({ code: uploadRefused, refusal: page });
    expect(Buffer.concat(sent).length).toBeLessThan(bad.length);
  }, 20_000);

  it('stops the thread of a file that overruns its time budget: the file passes unscanned, a new thread scans on', async () => {
    const limits = { ...defaultUploadScanLimits, timeBudgetMs: 0, graceMs: 0 };
    const hasty = new UploadScanner(limits);
    try {
      const php = Buffer.from('<?php\n' + 'function f() { $a = array_map("trim", explode(",", "a,b")); return $a; }\n'.repeat(4000));
      expect(await hasty.scan('big.php', php)).toBeNull();
      limits.timeBudgetMs = 10_000; // the next thread gets time
      expect((await hasty.scan('up.php', shell))?.risk).toBe('high');
    } finally {
      await hasty.close();
    }
  }, 30_000);
});
