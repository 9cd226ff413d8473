/**
 * Requests for the request-level checks, written by hand from the shapes of CRS 911-943 and the
 * RFCs (not copied from any corpus). `attacks`: the rule and severity each must produce;
 * `suspicious`: odd but real clients send them, severity 1 at most; `benign`: no finding at all.
 */
import { browser } from './wire.ts';

export interface Fixture {
  what: string;
  wire: string;
  rule?: string;
  severity?: 1 | 2;
}

const form = (body: string, type = 'application/x-www-form-urlencoded') => `POST /account HTTP/1.1\n${browser}\nContent-Type: ${type}\nContent-Length: ${body.length}\n\n${body}`;
const multipart = (part: string) => form(`--XyZ\r\n${part}\r\n--XyZ--\r\n`, 'multipart/form-data; boundary=XyZ');

export const attacks: Fixture[] = [
  { what: 'method with a pipe', wire: `|GET / HTTP/1.1\n${browser}\n\n`, rule: 'protocol.method_syntax', severity: 2 },
  { what: 'target without leading slash', wire: `GET index.html HTTP/1.1\n${browser}\n\n`, rule: 'protocol.target_syntax', severity: 2 },
  { what: 'overlong UTF-8 slash', wire: `GET /scripts/..%c0%af../winnt/system32/cmd.exe HTTP/1.1\n${browser}\n\n`, rule: 'protocol.overlong_utf8', severity: 2 },
  { what: 'absolute target naming another host than Host', wire: 'GET http://internal.example/admin HTTP/1.1\nHost: shop.example\nUser-Agent: x/1\n\n', rule: 'protocol.absolute_target_host', severity: 2 },
  { what: 'NUL in a query name', wire: `GET /?test%00=1 HTTP/1.1\n${browser}\n\n`, rule: 'protocol.nul_byte', severity: 2 },
  { what: 'full-width %uFF0F escape', wire: `GET /get?file=%uff0e%uff0e%uff0fetc HTTP/1.1\n${browser}\n\n`, rule: 'protocol.fullwidth_escape', severity: 2 },
  { what: 'line break in the path (PHP-FPM CVE-2019-11043)', wire: `GET /index.php/PHP%0Ainfo.php?QQQ HTTP/1.1\n${browser}\n\n`, rule: 'protocol.path_line_break', severity: 2 },
  { what: 'mod_proxy unix socket SSRF', wire: `GET /?unix:${'A'.repeat(50)}|http://internal.example/ HTTP/1.1\n${browser}\n\n`, rule: 'protocol.proxy_unix_socket', severity: 2 },
  { what: 'empty Host', wire: 'GET / HTTP/1.1\nHost: \nUser-Agent: curl/8.5.0\nAccept: */*\n\n', rule: 'protocol.host_empty', severity: 2 },
  { what: 'two Host headers', wire: 'GET / HTTP/1.1\nHost: shop.example\nHost: evil.example\nUser-Agent: curl/8.5.0\n\n', rule: 'protocol.host_repeated', severity: 2 },
  { what: 'markup in Host (reset-link poisoning)', wire: 'GET / HTTP/1.1\nHost: evil.example/<x>\nUser-Agent: curl/8.5.0\n\n', rule: 'protocol.host_syntax', severity: 2 },
  { what: 'X-Original-URL naming the admin area', wire: `GET /public HTTP/1.1\n${browser}\nX-Original-URL: /admin/users\n\n`, rule: 'protocol.url_override', severity: 2 },
  { what: 'markup in X-Forwarded-Host', wire: `GET /reset HTTP/1.1\n${browser}\nX-Forwarded-Host: evil.example/"><x\n\n`, rule: 'protocol.forwarded_host', severity: 2 },
  { what: 'httpoxy', wire: `GET /cgi-bin/x HTTP/1.1\n${browser}\nProxy: http://203.0.113.5:8080\n\n`, rule: 'protocol.httpoxy', severity: 2 },
  { what: 'Accept asking for EBCDIC', wire: 'GET / HTTP/1.1\nHost: shop.example\nUser-Agent: x/1\nAccept: text/html; charset=CP1026\n\n', rule: 'protocol.accept_charset', severity: 2 },
  { what: 'Apache killer ranges', wire: `GET /big.pdf HTTP/1.1\n${browser}\nRange: bytes=0-,5-0,5-1,5-2,5-3,5-4,5-5,5-6\n\n`, rule: 'protocol.range_flood', severity: 2 },
  { what: 'Content-Length and chunked together', wire: `POST / HTTP/1.1\n${browser}\nContent-Type: text/plain\nContent-Length: 4\nTransfer-Encoding: chunked\n\n`, rule: 'protocol.length_and_chunked', severity: 2 },
  { what: 'obfuscated Transfer-Encoding', wire: `POST / HTTP/1.1\n${browser}\nContent-Type: text/plain\nTransfer-Encoding: chunked, identity\n\n`, rule: 'protocol.transfer_encoding_obfuscated', severity: 2 },
  { what: 'non-numeric Content-Length', wire: `POST / HTTP/1.1\n${browser}\nContent-Type: text/plain\nContent-Length: 3 4\n\n`, rule: 'protocol.content_length_syntax', severity: 2 },
  { what: 'HEAD with a body', wire: `HEAD / HTTP/1.1\n${browser}\nContent-Type: text/plain\nContent-Length: 4\n\ntest`, rule: 'protocol.body_on_head', severity: 2 },
  { what: 'two Content-Type headers on a body', wire: `POST /api HTTP/1.1\n${browser}\nContent-Type: application/x-www-form-urlencoded\nContent-Type: application/xml\nContent-Length: 3\n\na=1`, rule: 'protocol.content_type_repeated', severity: 2 },
  { what: 'UTF-7 body charset', wire: form('a=%2BADw-script%2BAD4-', 'application/x-www-form-urlencoded; charset=utf-7'), rule: 'protocol.charset_dangerous', severity: 2 },
  { what: 'a charset of no family', wire: form('a=1', 'application/x-www-form-urlencoded; charset=garbage'), rule: 'protocol.charset_unknown', severity: 2 },
  { what: 'two charsets', wire: form('a=1', 'application/x-www-form-urlencoded; charset=utf-8; charset=ibm037'), rule: 'protocol.charset_repeated', severity: 2 },
  { what: 'media type as boundary', wire: form('', 'application/x-www-form-urlencoded;boundary="application/json"'), rule: 'protocol.content_type_confusion', severity: 2 },
  { what: 'Struts OGNL Content-Type', wire: `GET / HTTP/1.1\n${browser}\nContent-Type: %{(#_='multipart/form-data').(#dm=@ognl.OgnlContext@DEFAULT_MEMBER_ACCESS)}\n\n`, rule: 'protocol.content_type_expression', severity: 2 },
  { what: 'SQL dump by URL', wire: `GET /backup/site.sql HTTP/1.1\n${browser}\n\n`, rule: 'protocol.restricted_extension', severity: 2 },
  { what: 'encoded dot before the extension', wire: `GET /dump%2Erdb HTTP/1.1\n${browser}\n\n`, rule: 'protocol.restricted_extension', severity: 2 },
  { what: 'editor backup', wire: `GET /index.php~ HTTP/1.1\n${browser}\n\n`, rule: 'protocol.backup_file', severity: 2 },
  { what: '.git folder', wire: `GET /.git/config HTTP/1.1\n${browser}\n\n`, rule: 'protocol.restricted_file', severity: 2 },
  { what: 'AI tool settings', wire: `GET /app/.claude/settings.json HTTP/1.1\n${browser}\n\n`, rule: 'protocol.restricted_file', severity: 2 },
  { what: 'WordPress debug log', wire: `GET /wp-content/debug.log HTTP/1.1\n${browser}\n\n`, rule: 'protocol.restricted_file', severity: 2 },
  { what: 'scanner User-Agent', wire: 'GET / HTTP/1.1\nHost: shop.example\nUser-Agent: Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)\nAccept: */*\n\n', rule: 'protocol.scanner_agent', severity: 2 },
  { what: 'sqlmap', wire: 'GET /?id=1 HTTP/1.1\nHost: shop.example\nUser-Agent: sqlmap/1.7.2#stable (https://sqlmap.org)\nAccept: */*\n\n', rule: 'protocol.scanner_agent', severity: 2 },
  { what: 'out-of-band callback host in the User-Agent', wire: 'GET / HTTP/1.1\nHost: shop.example\nUser-Agent: Mozilla/5.0 root@w63gecoroprj5um8y.interact.sh\nAccept: */*\n\n', rule: 'protocol.oast_callback', severity: 2 },
  { what: 'Burp Collaborator in a parameter', wire: `GET /fetch?url=http://x9k2lmq7.burpcollaborator.net/a HTTP/1.1\n${browser}\n\n`, rule: 'protocol.oast_callback', severity: 2 },
  { what: 'session id from a foreign page', wire: 'GET /login?PHPSESSID=attacker123 HTTP/1.1\nHost: shop.example\nUser-Agent: x/1\nReferer: https://evil.example/\n\n', rule: 'protocol.session_fixation', severity: 2 },
  { what: 'session id in a mailed link', wire: 'GET /login?jsessionid=74B0CB414BD77D17B5680A6386EF1666 HTTP/1.1\nHost: shop.example\nUser-Agent: x/1\n\n', rule: 'protocol.session_fixation', severity: 2 },
  { what: 'script writing a cookie', wire: `GET /search?q=%3Cscript%3Edocument.cookie%3D%22sid%3Dx%3B%20expires%3DFri%22%3C/script%3E HTTP/1.1\n${browser}\n\n`, rule: 'protocol.cookie_write', severity: 2 },
  { what: 'line break in a parameter name', wire: `GET /get?parameter%0d%0aSet-Cookie:x=test HTTP/1.1\n${browser}\n\n`, rule: 'protocol.name_line_break', severity: 2 },
  { what: 'semicolon in a multipart field name', wire: multipart('Content-Disposition: form-data; name="fi;le"; filename="a.txt"\r\n\r\nx'), rule: 'protocol.multipart_name_chars', severity: 2 },
  { what: 'two filenames in one part', wire: multipart('Content-Disposition: form-data; name="f"; filename="a.jpg"; filename="shell.php"\r\n\r\nx'), rule: 'protocol.multipart_filename_repeated', severity: 2 },
  { what: 'base64 transfer encoding', wire: multipart('Content-Disposition: form-data; name="q"\r\nContent-Transfer-Encoding: base64\r\n\r\nPHNjcmlwdD4='), rule: 'protocol.multipart_transfer_encoding', severity: 2 },
  { what: 'UTF-7 text field', wire: multipart('Content-Disposition: form-data; name="q"\r\nContent-Type: text/plain; charset=utf-7\r\n\r\n+ADw-script+AD4-'), rule: 'protocol.multipart_charset', severity: 2 },
  { what: '_charset_ switching the form to UTF-7', wire: multipart('Content-Disposition: form-data; name="_charset_"\r\n\r\nutf-7'), rule: 'protocol.multipart_charset', severity: 2 },
];

