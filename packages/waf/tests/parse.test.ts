import { describe, expect, it } from 'vitest';
import { declaredBodyKind, parseContentType, sniffBodyKind } from '../src/parse/content-type.ts';
import { flattenJson, lenientJsonStrings } from '../src/parse/json.ts';
import { parseMultipart } from '../src/parse/multipart.ts';
import { parseCookies, parseUrlencoded } from '../src/parse/pairs.ts';
import { tokenizeXml } from '../src/parse/xml.ts';

describe('urlencoded pairs', () => {
  it('keeps repeated keys, bare names and raw (still encoded) values', () => {
    expect(parseUrlencoded('a=1&a=2&flag&b=%26x%3D&&c=', 100)).toEqual([
      { name: 'a', value: '1', bare: false },
      { name: 'a', value: '2', bare: false },
      { name: 'flag', value: '', bare: true },
      { name: 'b', value: '%26x%3D', bare: false },
      { name: 'c', value: '', bare: false },
    ]);
  });
  it('is bounded', () => {
    expect(parseUrlencoded('a=1&'.repeat(10_000), 50)).toHaveLength(50);
  });
  it('splits cookies on ; and trims', () => {
    expect(parseCookies('sid=abc; theme=dark;x', 10).map((c) => [c.name, c.value])).toEqual([['sid', 'abc'], ['theme', 'dark'], ['x', '']]);
  });
});

describe('multipart', () => {
  const body = [
    '--XyZ',
    'Content-Disposition: form-data; name="title"',
    '',
    'Hello é',
    '--XyZ',
    'Content-Disposition: form-data; name="upload"; filename="shell;1.php"',
    'Content-Type: application/octet-stream',
    '',
    '<?php system($_GET["c"]); ?>',
    '--XyZ--',
    '',
  ].join('\r\n');
  it('gives fields, file names and file heads', () => {
    const parts = parseMultipart(Buffer.from(body, 'utf8').toString('latin1'), 'XyZ', { maxParts: 10, maxFileHead: 10 });
    expect(parts).toEqual([
      { name: 'title', fileName: null, contentType: '', disposition: 'form-data; name="title"', transferEncoding: '', value: 'Hello é' },
      {
        name: 'upload',
        fileName: 'shell;1.php',
        contentType: 'application/octet-stream',
        disposition: 'form-data; name="upload"; filename="shell;1.php"',
        transferEncoding: '',
        value: '<?php syst',
      },
    ]);
  });
  it('accepts bare LF line ends and a truncated last part', () => {
    const parts = parseMultipart('--b\nContent-Disposition: form-data; name="x"\n\nvalue cut', 'b', { maxParts: 10, maxFileHead: 100 });
    expect(parts).toMatchObject([{ name: 'x', fileName: null, contentType: '', value: 'value cut' }]);
  });
  it('returns nothing without a usable boundary', () => {
    expect(parseMultipart(body, '', { maxParts: 10, maxFileHead: 10 })).toEqual([]);
  });
});

describe('JSON', () => {
  it('flattens keys and leaf strings with paths', () => {
    const leaves = flattenJson('{"a":{"b":[1,"x",{"c":"y"}]},"n":null}', { maxDepth: 10, maxLeaves: 100 });
    expect(leaves).toContainEqual({ path: 'a.b[1]', value: 'x', isKey: false });
    expect(leaves).toContainEqual({ path: 'a.b[2].c', value: 'y', isKey: false });
    expect(leaves).toContainEqual({ path: 'a', value: 'a', isKey: true });
    expect(leaves?.some((l) => l.value === '1')).toBe(false);
  });
  it('gives null for non-JSON and bounds depth', () => {
    expect(flattenJson("' or 1=1", { maxDepth: 10, maxLeaves: 10 })).toBeNull();
    const deep = '['.repeat(5000) + '"x"' + ']'.repeat(5000);
    // Past maxDepth the leaves are still read; only their paths stop growing.
    expect(flattenJson(deep, { maxDepth: 32, maxLeaves: 10 })).toEqual([{ path: '[0]'.repeat(32), value: 'x', isKey: false }]);
  });
});

describe('broken JSON', () => {
  it('still yields its string literals, keeping invalid escapes visible', () => {
    expect(lenientJsonStrings('{"test": true, "a": "\\\'-alert(1)//", "b": "x"y"}', 10)).toEqual(['test', 'a', "\\'-alert(1)//", 'b', 'x', '}']);
  });
});

describe('XML', () => {
  it('surfaces text, attributes, CDATA and processing instructions', () => {
    const items = tokenizeXml('<?xml version="1.0"?><a id="7"><b>hi</b><![CDATA[<x>]]></a>', 100);
    expect(items).toContainEqual({ kind: 'attribute', name: 'a@id', value: '7' });
    expect(items).toContainEqual({ kind: 'text', name: 'b', value: 'hi' });
    expect(items).toContainEqual({ kind: 'text', name: 'a', value: '<x>' });
    expect(items[0]).toMatchObject({ kind: 'pi', name: '?xml' });
  });
  it('surfaces DOCTYPE and ENTITY declarations verbatim, never resolving them', () => {
    const xml = '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd"> <!ENTITY % p SYSTEM "http://e/x.dtd">]><r>&x;</r>';
    const items = tokenizeXml(xml, 100);
    expect(items.find((i) => i.kind === 'doctype')?.value).toContain('<!ENTITY x SYSTEM "file:///etc/passwd">');
    expect(items.filter((i) => i.kind === 'entity').map((i) => i.value)).toEqual(['<!ENTITY x SYSTEM "file:///etc/passwd">', '<!ENTITY % p SYSTEM "http://e/x.dtd">']);
    expect(items).toContainEqual({ kind: 'text', name: 'r', value: '&x;' });
  });
  it('tolerates broken markup', () => {
    expect(() => tokenizeXml('<a b="<c <<>> </d> <!-- <![CDATA[', 100)).not.toThrow();
  });
});

describe('content type', () => {
  it('parses the header and its parameters', () => {
    const type = parseContentType('Multipart/Form-Data; boundary="abc"; charset=utf-8');
    expect(type).toEqual({ mediaType: 'multipart/form-data', params: { boundary: 'abc', charset: 'utf-8' } });
    expect(declaredBodyKind(type)).toBe('multipart');
    expect(declaredBodyKind(parseContentType('application/vnd.api+json'))).toBe('json');
  });
  it('sniffs the body when the header is missing or lies', () => {
    expect(sniffBodyKind(' {"a":1}')).toBe('json');
    expect(sniffBodyKind('<?xml version="1.0"?><a/>')).toBe('xml');
    expect(sniffBodyKind('a=1&b=2')).toBe('urlencoded');
    expect(sniffBodyKind('--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1')).toBe('multipart');
    expect(sniffBodyKind('just some words = here')).toBe('text');
  });
});
