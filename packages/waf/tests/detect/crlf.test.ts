import { describe } from 'vitest';
import { detectCrlf } from '../../src/detect/crlf/index.ts';
import { checkAttacks, checkBenign, checkRobust } from './fixture-check.ts';

describe('CRLF / header injection detector', () => {
  checkAttacks(
    detectCrlf,
    'crlf',
    [
      { value: '\r\nSet-Cookie: crlf=injection', rule: 'crlf.header_injection' },
      { value: '/a\nSet-cookie:crlf=injection' },
      { value: '%0d%0aSet-Cookie:crlf=injection' },
      { value: '%0a%0dSet-cookie:crlf=injection' },
      { value: '%250d%250aLocation: http://evil.example/' },
      { value: '\u560d\u560aSet-cookie:crlf=injection' },
      { value: '%E5%98%8D%E5%98%8ASet-Cookie:x=1' },
      { value: '\\r\\nLocation: http://evil/', location: 'query' },
      { value: 'x\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK', location: 'query' },
      { value: 'en\r\nX-Injected: 1', location: 'header', severity: 1 },
      { value: 'lang=en\r\nHTTP/1.1 200 OK', location: 'cookie', rule: 'crlf.response_splitting' },
      { value: 'hi\r\nSet-Cookie: a=b', location: 'body', severity: 1 },
      // Built to end a line: a form value that starts with the break, or one word and a request line.
      { value: '\r\nContent-Length: 0', location: 'body', severity: 2 },
      { value: 'aaa\nGET / HTTP/1.1', location: 'body', rule: 'crlf.request_smuggling', severity: 2 },
      { value: 'x\r\nPOST /admin HTTP/1.1\r\nHost: internal', location: 'query', rule: 'crlf.request_smuggling' },
      { value: 'GET http://www.example.org HTTP/1.1', location: 'query', rule: 'crlf.request_smuggling', severity: 2 },
      { value: 'munch%0d%0a%0d%0a<html><body>owned', location: 'cookie', rule: 'crlf.response_splitting' },
      { value: 'a%0d%0aRemote-Addr: 127.0.0.1', location: 'query', severity: 2 },
      { value: 'Headerdata%0dInjected-Header: x', location: 'header', severity: 1 },
      // An encoded break in a header value that is no URL: any header line after it is injected.
      { value: 'Headerdata%0dInjectedheader: yes', location: 'header', severity: 2, rule: 'crlf.header_injection' },
      { value: 'en&#13;&#10;Vary: forged', location: 'header', severity: 2, rule: 'crlf.header_injection' },
      { value: 'fr&#x0a;Location: http://evil.example/', location: 'header', severity: 2 },
      // XML: a break written as a character reference, then a request or status line.
      { value: 'x&#13;&#10;HTTP/1.1 200 OK&#13;&#10;Content-Length: 5', location: 'xml', rule: 'crlf.response_splitting' },
      { value: '&#10;PUT /admin/users HTTP/1.1', location: 'xml', rule: 'crlf.request_smuggling' },
      { value: 'a&#x0D;&#x0A;GET /internal HTTP/1.0', location: 'xml', rule: 'crlf.request_smuggling' },
      // A one-word query or cookie value that breaks into a `name=value` line.
      { value: 'test%0anext=more', location: 'query', rule: 'crlf.line_injection' },
      { value: 'ok%0D%0Aadmin=1', location: 'query', rule: 'crlf.line_injection' },
      { value: 'abc%0d%0arole=admin', location: 'cookie', rule: 'crlf.line_injection' },
      // Overlong UTF-8 breaks (%c0%8a is LF to a lenient decoder).
      { value: 'x%c0%8d%c0%8aSet-Cookie: admin=1', location: 'query', rule: 'crlf.header_injection' },
      { value: 'en%e0%80%8aRefresh: 0;url=http://evil.example/', location: 'header', rule: 'crlf.header_injection' },
    ],
    'path',
  );
  checkBenign(
    detectCrlf,
    [
      { value: 'hello world' },
      { value: 'Dear Sam,\r\nName: John\r\nPhone: 555', location: 'body' },
      { value: 'line one\nline two', location: 'query' },
      { value: 'discount 100%0 off' },
      { value: 'Set-Cookie: described in RFC 6265', location: 'query' },
      { value: '\n\rlocation:\n\r', location: 'query' },
      { value: 'To test, send:\nGET / HTTP/1.1\nHost: example.org', location: 'body', below: 2 },
      { value: '<a>\n<b/></a>', location: 'xml' },
      // XML text is full of typed breaks; a reference break before prose or a header-like line is formatting.
      { value: 'To test, send:\nGET / HTTP/1.1', location: 'xml' },
      { value: 'Price&#10;per unit', location: 'xml' },
      { value: 'Note&#13;&#10;Location: Paris', location: 'xml' },
      // A URL in a header (Referer) may carry a textarea's break in its query.
      { value: 'https://shop.example/search?q=hi%0D%0ANote:%20thanks', location: 'header' },
      { value: '/search?q=hi%0D%0ANote:%20thanks', location: 'header' },
      // A client's encoded multi-line message in a custom header: prose before the break.
      { value: 'Upload%20failed%0AReason:%20timeout', location: 'header' },
      // Query values: prose with a break, base64 wrapped at a line, a Windows path, a bare break.
      { value: 'Dear%20Sam%0Aname=John', location: 'query' },
      { value: 'Dear+Sam%0Aname=John', location: 'query' },
      { value: 'QUJDREVGR0hJSktM%0AR0g=', location: 'query' },
      { value: 'C:\\new=1', location: 'query' },
      { value: 'a%0Ab', location: 'query' },
      { value: 'caf%C3%A9%20Lyon', location: 'query' },
      { value: 'line one%0Aname=value', location: 'body', below: 2 },
    ],
    'path',
  );
  checkRobust(detectCrlf);
});
