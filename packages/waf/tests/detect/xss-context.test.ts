/**
 * XSS readings that depend on where the value stands (detect/xss/index.ts, obfuscation.ts): names
 * that are attribute assignments, character-referenced markup in header fields, fullwidth markup in
 * a header's Latin-1 bytes, markup spelled in UTF-7, old IE's behaviour import and the formaction probe — each next to the
 * near-misses of the same shape that ordinary traffic carries.
 */
import { describe } from 'vitest';
import { detectXss } from '../../src/detect/xss/index.ts';
import { checkAttacks, checkBenign } from './fixture-check.ts';

/** How a header field's UTF-8 bytes reach the engine: one character per byte. */
const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('XSS by location', () => {
  checkAttacks(detectXss, 'xss', [
    // a parameter name that becomes an attribute where the application reflects names
    { value: '  onload= ', location: 'query_name', rule: 'xss.event_handler' },
    { value: '"onfocus=', location: 'body_name' },
    { value: ' onwebkitplaybacktargetavailabilitychanged=', location: 'cookie_name' },
    // markup spelled with character references in a header, for an application that unescapes it
    { value: '&#60;script+&#62;alert(1);&#60;/script&#62;=value', location: 'header', rule: 'xss.script_tag_referenced' },
    { value: '&lt;img src=x onerror=alert(1)&gt;', location: 'header' },
    // fullwidth markup in a cookie, as its UTF-8 bytes arrive
    { value: latin1('＜script＞alert(1)＜/script＞'), location: 'cookie_name', rule: 'xss.script_tag_folded' },
    { value: latin1('＜img src=x onerror=alert(1)＞'), location: 'cookie' },
    // IE's HTML+TIME behaviour import
    { value: '<?import namespace="t" implementation="#default#time2">', rule: 'xss.ie_behavior_import' },
    { value: '<?import implementation =' },
    // markup spelled in UTF-7, for a page read in that charset
    { value: '+ADw-script+AD4-', rule: 'xss.script_tag_utf7' },
    { value: '+ADw-img src=x onerror=alert(1)+AD4-' },
    // a quote closed, then formaction= left for the page to fill
    { value: "'formaction=", rule: 'xss.event_handler' },
  ]);
  checkBenign(detectXss, [
    // names without the blank or quote before them, and words that only start with "on"
    { value: 'onload', location: 'query_name' },
    { value: 'online=', location: 'query_name' },
    { value: 'options[on]', location: 'body_name' },
    // longer than any event a browser fires
    { value: '  onthisisaverylongwordthathasmorethanfiftycharactersss= ', location: 'query_name' },
    // the same assignment as a value: a search for the attribute
    { value: 'onload=', location: 'query' },
    // references in a header that build no markup; referenced markup in a form field is someone showing code
    { value: 'Tom &amp; Jerry &lt;3', location: 'header' },
    { value: 'The &lt;script&gt;alert(1)&lt;/script&gt; example from the slides', location: 'body', below: 2 },
    // fullwidth text that is no markup
    { value: latin1('ｆｕｌｌｗｉｄｔｈ ＜ ｃｏｍｐａｒｉｓｏｎ'), location: 'cookie' },
    // other processing instructions
    { value: '<?xml version="1.0" encoding="UTF-8"?>', location: 'query' },
    { value: '<?import is an IE directive?>', location: 'body' },
    // UTF-7 that decodes to harmless markup or to nothing, and C++ flags
    { value: '+ADw-b+AD4-bold+ADw-/b+AD4-' },
    { value: 'g++ -O2 +ADwfoo -o x' },
    // formaction named, not opened
    { value: 'what does formaction= do', location: 'query' },
  ]);
});
