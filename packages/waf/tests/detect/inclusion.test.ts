import { describe, expect, it } from 'vitest';
import { detectFileInclusion } from '../../src/detect/inclusion/index.ts';
import { inspect } from '../../src/inspect.ts';
import type { WafRequest } from '../../src/types.ts';
import { checkAttacks, checkBenign, checkRobust } from './fixture-check.ts';

describe('file inclusion detector', () => {
  checkAttacks(detectFileInclusion, 'file_inclusion', [
    { value: 'php://filter/convert.base64-encode/resource=index.php', rule: 'inclusion.stream_wrapper' },
    { value: 'PHP://input' },
    { value: 'php://fd/3' },
    { value: 'expect://id' },
    { value: 'zip://uploads/a.zip#shell.php' },
    { value: 'phar://uploads/avatar.jpg/x.php' },
    { value: 'compress.zlib://php://input' },
    { value: 'file:///etc/passwd' },
    { value: 'netdoc:/etc/passwd' },
    { value: 'gopher://127.0.0.1:6379/_FLUSHALL' },
    { value: 'data://text/plain;base64,PD9waHAgc3lzdGVtKCRfR0VUWzFdKTs/Pg==', rule: 'inclusion.data_uri' },
    { value: 'data:text/plain,<?php phpinfo(); ?>' },
    { value: 'http://evil.example/shell.txt?', rule: 'inclusion.remote_url' },
    { value: 'https://evil.example/c99.txt%3f' },
    { value: '../../etc/passwd\u0000.jpg', rule: 'inclusion.null_byte' },
    { value: '../../etc/passwd%00' },
    { value: 'shell.php\u0000.png' },
    { value: 'http://66.240.183.75/crash.php', rule: 'inclusion.remote_url' },
    { value: 'https://[2001:41d0:701:1100::29c8]/gecko.php' },
    { value: 'url:file://etc/services' },
    { value: 'local_file://something' },
    { value: 'http://trusted.example%2f@evil.example/', rule: 'inclusion.deceptive_url' },
    { value: 'http://trusted.example%5c:x@evil.example/' },
  ]);
  checkBenign(detectFileInclusion, [
    { value: 'data:image/png;base64,iVBORw0KGgo=' },
    // headers are not percent-decoded nor included: `%00` there is three characters
    { value: 'example.com%00', location: 'header' },
    { value: 'https://user@mail.example/inbox' },
    { value: 'https://shop.example/search?q=a%2Fb&mail=x@y.example' },
    { value: 'https://example.com/page' },
    { value: 'see https://example.com/docs?' , location: 'body' },
    { value: 'time: 10:30' },
    { value: 'mailto:sam@example.com' },
    { value: 'https://example.com/page.php' },
    { value: 'http://cafe:8080/index.php' },
  ]);
  it('weighs a URL in an include-like parameter by its name', () => {
    expect(detectFileInclusion('http://evil.example/shell.txt', 'query', 'page')?.severity).toBe(2);
    expect(detectFileInclusion('https://partner.example/', 'query', 'include')?.severity).toBe(1);
    expect(detectFileInclusion('https://partner.example/', 'query', 'q')).toBeNull();
    expect(detectFileInclusion('https://foo.bar/x.txt', 'query', '_CONF[path]')?.severity).toBe(2);
    // A base path the application prepends to its includes: any URL there is inclusion.
    expect(detectFileInclusion('https://foo.bar', 'query', 'mosConfig_absolute_path')?.severity).toBe(2);
    expect(detectFileInclusion('https://foo.bar', 'query', '_CONF[path]')?.severity).toBe(2);
    expect(detectFileInclusion('http://203.0.113.7/', 'body', 'phpbb_root_path')?.severity).toBe(2);
    expect(detectFileInclusion('https://blog.example/post', 'body', 'url')).toBeNull();
  });
  checkRobust(detectFileInclusion);
});

