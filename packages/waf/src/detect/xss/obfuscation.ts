/**
 * Spellings of markup that a browser (or the server's charset handling) turns back into the real
 * thing, read back before the XSS readers look at them:
 * - a URL scheme split by character references the browser decodes and then drops from the scheme
 *   (`ja&tab;vascript:`, `v&newline;bscript&colon;`, `java&#9;script:`): in an attribute value the
 *   entity becomes a tab or newline, and the URL parser removes tabs and newlines anywhere;
 * - fullwidth forms (`＜script＞`), which ASP.NET/IIS "best fit" maps to ASCII (also as the Latin-1
 *   reading of their UTF-8 bytes, the way header fields arrive);
 * - US-ASCII with the high bit set (`¼script¾` = 0xBC script 0xBE), which a page served as
 *   US-ASCII reads with the eighth bit dropped (old IE did);
 * and one spelling no browser reads back, only filters: an element name with blanks between its
 * letters (`<f o r m`).
 */
import type { XssFinding } from './rules.ts';

/** Named references that matter inside a scheme (HTML5 names; case as the spec spells them). */
const namedReferences: Record<string, string> = {
  tab: '\t',
  newline: '\n',
  colon: ':',
  nbsp: ' ',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  lpar: '(',
  rpar: ')',
  sol: '/',
  period: '.',
  equals: '=',
};

const schemes = ['javascript:', 'vbscript:', 'livescript:'];

/** Decodes the character references of `value` (numeric and the names above); unknown ones stay. */
export function decodeReferences(value: string): string {
  let out = '';
  let at = 0;
  for (let amp = value.indexOf('&'); amp >= 0; amp = value.indexOf('&', at)) {
    out += value.slice(at, amp);
    // The terminating ';' is optional for numeric references; names here always carry it.
    const m = /^&(?:#[xX]([0-9a-fA-F]{1,6});?|#([0-9]{1,7});?|([A-Za-z]{2,8});)/.exec(value.slice(amp, amp + 16));
    const named = m?.[3] ? namedReferences[m[3].toLowerCase()] : undefined;
    const code = m?.[1] ? parseInt(m[1], 16) : m?.[2] ? parseInt(m[2], 10) : -1;
    if (m && named !== undefined) out += named;
    else if (m && code >= 0 && code <= 0x10ffff) out += String.fromCodePoint(code);
    else out += m ? m[0] : '&';
    at = amp + (m ? m[0].length : 1);
  }
  return out + value.slice(at);
}

/**
 * A script scheme that only appears once references are decoded and tabs/newlines dropped, while
 * the raw value does not spell it: nothing but evasion writes `ja&tab;vascript:`.
 */
export function referenceSpelledScheme(value: string): XssFinding | null {
  if (value.indexOf('&') < 0) return null;
  const raw = value.toLowerCase();
  const decoded = decodeReferences(value).replace(/[\t\n\r]/g, '').toLowerCase();
  for (const scheme of schemes) {
    const at = decoded.indexOf(scheme);
    if (at >= 0 && !raw.includes(scheme)) return { rule: 'xss.script_url_obfuscated', severity: 2, at: 0 };
  }
  return null;
}

/**
 * The value with fullwidth ASCII (U+FF01–U+FF5E) and high-bit Latin-1 (U+0080–U+00FF, read as
 * 7-bit) folded to ASCII, when it holds a folded `<` (＜ or ¼); null otherwise (the common case).
 */
export function foldedToAscii(raw: string): string | null {
  if (raw.indexOf('\uff1c') < 0 && raw.indexOf('\u00bc') < 0) return null;
  const value = raw.includes('\u00ef\u00bc') ? utf8Reading(raw) : raw;
  let out = '';
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (c >= 0xff01 && c <= 0xff5e) out += String.fromCharCode(c - 0xfee0);
    else if (c >= 0xa0 && c <= 0xff) out += String.fromCharCode(c & 0x7f);
    else out += ch;
  }
  return out;
}

/**
 * Header fields (cookies among them) reach the engine byte for byte as Latin-1: a fullwidth `＜`
 * (EF BC 9C) arrives as `ï¼\x9c`. Read as UTF-8 again when that gives the fullwidth form.
 */
function utf8Reading(value: string): string {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0xff) return value;
  const utf8 = Buffer.from(value, 'latin1').toString('utf8');
  return utf8.includes('\uff1c') ? utf8 : value;
}

/** Elements worth spelling letter by letter: they run script, load, submit or take over the page. */
export const activeElements: ReadonlySet<string> = new Set([
  'script', 'style', 'svg', 'math', 'form', 'dialog', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base',
  'link', 'meta', 'marquee', 'isindex', 'img', 'image', 'body', 'input', 'button', 'video', 'audio', 'details', 'param',
]);

/**
 * `<f o r m`, `<s c r i p t`: an element name written with blanks between its letters right after
 * `<`. A browser reads `<f` with attributes `o`, `r`, `m`; the spelling exists to slip the name
 * past a filter that matches it whole, toward one that drops blanks or a page that rebuilds it. No
 * prose or code puts single letters apart after a `<` (`a < b c`, `x <= y` spell no element here).
 */
export function spelledElement(value: string): XssFinding | null {
  const spelled = /<[\s/]*((?:[a-z][ \t\r\n\f]{1,3}){2,11}[a-z])(?![a-z])/gi;
  for (let m = spelled.exec(value); m; m = spelled.exec(value)) {
    if (activeElements.has(m[1]!.replace(/\s+/g, '').toLowerCase())) return { rule: 'xss.spelled_element', severity: 2, at: m.index };
  }
  return null;
}

/**
 * The value with JavaScript string escapes decoded (`\x3c`, `\u003c`, `\u{3c}`), when it spells a
 * `<` that way; null otherwise (the common case). Reflected into a script string that the page
 * then writes as HTML (innerHTML, document.write), `\x3cimg src=x onerror=…\x3e` is markup again,
 * past a filter that looked for `<`. JSON encoders write `<` as `\u003c` too: the decoded text is
 * judged as the raw text would be, so rich text escaped that way passes as rich text does.
 */
export function jsEscapedMarkup(value: string): string | null {
  if (!/\\(?:x3c|u003c|u\{0*3c\})/i.test(value)) return null;
  return value.replace(/\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]{1,6})\})/g, (escape, x?: string, u?: string, braced?: string) => {
    const code = parseInt(x ?? u ?? braced!, 16);
    return code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : escape;
  });
}