export const suspicious: Fixture[] = [
  { what: 'TRACE', wire: `TRACE / HTTP/1.1\n${browser}\n\n`, rule: 'protocol.method_debug' },
  { what: 'UPnP SUBSCRIBE', wire: `SUBSCRIBE /events HTTP/1.1\n${browser}\n\n`, rule: 'protocol.method_unusual' },
  { what: 'absolute-form target', wire: `GET http://shop.example/ HTTP/1.1\n${browser}\n\n`, rule: 'protocol.absolute_target' },
  { what: 'fragment sent in the target', wire: `GET /page#top HTTP/1.1\n${browser}\n\n`, rule: 'protocol.fragment' },
  { what: 'IIS %u escape from old JavaScript escape()', wire: `GET /search?q=caf%u00E9 HTTP/1.1\n${browser}\n\n`, rule: 'protocol.unicode_escape' },
  { what: 'HTTP/1.0 without Host', wire: 'GET / HTTP/1.0\nUser-Agent: Wget/1.21\n\n', rule: 'protocol.host_missing' },
  { what: 'empty User-Agent', wire: 'GET /api/items HTTP/1.1\nHost: shop.example\nUser-Agent: \nAccept: application/json\n\n', rule: 'protocol.user_agent_empty' },
  { what: 'PUT without Content-Type', wire: 'PUT /files/1 HTTP/1.1\nHost: shop.example\nUser-Agent: x/1\nContent-Length: 4\n\nabcd', rule: 'protocol.body_without_type' },
  { what: 'WebDAV Lock-Token', wire: 'UNLOCK /dav/file.txt HTTP/1.1\nHost: cloud.example\nUser-Agent: davfs2/1.7\nLock-Token: <opaquelocktoken:e71d4fae>\n\n', rule: 'protocol.restricted_header' },
  { what: 'gzip request body', wire: 'POST /api/events HTTP/1.1\nHost: shop.example\nUser-Agent: sentry.python/2.0\nContent-Type: application/json\nContent-Encoding: gzip\nContent-Length: 2\n\n{}', rule: 'protocol.restricted_header' },
  { what: 'log file link', wire: `GET /downloads/changes.log HTTP/1.1\n${browser}\n\n`, rule: 'protocol.restricted_extension' },
  { what: 'unknown dot folder', wire: `GET /.hidden/file HTTP/1.1\n${browser}\n\n`, rule: 'protocol.dot_file' },
  { what: 'apostrophe in an uploaded file name', wire: multipart('Content-Disposition: form-data; name="cv"; filename="John\'s CV.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7'), rule: 'protocol.multipart_name_chars' },
  { what: 'binary transfer encoding from an old Java client', wire: multipart('Content-Disposition: form-data; name="f"; filename="a.bin"\r\nContent-Transfer-Encoding: binary\r\n\r\nxx'), rule: 'protocol.multipart_transfer_encoding' },
  { what: 'session id in a JSON body without Referer (API client)', wire: 'POST /api/session HTTP/1.1\nHost: api.shop.example\nUser-Agent: okhttp/4.12\nContent-Type: application/json\nContent-Length: 24\n\n{"session_id":"abc123"}', rule: 'protocol.session_fixation' },
  { what: 'Stripe Checkout coming back', wire: 'GET /order/success?session_id=cs_test_a1B2c3 HTTP/1.1\nHost: shop.example\nUser-Agent: Mozilla/5.0 Chrome/126.0\nAccept: text/html\nReferer: https://checkout.stripe.com/\n\n', rule: 'protocol.session_fixation' },
  { what: 'index with trailing text in a name', wire: `GET /?foo[1]a=bar HTTP/1.1\n${browser}\n\n`, rule: 'protocol.name_after_index' },
  { what: '_method to a WebDAV verb', wire: form('_method=PROPFIND'), rule: 'protocol.method_override' },
];

