/**
 * Known-answer checks of the request builders, run by `run.ts --self-check` (benches are not in the
 * vitest projects). Each expected string was worked out by hand from gotestwaf's and go-ftw's Go
 * source; a failure prints what was built.
 */
import { ftwWire } from './crs-regression.ts';
import { applyEncoder, goPath, goQueryEscape, goXmlEntity, jsUnicode } from './gotestwaf.ts';
import { parseResponse } from './client.ts';

export function knownAnswers(): { name: string; ok: boolean; got: string }[] {
  const cases: [string, () => string, string][] = [
    ['QueryEscape', () => goQueryEscape("a b<'é"), 'a+b%3C%27%C3%A9'],
    ['Base64Flat drops padding', () => applyEncoder('Base64Flat', 'ab'), 'YWI'],
    ['JSUnicode per UTF-16 unit', () => jsUnicode('<é😀'), '\\u003c\\u00e9\\ud83d\\ude00'],
    ['XMLEntity as Go encodes a string', () => goXmlEntity(`<a href="x">'&\n`), '<string>&lt;a href=&#34;x&#34;&gt;&#39;&amp;&#xA;</string>'],
    ['path kept when validly encoded', () => goPath("/%0d%0aSet-Cookie:crlf=injection"), '/%0d%0aSet-Cookie:crlf=injection'],
    ['path re-escaped like Go', () => goPath('/a b<c>%41'), '/a%20b%3Cc%3EA'],
    ['path with a bad escape sent as is', () => goPath('/%zz x'), '/%zz%20x'],
    ['go-ftw form data, headers sorted', () => ftwWire({ method: 'POST', uri: '/post', headers: { 'User-Agent': 'ua', Host: 'localhost' }, data: "var=1 OR '1'='1" }).toString(),
      "POST /post HTTP/1.1\r\nConnection: close\r\nContent-Length: 23\r\nContent-Type: application/x-www-form-urlencoded\r\nHost: localhost\r\nUser-Agent: ua\r\n\r\nvar=1+OR+%271%27%3D%271"],
    ['go-ftw without autocomplete', () => ftwWire({ method: 'GET', uri: '/', headers: { Host: 'h' }, autocomplete_headers: false }).toString(), 'GET / HTTP/1.1\r\nHost: h\r\n\r\n'],
    ['response: 100 skipped, chunked end', () => JSON.stringify(parseResponse(Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 403 Forbidden\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n'), false)), '{"status":403,"headEnd":79,"bodyEnd":92,"close":false}'],
  ];
  return cases.map(([name, build, want]) => {
    const got = build();
    return { name, ok: got === want, got };
  });
}