describe('file inclusion: a URL parameter judged against the request\'s Host', () => {
  const on = (host: string) => ({ host });
  it.each([
    // FTP to another host: browsers dropped FTP, only a server-side fetch or include reads it.
    ['ftp://foo.bar', 'localhost', 'inclusion.remote_url'],
    ['ftps://mirror.evil.example/pub/', 'shop.example', 'inclusion.remote_url'],
    // The site's own name as the first labels of another domain: an allow-list bypass probe.
    ['https://example.com.evil.com/', 'example.com', 'inclusion.lookalike_host'],
    ['https://shop.example.attacker.example', 'shop.example:443', 'inclusion.lookalike_host'],
    // This host on a port it is not served on: the server reaching its own internal services.
    ['https://example.com:1234/', 'example.com', 'inclusion.own_host_port'],
    ['http://shop.example:6379/', 'shop.example:8443', 'inclusion.own_host_port'],
    // Another host's script source or text, the file include() runs.
    ['http://evil.example/shell.txt', 'shop.example', 'inclusion.remote_url'],
    ['https://files.evil.example/r57.inc', 'shop.example', 'inclusion.remote_url'],
  ])('flags %s on Host %s as suspicious (%s)', (url, host, rule) => {
    expect(detectFileInclusion(url, 'query', 'x', on(host))).toMatchObject({ kind: 'file_inclusion', rule, severity: 1 });
  });

  it('blocks the site\'s host written as the userinfo of a URL to another host in loose mode', () => {
    expect(detectFileInclusion('https://shop.example@evil.example/', 'query', 'next', on('shop.example'))).toMatchObject({ rule: 'inclusion.deceptive_url', severity: 2 });
    expect(detectFileInclusion('https://shop.example:pw@evil.example/', 'body', 'url', on('shop.example'))).toMatchObject({ severity: 2 });
  });

  it.each([
    // Another host alone is what applications take all day (the first is a CRS must-pass request).
    ['https://foo.bar', 'localhost', 'x'],
    ['https://evilexample.com/', 'localhost', 'x'],
    ['https://jane-doe.example.net/', 'blog.example', 'website'],
    ['https://client.example/oauth/callback.txt', 'id.example', 'redirect_uri'],
    ['https://shop.example/ipn/notify.txt', 'pay.example', 'notify_url'],
    ['https://cdn.example.com/uploads/2024/05/photo-12.jpg', 'www.example.com', 'image'],
    ['https://forum.example/viewtopic.php?t=42', 'blog.example', 'url'],
    // This host, its subdomains, its ports, userinfo naming another account.
    ['https://example.com/', 'example.com', 'x'],
    ['http://www.example.com/some/path', 'example.com', 'x'],
    ['http://foo:bar@example.com/', 'example.com', 'x'],
    ['https://example.com:443/account', 'example.com', 'next'],
    ['http://localhost:8080/dashboard', 'localhost:8080', 'next'],
    ['https://example.com./account', 'example.com', 'next'],
    ['https://www.example.com/readme.txt', 'example.com.', 'x'],
    ['https://static.shop.example/robots.txt', 'www.shop.example', 'x'],
    // A sister site under a country code, and an asset on a bucket named after the site.
    ['https://example.com.au/', 'example.com', 'next'],
    ['https://example.com.s3.amazonaws.com/uploads/avatar-7.png', 'example.com', 'avatar_url'],
  ])('passes %s on Host %s in %s', (url, host, name) => {
    expect(detectFileInclusion(url, 'query', name, on(host))).toBeNull();
  });

  it('judges only parameters, and nothing without a Host', () => {
    expect(detectFileInclusion('ftp://foo.bar', 'cookie', 'x', on('localhost'))).toBeNull();
    expect(detectFileInclusion('ftp://foo.bar', 'query', 'x')).toBeNull();
    expect(detectFileInclusion('ftp://foo.bar and more words', 'body', 'comment', on('localhost'))).toBeNull();
  });

  it('is handed the Host by the pipeline', () => {
    const get = (target: string, host: string): WafRequest => ({ method: 'GET', target, headers: [['Host', host]], clientIp: '203.0.113.5', body: null, bodyTruncated: false, now: 0 });
    const only = { mode: 'strict', kinds: ['file_inclusion'] } as const;
    expect(inspect(get('/get?x=https://example.com:1234/', 'Example.com'), only)).toMatchObject({ action: 'block', rule: 'inclusion.own_host_port', name: 'x' });
    expect(inspect(get('/get?x=https://example.com/', 'example.com'), only)).toEqual({ action: 'pass' });
    expect(inspect(get('/get?x=https://example.com:1234/', 'example.com'), { ...only, mode: 'loose' })).toMatchObject({ action: 'record', rule: 'inclusion.own_host_port' });
  });
});
