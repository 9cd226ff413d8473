import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { carriedFiles, decodeCarried, jsonFields, mayBeScript, urlencodedFields } from '../src/embedded-files.ts';
import { carriedReaderFor, defaultUploadScanLimits, UploadFiles, type UploadedFile } from '../src/upload-scan.ts';
import { jpeg, png } from './harness/upload-samples.ts';

// Files carried in form and JSON fields as base64 (embedded-files.ts): what is decoded, named and handed to the scan.

const max = defaultUploadScanLimits.maxFileBytes;
const shell = Buffer.from("<?php /* avatar */ if (isset($_REQUEST['x'])) { system($_REQUEST['x']); } ?>");
const b64 = (b: Buffer) => b.toString('base64');

describe('decodeCarried and mayBeScript', () => {
  it('decodes long strict base64, URL-safe base64 and data: URLs, and nothing else', () => {
    expect(decodeCarried(b64(shell), max)?.equals(shell)).toBe(true);
    expect(decodeCarried(shell.toString('base64url'), max)?.equals(shell)).toBe(true);
    expect(decodeCarried(`data:text/plain;charset=utf-8;base64,${b64(shell)}`, max)?.equals(shell)).toBe(true);
    // MIME-style line breaks every 76 characters.
    const long = Buffer.concat([shell, shell, shell]);
    expect(decodeCarried(b64(long).replace(/.{76}/g, '$&\r\n'), max)?.equals(long)).toBe(true);
    expect(decodeCarried(b64(shell).slice(0, 60), max)).toBeNull();
    expect(decodeCarried(`${b64(shell)} and words`, max)).toBeNull();
    expect(decodeCarried('a'.repeat(65), max)).toBeNull();
    expect(decodeCarried(b64(randomBytes(3000)), 1000)).toBeNull();
  });

  it('keeps script text and images with script inside; drops images, PDFs and random bytes', () => {
    expect(mayBeScript(shell)).toBe(true);
    expect(mayBeScript(Buffer.from('<%@ Page Language="C#" %><% Response.Write("x"); %>'))).toBe(true);
    expect(mayBeScript(Buffer.concat([jpeg(5000), shell]))).toBe(true);
    expect(mayBeScript(png(32, 32))).toBe(false);
    expect(mayBeScript(Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(4000)]))).toBe(false);
    // 2,000 random payloads: none would cost the engine.
    let kept = 0;
    for (let i = 0; i < 2000; i++) if (mayBeScript(randomBytes(2048))) kept++;
    expect(kept).toBe(0);
  });
});

describe('carried files', () => {
  it('names a JSON file by its object name field, else by its key, and bounds the count', () => {
    const doc = JSON.stringify({ a: { name: 'x.php', file: b64(shell) }, b: [{ data: b64(shell) }], note: 'hi' });
    expect(carriedFiles(jsonFields(doc), max).map((f) => [f.field, f.fileName, f.embedded, f.bytes?.equals(shell)])).toEqual([['file', 'x.php', true, true], ['data', 'data', true, true]]);
    const many = JSON.stringify(Array.from({ length: 20 }, () => ({ f: b64(shell) })));
    expect(carriedFiles(jsonFields(many), max)).toHaveLength(4);
    expect(carriedFiles(jsonFields('{"broken": '), max)).toEqual([]);
  });

  it('names a form field by the form name field, bracketed ones by their own', () => {
    const body = new URLSearchParams({ 'up[filename]': 'a.phtml', 'up[data]': `data:image/png;base64,${b64(shell)}`, name: 'top.php', other: b64(shell) }).toString();
    expect(carriedFiles(urlencodedFields(body), max).map((f) => [f.field, f.fileName])).toEqual([['up[data]', 'a.phtml'], ['other', 'top.php']]);
  });

  it('reads multipart text fields as they stream, named by a name field that comes after them', () => {
    const boundary = '----carried';
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body = Buffer.from(part('content', b64(shell)) + part('filename', 's.php') + part('avatar', b64(png(20, 20))) + `--${boundary}--\r\n`);
    const files = new UploadFiles(boundary, max, true);
    const out: UploadedFile[] = [];
    for (let at = 0; at < body.length; at += 7) out.push(...files.push(body.subarray(at, at + 7)));
    out.push(...files.end());
    expect(out.map((f) => [f.field, f.fileName, f.embedded])).toEqual([['content', 's.php', true]]);
  });
});

/*
 * The recorded real traffic of bench/waf-quality/recorded (WordPress, phpMyAdmin, MediaWiki,
 * Roundcube, DokuWiki, analytics SDK beacons with base64 payloads): no request carries a file by
 * these rules. Every body is read as JSON and as a form whatever its type (stricter than the
 * gateway, which reads each by its type), and multipart bodies by their parts.
 */
describe('recorded real traffic', () => {
  const folder = new URL('../../../bench/waf-quality/recorded/', import.meta.url);
  it('flags no field of any recorded request', () => {
    const flagged: string[] = [];
    let bodies = 0;
    let decoded = 0;
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.ndjson')).sort()) {
      for (const [index, line] of readFileSync(new URL(file, folder), 'utf8').split('\n').entries()) {
        if (!line.trim()) continue;
        const entry = JSON.parse(line) as { headers: [string, string][]; body: string };
        const body = Buffer.from(entry.body, 'base64');
        if (body.length === 0) continue;
        bodies++;
        const type = entry.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
        const text = body.toString('utf8');
        const found: UploadedFile[] = [...carriedFiles(jsonFields(text), max), ...carriedFiles(urlencodedFields(text), max)];
        for (const [, value] of new URLSearchParams(text)) if (decodeCarried(value, max)) decoded++;
        for (const reader of [carriedReaderFor('application/json', max), carriedReaderFor(type, max)]) {
          const r = reader?.();
          if (r) found.push(...r.push(body), ...r.end());
        }
        const boundary = /boundary=([^;\s]+)/.exec(type)?.[1];
        if (boundary) {
          const parts = new UploadFiles(boundary, max, true);
          found.push(...[...parts.push(body), ...parts.end()].filter((f) => f.embedded));
        }
        for (const f of found) flagged.push(`${file}:${index + 1} ${f.field} as ${f.fileName}`);
      }
    }
    expect(bodies).toBeGreaterThan(500);
    // The set does hold long base64 values (the SDK beacons'): they are decoded and let go.
    expect(decoded).toBeGreaterThan(0);
    expect(flagged).toEqual([]);
  });
});
