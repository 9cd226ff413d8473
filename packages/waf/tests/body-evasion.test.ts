/**
 * Payloads hidden by how the body is framed or encoded rather than by the payload itself: a
 * compressed body, a UTF-16/32 document, a text field after a large file or after the closing
 * delimiter, a file name in RFC 2231 form, a repeated JSON key, single-quoted JSON, XML text split
 * by CDATA sections or comments. Each must be read; the same shapes sent by ordinary clients pass.
 */
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inspect } from '../src/inspect.ts';
import type { WafRequest } from '../src/types.ts';
import { browser, wire } from './protocol/wire.ts';

const sql = "1' union select password from users--";
const xss = '<script>alert(1)</script>';

function post(contentType: string | null, body: string | Buffer, extraHeaders = '', method = 'POST'): WafRequest {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const type = contentType === null ? '' : `Content-Type: ${contentType}\n`;
  const request = wire(`${method} /api/save HTTP/1.1\n${browser}\n${type}${extraHeaders}Content-Length: ${bytes.length}\n\n`);
  return { ...request, body: new Uint8Array(bytes) };
}

const blocked = (request: WafRequest) => expect(inspect(request, { mode: 'loose' })).toMatchObject({ action: 'block' });
const passes = (request: WafRequest) => expect(inspect(request, { mode: 'strict' })).toEqual({ action: 'pass' });

const part = (name: string, value: string, headers = '') => `Content-Disposition: form-data; name="${name}"\r\n${headers}\r\n${value}\r\n`;
const multipart = (parts: string[], boundary = 'XyZ') => parts.map((p) => `--${boundary}\r\n${p}`).join('') + `--${boundary}--\r\n`;
const formType = 'multipart/form-data; boundary=XyZ';

describe('a compressed body (Content-Encoding) is read inflated', () => {
  const json = JSON.stringify({ q: sql });
  it.each([
    ['gzip', zlib.gzipSync(json)],
    ['deflate', zlib.deflateSync(json)],
    ['deflate (raw, as some clients send it)', zlib.deflateRawSync(json)],
    ['br', zlib.brotliCompressSync(json)],
    ['gzip, br (stacked)', zlib.brotliCompressSync(zlib.gzipSync(json))],
  ])('%s', (coding, body) => {
    blocked(post('application/json', body, `Content-Encoding: ${coding.split(' (')[0]}\n`));
  });

  it('a gzip stream followed by garbage is read as far as it goes (Java and Go readers do)', () => {
    blocked(post('application/json', Buffer.concat([zlib.gzipSync(json), Buffer.from('garbage that is no gzip member')]), 'Content-Encoding: gzip\n'));
  });

  it('a compressed form and a compressed multipart body too', () => {
    blocked(post('application/x-www-form-urlencoded', zlib.gzipSync(`a=1&q=${encodeURIComponent(sql)}`), 'Content-Encoding: gzip\n'));
    blocked(post(formType, zlib.gzipSync(multipart([part('q', xss)])), 'Content-Encoding: gzip\n'));
  });

  it('a zip bomb is read up to the engine\'s window, and strict refuses what lies past it', () => {
    const bomb = zlib.gzipSync(`{"pad":"${'a'.repeat(4 * 1024 * 1024)}","q":"${sql}"}`);
    expect(bomb.length).toBeLessThan(16 * 1024);
    const start = performance.now();
    expect(inspect(post('application/json', bomb, 'Content-Encoding: gzip\n'), { mode: 'strict' })).toMatchObject({ action: 'block', rule: 'protocol.body_beyond_inspection' });
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it('a body that does not inflate, or a coding the engine does not know, is refused in strict only', () => {
    const broken = post('application/json', `{"q":"${sql}"}`.replace(/union/, 'un'), 'Content-Encoding: gzip\n');
    expect(inspect(broken, { mode: 'strict' })).toMatchObject({ action: 'block', rule: 'protocol.body_undecodable' });
    expect(inspect(broken, { mode: 'loose' }).action).not.toBe('block');
    expect(inspect(post('application/json', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2]), 'Content-Encoding: zstd\n'), { mode: 'strict' })).toMatchObject({ action: 'block', rule: 'protocol.restricted_header' });
  });

  it('ordinary compressed posts pass in strict: a Sentry event, an OTLP JSON export, a gzip form', () => {
    const event = { event_id: 'a1b2c3', level: 'error', message: "TypeError: Cannot read properties of undefined (reading 'id')", platform: 'javascript', tags: { release: '1.4.2' } };
    passes(post('application/json', zlib.gzipSync(JSON.stringify(event)), 'Content-Encoding: gzip\n'));
    const spans = { resourceSpans: [{ scopeSpans: [{ spans: Array.from({ length: 200 }, (_, i) => ({ name: `GET /api/items/${i}`, kind: 2, attributes: [{ key: 'http.status_code', value: { intValue: 200 } }] })) }] }] };
    passes(post('application/json', zlib.brotliCompressSync(JSON.stringify(spans)), 'Content-Encoding: br\n'));
    passes(post('application/x-www-form-urlencoded', zlib.deflateSync('name=Jane+Doe&city=M%C3%BCnchen'), 'Content-Encoding: deflate\n'));
  });
});

