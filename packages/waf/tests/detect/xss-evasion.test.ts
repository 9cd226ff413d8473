/**
 * XSS spellings written to get past filters (detect/xss): element names spelled letter by letter,
 * script URLs and CSS `url(` cut right after the scheme, IE's behaviour import and namespaced
 * elements in their loose forms, a `<base href` left open, globals reached through escaped names,
 * tagged templates glued to `.call`, handlers referenced twice over or opened after a form-encoded
 * blank — each beside the prose, code and markup of the same shape that ordinary traffic carries.
 */
import { describe, expect, it } from 'vitest';
import { detectXss } from '../../src/detect/xss/index.ts';
import { checkAttacks, checkBenign } from './fixture-check.ts';

describe('XSS evasion spellings', () => {
  checkAttacks(detectXss, 'xss', [
    // an element name with blanks between its letters, after `<`
    { value: '$<f o r m', rule: 'xss.spelled_element' },
    { value: 'bar<d i a l o g', location: 'cookie' },
    { value: '<s  c  r  i  p  t>', location: 'header' },
    // CSS url( and a javascript: URL cut where the page supplies the rest
    { value: 'x=x:url(javascript', rule: 'xss.css_expression' },
    { value: "STYLE=X:URL('VBSCRIPT", location: 'header' },
    { value: 'javascript:\\u0061lert', rule: 'xss.script_url' },
    { value: 'javascript: \\\\\\\\t' },
    // IE's behaviour import without `?` or blank; an element with an empty namespace prefix
    { value: '<importimplementation=', rule: 'xss.ie_behavior_import' },
    { value: '<import namespace=t implementation="#default#time2">' },
    { value: '<:vmlframe src=', location: 'cookie', rule: 'xss.embedding_tag' },
    // a <base href left open for the page to finish
    { value: '<BASE dsfds HREF / =', rule: 'xss.redirect_tag' },
    { value: '<base href=' },
    // a global reached by an escaped name; a template glued to .call/.apply
    { value: 'a=self["\\x24"]', rule: 'xss.js_obfuscated_call' },
    { value: "top['\\u0065val']" },
    { value: 'Reflect.sort.call``', rule: 'xss.js_obfuscated_call' },
    { value: '[].map.apply`x`' },
    // a handler whose parentheses are referenced twice (one unescape by the application, one by the browser)
    { value: '&gt; src onerror=confirm&amp;lpar;1&amp;rpar;&lt;', rule: 'xss.event_handler' },
    // the same after a `+` (the blank of a form-encoded value, for an application that decodes twice)
    { value: '&gt;+src+onerror=confirm&amp;lpar;1&amp;rpar;&lt;', rule: 'xss.event_handler' },
    { value: 'x+onmouseover=alert(1)' },
  ]);
  checkBenign(detectXss, [
    // comparisons and letters after `<` that spell no element
    { value: 'a < b c d' },
    { value: 'if x < y: print(x)', location: 'body' },
    { value: 'x <= a b c and y > 2' },
    { value: 'heart <3 u r the best' },
    { value: '<b>b o l d</b> and <i>i t a l i c</i>', location: 'body' },
    // a Discord emoji code and an ordinary link
    { value: 'nice <:smile:123456> work', location: 'body' },
    // url() of a file whose name starts with the scheme; a book title; the no-op link
    { value: 'background: url(javascript-logo.png)' },
    { value: 'url(javascript.svg)' },
    { value: 'javascript: the good parts' },
    { value: 'javascript:void(0)' },
    // imports in prose and code
    { value: 'import implementation from "./impl.js"', location: 'body' },
    { value: 'the <import> element needs an implementation, see docs', location: 'body', below: 2 },
    // a complete <base> with no target; the element named in prose
    { value: 'what does the <base> tag do?' },
    { value: '<base href>', below: 2 },
    // globals indexed by plain names; templates and calls that are ordinary code
    { value: 'self["$"]' },
    { value: 'window["myApp"].init()' },
    { value: 'fn.call(this, x)', location: 'body' },
    { value: 'styled.div`color: red;`', location: 'body' },
    { value: 'use fn.call `then` in prose', location: 'body' },
    // `+` before words that only start with "on", or before a handler-like name with no code
    { value: 'C++ online=yes' },
    { value: 'total+onSale=price' },
    { value: 'q=a+onload=init', location: 'query' },
    // references in ordinary markup
    { value: '<a title="Tom &amp;amp; Jerry" href="/p?a=1&amp;amp;b=2">x</a>', location: 'body' },
    // arrows, whole comments and a lone closer (CRS has `-->` alone both as an attack and as a
    // request that must pass: left to the page)
    { value: 'a --> b' },
    { value: 'step one --> step two', location: 'body' },
    { value: '<!-- note -->', location: 'body' },
    { value: '-->', location: 'body' },
  ]);
  it('reads many import openings in linear time', () => {
    // Each `<?import` used to be scanned to the end of the value for `implementation=` (seconds for this one).
    for (const value of ['<?import '.repeat(20000), '<import'.repeat(20000), '<s c r i p '.repeat(10000)]) {
      const started = performance.now();
      expect(detectXss(value, 'query')).toBeNull();
      expect(performance.now() - started).toBeLessThan(1500);
    }
  });
});