export const benign: Fixture[] = [
  // Not findings (headers.ts says why): the site opened by its address, a health check without User-Agent.
  { what: 'Host that is an address (health check)', wire: 'GET /health HTTP/1.1\nHost: 10.0.0.5:8080\nUser-Agent: kube-probe/1.29\nAccept: */*\n\n' },
  { what: 'no User-Agent (HAProxy httpchk)', wire: 'GET /api/items HTTP/1.1\nHost: shop.example\nAccept: application/json\n\n' },
  { what: 'page view', wire: `GET /products/42?utm_source=news&ref=home HTTP/1.1\n${browser}\nCookie: sid=6f1c2a9e; theme=dark\nReferer: https://shop.example/\n\n` },
  { what: 'curl', wire: 'GET /api/v1/status HTTP/1.1\nHost: api.shop.example\nUser-Agent: curl/8.5.0\nAccept: */*\n\n' },
  { what: 'Go client without Accept', wire: 'GET /api/v1/items HTTP/1.1\nHost: api.shop.example\nUser-Agent: Go-http-client/1.1\nAccept-Encoding: gzip\n\n' },
  { what: 'JSON API with charset', wire: 'POST /api/orders HTTP/1.1\nHost: api.shop.example\nUser-Agent: axios/1.7\nAccept: application/json; charset=utf-8\nContent-Type: application/json; charset=utf-8\nContent-Length: 13\n\n{"items":[1]}' },
  { what: 'WordPress REST save through the override header', wire: 'POST /wp-json/wp/v2/posts/12?_locale=user HTTP/1.1\nHost: blog.example\nUser-Agent: Mozilla/5.0 Firefox/128.0\nAccept: application/json, */*;q=0.1\nX-HTTP-Method-Override: PUT\nX-WP-Nonce: 1a2b3c\nContent-Type: application/json\nContent-Length: 16\n\n{"title":"Tea"}' },
  { what: 'Laravel form deleting a record', wire: form('_token=abc&_method=DELETE') },
  { what: 'multipart upload', wire: multipart('Content-Disposition: form-data; name="photo"; filename="holiday-2024.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\u00ff\u00d8\u00ff\u00e0') },
  { what: 'range request for a video', wire: `GET /media/intro.mp4 HTTP/1.1\n${browser}\nRange: bytes=1048576-\n\n` },
  { what: 'conditional GET of a stylesheet', wire: `GET /assets/site.css HTTP/1.1\n${browser}\nIf-None-Match: "abc"\nIf-Modified-Since: Tue, 01 Oct 2024 10:00:00 GMT\n\n` },
  { what: 'WebDAV listing', wire: 'PROPFIND /remote.php/dav/files/anna/ HTTP/1.1\nHost: cloud.example\nUser-Agent: Mozilla/5.0 (Linux) mirall/3.12.3 (Nextcloud)\nDepth: 1\n\n' },
  { what: 'REST delete', wire: 'DELETE /api/orders/42 HTTP/1.1\nHost: api.shop.example\nUser-Agent: axios/1.7\nAccept: application/json\n\n' },
  { what: 'forwarded host from a CDN', wire: `GET / HTTP/1.1\n${browser}\nX-Forwarded-Host: shop.example\nX-Forwarded-Proto: https\nX-Original-URL: /\n\n` },
  { what: 'a post naming interact.sh', wire: form('body=Use+interact.sh+or+oast.me+to+catch+blind+callbacks') },
  { what: 'Elasticsearch-style GET with a body', wire: 'GET /_search HTTP/1.1\nHost: shop.example\nUser-Agent: elasticsearch-py/8.13\nAccept: application/json\nContent-Type: application/json\nContent-Length: 2\n\n{}' },
  { what: 'UTF-8 in a path', wire: `GET /caf%C3%A9/men%C3%BC HTTP/1.1\n${browser}\n\n` },
  { what: 'Windows-1251 form from an old Russian site', wire: form('q=%E0%E1', 'application/x-www-form-urlencoded; charset=windows-1251') },
  { what: 'CORS preflight', wire: 'OPTIONS /api/orders HTTP/1.1\nHost: api.shop.example\nUser-Agent: Mozilla/5.0 Chrome/126.0\nAccept: */*\nOrigin: https://shop.example\nAccess-Control-Request-Method: PUT\n\n' },
  { what: 'well-known path', wire: `GET /.well-known/acme-challenge/abc HTTP/1.1\n${browser}\n\n` },
  { what: 'escaped percent in a query', wire: `GET /search?q=50%25+off HTTP/1.1\n${browser}\n\n` },
  { what: 'session id in a same-site link', wire: 'GET /cart?PHPSESSID=abc HTTP/1.1\nHost: shop.example\nUser-Agent: Mozilla/5.0\nReferer: https://shop.example/products\n\n' },
  { what: 'ASP.NET model binding names', wire: form('Items[0].Name=Tea&Items[1].Name=Cake') },
  { what: 'Accept-Charset-free Accept with a q list', wire: `GET / HTTP/1.1\nHost: shop.example\nUser-Agent: Mozilla/5.0\nAccept: text/html;q=0.9;charset="windows-1252",*/*;q=0.8\n\n` },
  { what: 'SOAP MTOM naming types in parameters', wire: 'POST /ws HTTP/1.1\nHost: api.shop.example\nUser-Agent: Apache-CXF/3.6\nContent-Type: multipart/related; type="application/xop+xml"; boundary="uuid:1"; start-info="text/xml"\nContent-Length: 0\n\n' },
  { what: 'prose about cookie expiry and domains', wire: form('body=The+session+cookie%3B+expires%3D+one+day%2C+domain%3D+shop.example.') },
];
