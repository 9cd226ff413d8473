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
    ],
    'path',
  );
  checkRobust(detectCrlf);
});
