import { describe, expect, it } from 'vitest';
import { parseAccessLog, type ParsedFields } from '../../src/index.ts';

const t = (iso: string) => Date.parse(iso);

describe('access-log lines', () => {
  const cases: [string, string, number, ParsedFields][] = [
    [
      'nginx combined',
      '203.0.113.9 - - [22/Nov/2026:01:02:03 +0800] "GET /index.php?id=1 HTTP/1.1" 404 153 "-" "Mozilla/5.0 (X11; Linux x86_64)"',
      t('2026-11-22T01:02:03+08:00'),
      { kind: 'http_request', ip: '203.0.113.9', method: 'GET', path: '/index.php', query: 'id=1', protocol: 'HTTP/1.1', status: 404, bytes: 153, userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' },
    ],
    [
      'nginx main (X-Forwarded-For after the agent is ignored)',
      '203.0.113.9 - alice [22/Nov/2026:01:02:03 +0000] "POST /wp-login.php HTTP/1.1" 200 4521 "https://example.com/" "curl/8.5.0" "198.51.100.7, 10.0.0.1"',
      t('2026-11-22T01:02:03Z'),
      { kind: 'http_request', ip: '203.0.113.9', user: 'alice', method: 'POST', path: '/wp-login.php', protocol: 'HTTP/1.1', status: 200, bytes: 4521, referer: 'https://example.com/', userAgent: 'curl/8.5.0' },
    ],
    [
      'nginx escapes: \\x22 for a quote, bytes of a UTF-8 path',
      '2001:DB8::1 - - [22/Nov/2026:01:02:03 -0130] "GET /\\xE4\\xB8\\xAD/a\\x22b HTTP/1.1" 400 0 "-" "say \\x22hi\\x22"',
      t('2026-11-22T01:02:03-01:30'),
      { kind: 'http_request', ip: '2001:db8::1', method: 'GET', path: '/中/a"b', protocol: 'HTTP/1.1', status: 400, bytes: 0, userAgent: 'say "hi"' },
    ],
    [
      'nginx: a TLS hello sent to a plain HTTP port',
      '203.0.113.9 - - [22/Nov/2026:01:02:03 +0000] "\\x16\\x03\\x01\\x02\\x00\\x01\\x00\\x01\\xFC\\x03\\x03" 400 157 "-" "-"',
      t('2026-11-22T01:02:03Z'),
      { kind: 'http_request', ip: '203.0.113.9', status: 400, bytes: 157 },
    ],
    [
      'Apache common, IPv6, "-" size',
      '2001:db8::1 - frank [22/Nov/2026:01:02:03 -0500] "POST /login HTTP/1.0" 302 -',
      t('2026-11-22T01:02:03-05:00'),
      { kind: 'http_request', ip: '2001:db8::1', user: 'frank', method: 'POST', path: '/login', protocol: 'HTTP/1.0', status: 302, bytes: 0 },
    ],
    [
      'Apache combined with \\" and \\\\ escapes',
      '203.0.113.9 - - [22/Nov/2026:01:02:03 +0000] "GET /search?q=\\"x\\" HTTP/1.1" 200 512 "http://ex.com/\\"r\\"" "UA \\"quoted\\" \\\\ back"',
      t('2026-11-22T01:02:03Z'),
      { kind: 'http_request', ip: '203.0.113.9', method: 'GET', path: '/search', query: 'q="x"', protocol: 'HTTP/1.1', status: 200, bytes: 512, referer: 'http://ex.com/"r"', userAgent: 'UA "quoted" \\ back' },
    ],
    [
      'Apache vhost_combined',
      'www.example.com:443 203.0.113.9 - - [22/Nov/2026:01:02:03 +0000] "GET /admin/ HTTP/2.0" 403 199 "-" "sqlmap/1.7"',
      t('2026-11-22T01:02:03Z'),
      { kind: 'http_request', host: 'www.example.com', ip: '203.0.113.9', method: 'GET', path: '/admin/', protocol: 'HTTP/2.0', status: 403, bytes: 199, userAgent: 'sqlmap/1.7' },
    ],
    [
      'Apache: a request that never came ("-", 408)',
      '203.0.113.9 - - [22/Nov/2026:01:02:03 +0000] "-" 408 -',
      t('2026-11-22T01:02:03Z'),
      { kind: 'http_request', ip: '203.0.113.9', status: 408, bytes: 0 },
    ],
    [
      'a request target with a space (HTTP/0.9 style, no protocol)',
      '203.0.113.9 - - [22/Nov/2026:01:02:03 +0000] "GET /a b" 400 0 "-" "-"',
      t('2026-11-22T01:02:03Z'),
      { kind: 'http_request', ip: '203.0.113.9', method: 'GET', path: '/a b', status: 400, bytes: 0 },
    ],
  ];
  for (const [name, line, time, fields] of cases) {
    it(name, () => {
      expect(parseAccessLog(line)).toEqual({ time, fields });
    });
  }

  it('returns nothing for what is not an access-log line (never throws)', () => {
    const bad = [
      '',
      'garbage',
      '203.0.113.9 - - [22/Nov/2026:01:02:03 +0000] "GET / HTTP/1.1" 200', // no size
      '203.0.113.9 - - [31/Feb/2026:01:02:03 +0000] "GET / HTTP/1.1" 200 1', // no such day
      '203.0.113.9 - - [22/Nov/2026:25:02:03 +0000] "GET / HTTP/1.1" 200 1', // no such hour
      '203.0.113.9 - - [22/Nov/2026:01:02:03] "GET / HTTP/1.1" 200 1', // no zone
      'crawler.example.com - - [22/Nov/2026:01:02:03 +0000] "GET / HTTP/1.1" 200 1', // HostnameLookups: no address
      '203.0.113.9 - - [22/Nov/2026:01:02:03 +0000] "GET / HTTP/1.1 200 1', // unterminated quote
      '\u0000\uffff'.repeat(100),
    ];
    for (const line of bad) expect(parseAccessLog(line), line).toBeUndefined();
  });
});