describe('a UTF-16 or UTF-32 body is read as text', () => {
  const json = JSON.stringify({ q: sql });
  const utf32le = (text: string) => {
    const out = Buffer.alloc(text.length * 4);
    for (let i = 0; i < text.length; i++) out.writeUInt32LE(text.charCodeAt(i), i * 4);
    return out;
  };
  it.each([
    ['UTF-16LE by charset', 'application/json; charset=utf-16le', Buffer.from(json, 'utf16le')],
    ['UTF-16BE with a BOM', 'application/json; charset=utf-16', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(json, 'utf16le').swap16()])],
    ['UTF-16LE without a charset (RFC 4627 detection)', 'application/json', Buffer.from(json, 'utf16le')],
    ['UTF-32LE', 'application/json; charset=utf-32', utf32le(json)],
    ['a UTF-16 XML document', 'application/xml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<?xml version="1.0" encoding="UTF-16"?><a>${xss}</a>`, 'utf16le')])],
    ['a UTF-16 form', 'application/x-www-form-urlencoded; charset=utf-16le', Buffer.from(`q=${encodeURIComponent(sql)}`, 'utf16le')],
  ])('%s', (_what, type, body) => {
    expect(inspect(post(type, body), { mode: 'loose' })).toMatchObject({ action: 'block', kind: /sqli|xss/ });
  });

  it('ordinary UTF-16 documents pass in strict (a .NET client, a Windows XML export)', () => {
    const order = JSON.stringify({ customer: 'Zoë Müller', note: 'Bitte an der Hintertür abgeben, danke!', items: [{ sku: 'A-17', qty: 2 }] });
    passes(post('application/json; charset=utf-16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(order, 'utf16le')])));
    passes(post('application/json', Buffer.from(order, 'utf16le')));
    passes(post('text/xml; charset=utf-16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<?xml version="1.0" encoding="utf-16"?><order><customer>Zoë</customer><qty>2</qty></order>', 'utf16le')])));
  });

  it('an ASCII form merely labelled UTF-16 is read as the bytes it is (PHP ignores the label)', () => {
    blocked(post('application/x-www-form-urlencoded; charset=utf-16', `q=${encodeURIComponent(sql)}`));
  });

  it('a binary upload with NUL bytes is not read as UTF-16', () => {
    passes(post('application/octet-stream', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52])));
  });
});

describe('multipart framing', () => {
  it('a text field after a file larger than the engine\'s window', () => {
    const file = `Content-Disposition: form-data; name="video"; filename="clip.mp4"\r\nContent-Type: video/mp4\r\n\r\n${'\u0007'.repeat(1200 * 1024)}\r\n`;
    blocked(post(formType, multipart([file, part('title', sql)])));
  });

  it('a text field after many files past the window, their contents not spending what text fields are read with', () => {
    const file = (i: number) => `Content-Disposition: form-data; name="f${i}"; filename="photo${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n${'\u0007'.repeat(300 * 1024)}\r\n`;
    const files = Array.from({ length: 8 }, (_, i) => file(i));
    blocked(post(formType, multipart([...files, part('caption', xss)])));
    passes(post(formType, multipart([...files, part('caption', 'Our holiday, day 2')])));
  });

  it('a web shell uploaded as the second file, after one larger than the window', () => {
    const video = `Content-Disposition: form-data; name="video"; filename="clip.mp4"\r\nContent-Type: video/mp4\r\n\r\n${'\u0007'.repeat(1200 * 1024)}\r\n`;
    const shell = `Content-Disposition: form-data; name="thumb"; filename="thumb.jpg"\r\nContent-Type: image/jpeg\r\n\r\n<?php @eval($_POST['cmd']); ?>\r\n`;
    blocked(post(formType, multipart([video, shell])));
  });

  it('text fields past the window longer than what is read: strict refuses, loose records', () => {
    const video = `Content-Disposition: form-data; name="video"; filename="clip.mp4"\r\nContent-Type: video/mp4\r\n\r\n${'\u0007'.repeat(1200 * 1024)}\r\n`;
    // Two base64 images as text fields (data URLs, as rich-text editors post them): 1.2 MB of text, past the 1 MiB read.
    const image = 'data:image/png;base64,' + 'iVBORw0KGgoAAAANSUhEUgAA'.repeat(25 * 1024);
    const request = post(formType, multipart([video, part('cover', image), part('thumb', image), part('q', sql)]));
    expect(inspect(request, { mode: 'strict' })).toMatchObject({ action: 'block', rule: 'protocol.body_beyond_inspection' });
    expect(inspect(request, { mode: 'loose' })).toMatchObject({ action: 'record', rule: 'protocol.body_beyond_inspection' });
  });

  it('a text field longer than the window, its payload past it: strict refuses', () => {
    const note = part('note', 'a'.repeat(900 * 1024) + ' ' + 'b'.repeat(200 * 1024) + ' ' + sql);
    expect(inspect(post(formType, multipart([note])), { mode: 'strict' })).toMatchObject({ action: 'block' });
  });

  it('the gateway\'s window ending inside a text field: strict refuses, a window ending inside a file passes', () => {
    const cutField = { ...post(formType, `--XyZ\r\n${part('note', 'x'.repeat(64 * 1024))}`.slice(0, 60 * 1024)), bodyTruncated: true };
    expect(inspect(cutField, { mode: 'strict' })).toMatchObject({ action: 'block', rule: 'protocol.body_beyond_inspection' });
    expect(inspect(cutField, { mode: 'loose' }).action).toBe('record');
    const cutFile = { ...post(formType, `--XyZ\r\n${part('title', 'Holiday')}--XyZ\r\nContent-Disposition: form-data; name="f"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\n${'\u0007'.repeat(64 * 1024)}`), bodyTruncated: true };
    passes(cutFile);
  });

  it('a field after the closing delimiter', () => {
    blocked(post(formType, multipart([part('a', 'hello')]) + `--XyZ\r\n${part('q', sql)}--XyZ--\r\n`));
  });

  it('a file name given as an RFC 2231 extended parameter', () => {
    blocked(post(formType, multipart([`Content-Disposition: form-data; name="f"; filename*=UTF-8''${encodeURIComponent(sql)}\r\n\r\nhello\r\n`])));
    blocked(post(formType, multipart([`Content-Disposition: form-data; name="f"; filename="a.txt"; filename*=UTF-8''${encodeURIComponent(xss)}\r\n\r\nhello\r\n`])));
    blocked(post(formType, multipart([`Content-Disposition: form-data; name="f"; filename*0*=UTF-8''1%27%20union; filename*1=" select password from users--"\r\n\r\nhello\r\n`])));
  });

  it('ordinary uploads pass in strict: a large video with its title after it, a non-ASCII file name in RFC 2231 form', () => {
    const file = `Content-Disposition: form-data; name="video"; filename="clip.mp4"\r\nContent-Type: video/mp4\r\n\r\n${'\u0007'.repeat(1200 * 1024)}\r\n`;
    passes(post(formType, multipart([file, part('title', 'Holiday in Crete, day 2'), part('tags', 'beach, family')])));
    passes(post(formType, multipart([`Content-Disposition: form-data; name="f"; filename*=utf-8''%E2%82%AC%20Rechnung%20M%C3%A4rz.pdf\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n`, part('comment', 'Invoice for March')])));
    passes(post(formType, multipart([part('name', 'Jane'), part('bio', "I'm a designer from O'Fallon, MO.")]) + '\r\n'));
  });
});

describe('JSON parsers disagree', () => {
  it('a repeated key: the shadowed value is read too', () => {
    blocked(post('application/json', `{"q":"${sql}","q":"ok"}`));
    blocked(post('application/json', `{"user":{"name":"${xss}"},"user":{"name":"Jane"}}`));
  });

  it('single-quoted JSON (Json.NET, JSON5 readers accept it)', () => {
    blocked(post('application/json', `{'q':'1\\' union select password from users--'}`));
  });

  it('ordinary JSON with the same strings repeated passes in strict', () => {
    passes(post('application/json', JSON.stringify({ a: { status: 'ok', tag: 'new' }, b: { status: 'ok', tag: 'new' }, c: ['ok', 'ok', "it's fine"] })));
  });
});

describe('XML text split by CDATA sections and comments', () => {
  it('is read joined, as the element\'s text', () => {
    blocked(post('application/xml', `<a><![CDATA[1' union sel]]><![CDATA[ect password from users--]]></a>`));
    blocked(post('application/xml', `<a>&lt;scr<!-- x -->ipt&gt;alert(1)&lt;/scr<!-- -->ipt&gt;</a>`));
  });

  it('internal entities are read expanded (libxml2, .NET and Java DOM expand them by default)', () => {
    blocked(post('application/xml', `<!DOCTYPE a [<!ENTITY a "1' union sel"><!ENTITY b "ect password from users--">]><a>&a;&b;</a>`));
  });

  it('a billion-laughs document is expanded within bounds', () => {
    let doc = '<!DOCTYPE a [<!ENTITY l0 "lol">';
    for (let i = 1; i < 10; i++) doc += `<!ENTITY l${i} "${`&l${i - 1};`.repeat(1000)}">`;
    doc += ']><a>' + '&l9;'.repeat(1000) + '</a>';
    const start = performance.now();
    inspect(post('application/xml', doc), { mode: 'loose' });
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it('ordinary XML with comments and CDATA passes in strict', () => {
    passes(post('application/xml', '<order><!-- web shop --><note><![CDATA[Leave at the door]]> please</note><qty>2</qty></order>'));
  });
});
