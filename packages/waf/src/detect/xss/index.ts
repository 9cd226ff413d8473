import { isUninvokedDefinition } from '../node/js-members.ts';
import type { Detector, DetectorHit, InputLocation } from '../../types.ts';
import { decodeHtmlEntities } from '../../decode/html-entities.ts';
import { decodeUtf7 } from '../../decode/utf7.ts';
import { codeSpans, countWords, looksLikeDocument } from '../text-shape.ts';
import { containsAnyOf } from '../contains-any.ts';
import { entityDeclaration } from './dtd.ts';
import { readAttributes, startTags } from './html.ts';
import { activeElements, foldedToAscii, jsEscapedMarkup, referenceSpelledScheme, spelledElement } from './obfuscation.ts';
import { findEscapedIdentifier, findScript, stringBreakout, tokenizeJs, type JsFinding } from './js.ts';
import { isEventName, isScriptCssValue, isScriptUrl, judgeAttribute, judgeHtml, type XssFinding } from './rules.ts';

/**
 * Cross-site scripting, read in the three places a reflected value lands:
 * - HTML content: tags and their attributes (rules.ts);
 * - inside a tag, after the attacker closes an attribute value (`" onfocus=alert(1) x="`);
 * - inside a script, after the attacker closes a string (`";alert(1)//`), or as a URL
 *   (`javascript:…`).
 * Benign rich text (`<p><strong>`, `<a href="https://…">`, `<img src="/x.png" alt="">`) has no
 * script-running part and passes.
 *
 * Left out on purpose (CRS 941 tests that stay passed): a lone `-->` (the same value is a CRS
 * must-pass test for 941180; strict mode flags it in a parameter or cookie name); `on…=` glued
 * inside base64/hex signatures (no separator before it); `<a href="x">`, `<noscript#` (markup that
 * runs nothing; `<meta charset>` and `<input pattern>` from a single value are suspicious, rules.ts);
 * `import { a } from "…"` and DOM statements such as `document.querySelector(…).textContent = …`
 * (code people post whole, in JSON bodies too); IE-filter signatures that are no valid script
 * (`'  infoo.bar=`); `data:,<x>` (a data URL without a type is text/plain); `xsi:schemaLocation`
 * (the XXE reader's, suspicious only: Maven and SOAP documents carry it); `atob()`/`btoa()` as the
 * whole value (suspicious only: the empty call throws, and documentation searches look the same);
 * `< x: script` (a `<` and a blank open no tag, and `if a < b: input()` is Python); the literal text
 * `\xbcscript\xbe` (the escapes written out, not the high-bit bytes a US-ASCII page misreads; the
 * `\xd0\xbc…` forms decode to Cyrillic, and near-identical ones are CRS must-pass tests); a style
 * sheet `@im\port'\ja<VT>asc\ript:` whose scheme is broken (a vertical tab where `\v` was meant spells
 * no `javascript:`).
 */
const maxQuotePositions = 16;

/** Characters without which none of the checks below can fire. */
function cannotBeXss(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '<' || c === '(' || c === '`' || c === '=' || c === ':' || c === '[') return false;
  }
  // `document.cookie` needs none of them.
  return !value.includes('document') && !value.includes('window');
}

/** Attributes whose value the browser loads or follows as a URL (old and new: IE's background, dynsrc, lowsrc). */
const urlAttributes = new Set(['href', 'src', 'background', 'data', 'action', 'formaction', 'dynsrc', 'lowsrc', 'poster', 'codebase', 'xlink:href']);

/** An attribute list injected after a closed quote (or at the start, for unquoted attributes). */
function attributeInjection(value: string): XssFinding | null {
  const starts = [0];
  for (let i = 0; i < value.length && starts.length <= maxQuotePositions; i++) {
    const c = value[i];
    if (c === '"' || c === "'" || c === '`') starts.push(i + 1);
    // An `on…=` after a separator: the handler may follow text the attacker did not quote. A `+`
    // is the blank of a form-encoded value, for an application that decodes the value once more.
    else if ((c === 'o' || c === 'O') && (value[i + 1] === 'n' || value[i + 1] === 'N') && i > 0 && ' \t\n/>;+'.includes(value[i - 1]!)) starts.push(i);
  }
  for (const start of starts) {
    const { attributes } = readAttributes(value, start);
    for (const attribute of attributes) {
      // After a closed quote, a URL attribute with a script URL (`" background="javascript:…`) lands
      // in the tag the quote closed: the browser follows it as it would in markup.
      if (start > 0 && urlAttributes.has(attribute.name) && isScriptUrl(attribute.value.trim())) return { rule: 'xss.script_url', severity: 2, at: start };
      // Only event handlers and style: a lone `href=javascript:` needs a tag and is checked as a URL.
      if (!(attribute.name.startsWith('on') || attribute.name === 'style')) continue;
      const verdict = judgeAttribute(attribute, false);
      if (verdict?.severity === 2) return { ...verdict, severity: 2, at: start };
    }
  }
  return null;
}

function jsFindingToXss(f: JsFinding, tokens: ReturnType<typeof tokenizeJs>, offset: number, breakout: boolean): XssFinding {
  const at = Math.max(0, (tokens[f.at]?.start ?? offset) - offset);
  if (breakout) return { rule: 'xss.js_breakout', severity: 2, at };
  return { rule: f.shape === 'plain' ? 'xss.js_call' : f.shape === 'access' ? 'xss.js_access' : 'xss.js_obfuscated_call', severity: f.shape === 'plain' ? 1 : 2, at };
}

/**
 * `javascript:void(0)` is the no-op link every site has (and people search for what it means): the
 * code after it is what counts (`javascript:void(0);alert(1)` still is a script URL).
 */
function withoutNoOp(code: string): string {
  const m = /^\s*void\s*(?:\(\s*0\s*\)|0)\s*;?/.exec(code);
  return m ? code.slice(m[0].length) : code;
}

/**
 * `"onzoom=`, `<x onend=`: a known event handler opened after a quote or inside a tag and left for
 * the page to fill — the value is cut right after the `=` (a scanner's probe of the context).
 */
function handlerProbe(value: string): XssFinding | null {
  const tail = value.length > 96 ? value.slice(-96) : value;
  const m = /(["'`<\s/])\s*(on[a-z]{3,60}|formaction)\s*=\s*$/i.exec(tail);
  if (!m) return null;
  const name = m[2]!.toLowerCase();
  // formaction= sends the page's form (its tokens, its typed password) wherever the attacker says.
  if (!isEventName(name) && !name.startsWith('onwebkit') && name !== 'formaction') return null;
  const before = value.slice(0, value.length - tail.length + m.index + 1);
  // A quote or a tag opening before it: inside markup, not "set onload= in the config". Blanks and
  // nothing else before it (`  onload= `) end an unquoted attribute value the same way.
  return /["'`]|<[a-z"]/i.test(before) || (before.length > 0 && before.trim() === '') ? { rule: 'xss.event_handler', severity: 2, at: value.length - tail.length + m.index } : null;
}

const nameLocations = new Set<InputLocation>(['query_name', 'body_name', 'cookie_name']);

/**
 * A parameter name that is an attribute assignment (` onload=`, `"onfocus=`): the application
 * reflects names into markup (hidden fields, form builders), and a name with a blank or quote
 * before an `on…=` turns into a new attribute there. Names are the application's vocabulary; no
 * form names a field like that. Any `on` word counts: the next browser's events are unknown here.
 */
function handlerName(value: string, location: InputLocation): XssFinding | null {
  if (!nameLocations.has(location)) return null;
  // No event name is longer than 48 letters (the longest, onwebkitplaybacktargetavailabilitychanged, has 41).
  const m = /^[\s"'`/]+(on[a-z]{3,46})\s*=\s*$/i.exec(value);
  return m ? { rule: 'xss.event_handler', severity: 2, at: 0 } : null;
}

/**
 * A parameter or cookie name holding HTML syntax: a start tag (`<a href="test"`) or a comment
 * delimiter (`-->`, `<!--`). Names are the application's vocabulary and never markup; one that is
 * reflected (form builders, debug pages) closes a comment or opens a tag there. Suspicious only
 * (strict mode): a JSON key may be a translation's source text, and the same `-->` in a value is a
 * CRS must-pass test (941180), so values are left alone.
 */
function markupName(value: string): XssFinding | null {
  const comment = value.indexOf('-->') >= 0 ? value.indexOf('-->') : value.indexOf('<!--');
  if (comment >= 0) return { rule: 'xss.markup_name', severity: 1, at: comment };
  const tag = /<[a-z][a-z0-9-]*[\s/>]/i.exec(value);
  return tag ? { rule: 'xss.markup_name', severity: 1, at: tag.index } : null;
}

/**
 * `<?import namespace="t" implementation="#default#time2">`: old IE's behaviour import, which
 * turns on the HTML+TIME elements whose attributes run script. The processing instruction has no
 * other use; a value that carries one with its `implementation` attribute is the payload's first half
 * (IE took it without the `?` and without a blank before the attribute as well).
 */
function ieBehaviorImport(value: string): XssFinding | null {
  const opening = /<\??import/gi;
  // Each opening is read up to its `>` within one tag's length (a value of many openings stays linear).
  for (let m = opening.exec(value), n = 0; m && n < 16; m = opening.exec(value), n++) {
    const tag = value.slice(m.index, m.index + 512);
    const end = tag.indexOf('>');
    if (/implementation\s*=/i.test(end < 0 ? tag : tag.slice(0, end))) return { rule: 'xss.ie_behavior_import', severity: 2, at: m.index };
  }
  return null;
}

/**
 * A header's value with character references decoded: headers carry no markup of their own and no
 * prose that quotes it, so `&lt;script&gt;alert(1)&lt;/script&gt;` in a User-Agent or Referer is
 * markup waiting for an application that unescapes before it renders (log viewers, analytics
 * panels). In a form field the same text is someone showing code, and is left alone.
 */
function referencedMarkup(value: string, location: InputLocation): XssFinding | null {
  if (location !== 'header' || value.indexOf('&') < 0) return null;
  const decoded = decodeHtmlEntities(value);
  if (decoded === value || decoded.indexOf('<') < 0) return null;
  // A Referer is a URL: the application that decodes its query reads `+` as a blank.
  for (const reading of decoded.includes('+') ? [decoded, decoded.replace(/\+/g, ' ')] : [decoded]) {
    const found = readXss(reading, false);
    if (found?.severity === 2) return { ...found, rule: found.rule + '_referenced' };
  }
  return null;
}

/**
 * A start tag of an element that runs, loads, submits or restyles (`<script>`, `<style>`,
 * `<iframe>`, `<svg>` …) in a header or a cookie. Browsers send neither with a raw `<` (a URL's
 * query percent-encodes it, a User-Agent is a product token list) and applications keep no markup
 * in cookies: such a tag, even bare, is planted for the log viewer or analytics page that shows the
 * header. Only a name ended by a blank, `>` or the end of the value counts (`<img/logo.png>` is a
 * path in angle brackets), and the Link header, whose URLs are written in angle brackets, is skipped.
 */
function headerMarkup(value: string, location: InputLocation, name: string | undefined): XssFinding | null {
  if ((location !== 'header' && location !== 'cookie') || value.indexOf('<') < 0) return null;
  if (location === 'header' && (name ?? '').toLowerCase() === 'link') return null;
  for (const tag of startTags(value, 32)) {
    const after = value[tag.start + 1 + tag.name.length];
    if (activeElements.has(tag.name) && (after === undefined || after === '>' || /\s/.test(after))) return { rule: 'xss.header_markup', severity: 2, at: tag.start };
  }
  return null;
}

/**
 * Markup spelled in UTF-7 (`+ADw-script+AD4-` is `<script>`): it exists only for a page the
 * browser can be talked into reading as UTF-7, past filters that look for `<`. No one writes a tag
 * that way by accident, so a tag that reads as suspicious once decoded is an attack.
 */
function utf7Markup(value: string): XssFinding | null {
  if (value.indexOf('+AD') < 0) return null;
  const decoded = decodeUtf7(value);
  if (decoded === value || decoded.indexOf('<') < 0) return null;
  const found = judgeHtml(decoded);
  return found ? { ...found, rule: found.rule + '_utf7', severity: 2 } : null;
}

/**
 * JSFuck (`(![]+[])[+!+[]]`, `!![]`): script written with six characters. A value made almost only
 * of `[]()!+` with `![]` in it is nothing else (Markdown's `![](img.png)` has a URL in it).
 */
function jsfuck(value: string): XssFinding | null {
  if (value.indexOf('![]') < 0) return null;
  let code = 0;
  let other = 0;
  for (let i = 0; i < value.length && i < 4096; i++) {
    const c = value[i]!;
    if (c === '[' || c === ']' || c === '(' || c === ')' || c === '!' || c === '+') code++;
    else if (c !== ' ' && c !== '\t' && c !== '\n') other++;
  }
  return code >= 3 && other * 10 <= code ? { rule: 'xss.js_obfuscated_call', severity: 2, at: 0 } : null;
}

/**
 * `top[/al/.source+/ert/.source](1)`: a name assembled from the sources of regex literals, so that no
 * filter sees it whole. Two `.source` pieces joined by `+` have no use but building a string out of
 * sight; used as a computed member that is called, or handed to eval/Function/setTimeout, it is
 * the call (2); assembled alone, suspicious.
 */
const regexSourceJoin = /\/[^/\s]{1,40}\/[gimsuy]*\.source\s*\+\s*\/[^/\s]{1,40}\/[gimsuy]*\.source/;
function regexSourceAssembly(value: string): XssFinding | null {
  if (!value.includes('.source')) return null;
  const m = regexSourceJoin.exec(value);
  if (!m) return null;
  const after = value.slice(m.index + m[0].length, m.index + m[0].length + 200);
  const before = value.slice(Math.max(0, m.index - 40), m.index);
  const called = /^(?:\s*\+\s*\/[^/\s]{1,40}\/[gimsuy]*\.source)*\s*\]\s*\(/.test(after) || /(?:eval|Function|setTimeout|setInterval)\s*\(\s*$/.test(before);
  return { rule: 'xss.js_obfuscated_call', severity: called ? 2 : 1, at: m.index };
}

/** Script-context readings: string breakouts, javascript: URLs, bare script. */
function scriptContext(value: string): XssFinding | null {
  const assembled = regexSourceAssembly(value);
  if (assembled?.severity === 2) return assembled;
  for (const quote of ["'", '"', '`']) {
    if (!value.includes(quote)) continue;
    // An attacker's `\'` survives an application that escapes quotes by adding a backslash.
    const body = value.startsWith('\\' + quote) ? value.slice(1) : value;
    const tokens = tokenizeJs(quote + body);
    const first = tokens[0];
    if (!first || first.type !== 'string' || !first.closed) continue;
    // `"in \u0076alueOf=`: after the quote, a name spelled in escapes and assigned or called is
    // code whatever stands between (IE's filter let `in` through).
    const f = stringBreakout(tokens) ?? findEscapedIdentifier(tokens, 1);
    if (f) return jsFindingToXss(f, tokens, 1 + (value.length - body.length), true);
  }
  // Inside a template literal, `${…}` runs code.
  const template = value.indexOf('${');
  if (template >= 0) {
    const inner = tokenizeJs(value.slice(template + 2));
    const f = findScript(inner);
    if (f) return jsFindingToXss(f, inner, -(template + 2), true);
  }
  if (isScriptCssValue(value)) return { rule: 'xss.css_expression', severity: 2, at: 0 };
  const trimmed = value.trimStart();
  if (isScriptUrl(trimmed)) {
    const code = withoutNoOp(trimmed.slice(trimmed.indexOf(':') + 1));
    const tokens = tokenizeJs(code);
    // A backslash is a JS escape (`javascript:\u0061lert`, `javascript:'\x3c…'`): code, not a sentence.
    if (findScript(tokens) || /[(`=\\]/.test(code)) return { rule: 'xss.script_url', severity: 2, at: 0 };
  }
  const tokens = tokenizeJs(value);
  const f = findScript(tokens, 0, value);
  if (!f) return emptyCodecCall(tokens);
  // The whole value a function defined and never called (`function(e){return document.cookie…}`):
  // source text that telemetry and error reports carry; what it reads runs only if someone calls it.
  // Obfuscated shapes still count: no honest source hides its names.
  if (f.shape !== 'obfuscated' && /^function\s*[\w$]*\s*\(/.test(value.trimStart()) && isUninvokedDefinition(value.trimStart())) return null;
  // The whole value is the call (`alert()`, `setInterval(code, 1)`): a probe, not a sentence.
  if (f.shape === 'plain' && f.at === 0 && value.trim().length <= 80) return { rule: 'xss.js_call', severity: 2, at: 0 };
  return jsFindingToXss(f, tokens, 0, false);
}

/** Functions that compile or decode code; alone and empty-called they are a probe's first step. */
const codecFunctions = new Set(['atob', 'btoa', 'eval', 'Function', 'setTimeout', 'setInterval', 'fromCharCode']);

/**
 * `atob()`, `btoa()`: the whole value an empty call of a function that decodes or compiles code —
 * a scanner checking whether the name survives the filter. Suspicious only: with no argument the
 * call throws, and a developer searching documentation types the same thing.
 */
function emptyCodecCall(tokens: ReturnType<typeof tokenizeJs>): XssFinding | null {
  const [name, open, close, end] = tokens;
  if (name?.type !== 'name' || !codecFunctions.has(name.text) || open?.text !== '(' || close?.text !== ')') return null;
  return tokens.length === 3 || (tokens.length === 4 && end?.text === ';') ? { rule: 'xss.js_call', severity: 1, at: 0 } : null;
}

/**
 * The value with short tags removed: filters that strip tags turn `o<x>nfocus=alert<x>(1)` into
 * `onfocus=alert(1)`, so the attacker plants them on purpose.
 */
function withoutShortTags(value: string): string | null {
  if (value.indexOf('<') < 0) return null;
  const stripped = value.replace(/<\/?[a-zA-Z]{1,10}>/g, '');
  return stripped === value ? null : stripped;
}

/**
 * Words without which the attribute and script readings cannot fire (a cheap look before the
 * tokenizers): event handlers and style need `on`/`style`, script needs a sink, a receiver or a
 * script URL. Headers like `Accept: text/html;q=0.9` skip both readings.
 */
const scriptWords = ['alert', 'prompt', 'confirm', 'eval', 'function', 'settimeout', 'setinterval', 'execscript', 'fetch', 'atob', 'import', 'write', 'fromcharcode', 'sendbeacon', 'open', 'print', 'constructor', 'xmlhttprequest', 'websocket', 'postmessage', 'insertadjacenthtml', 'createelement', 'appendchild', 'assign', 'replace', 'image', 'require', 'document', 'window', 'top', 'self', 'parent', 'frames', 'globalthis', 'location', 'script:', 'url(', 'binding', 'behavior', '${', 'data:', 'showmodaldialog', 'setimmediate', 'this', '.call`', '.apply`', '\\u', 'btoa'];

const hasScriptWord = containsAnyOf(scriptWords);

function checksFor(value: string, inDocument: boolean): ((v: string) => XssFinding | null)[] {
  const lower = value.toLowerCase();
  const checks: ((v: string) => XssFinding | null)[] = [];
  if (value.includes('<')) checks.push(inDocument ? (v) => judgeHtml(v, 0, true) : judgeHtml);
  if (lower.includes('on') || lower.includes('style')) checks.push(attributeInjection);
  if (value.endsWith('=') || /=\s+$/.test(value.slice(-8))) checks.push(handlerProbe);
  if (value.includes('![]')) checks.push(jsfuck);
  if (/<\??import/i.test(value)) checks.push(ieBehaviorImport);
  if (value.includes('<')) checks.push(spelledElement);
  if (hasScriptWord(lower)) checks.push(scriptContext);
  return checks;
}

/**
 * A document's Markdown code (fences, inline code) blanked out, offsets kept: Markdown renders it
 * escaped, so `<script src=…></script>` inside a fence is shown, not run. HTML `<code>`/`<pre>`
 * stay: a raw tag inside them still runs. Null when there is none, or when fewer than three words
 * are left outside it (code with no post around it is no post).
 */
function withoutMarkdownCode(value: string): string | null {
  if (value.indexOf('`') < 0) return null;
  const spans = codeSpans(value).filter((s) => s.markdown);
  if (spans.length === 0) return null;
  let out = '';
  let at = 0;
  for (const span of spans.sort((a, b) => a.start - b.start)) {
    if (span.start < at) continue;
    out += value.slice(at, span.start) + ' '.repeat(span.end - span.start);
    at = span.end;
  }
  out += value.slice(at);
  return countWords(out) >= 3 ? out : null;
}

/** The value read as a parameter (no document weighing). */
export function detectXssValue(value: string): DetectorHit | null {
  return detectXssAt(value, 'query');
}

/** The strongest finding of one reading: the first severity 2, else the first severity 1. */
function readXss(text: string, inDocument: boolean): XssFinding | null {
  let suspicious: XssFinding | null = null;
  for (const check of checksFor(text, inDocument)) {
    const finding = check(text);
    if (!finding) continue;
    // A plain call (`alert('Welcome back!')`, "an alert() box blocks the page") in a document's text
    // or code is shown, not run: a script context would need a breakout, which is severity 2.
    if (inDocument && finding.severity === 1 && finding.rule === 'xss.js_call') continue;
    if (finding.severity === 2) return finding;
    suspicious ??= finding;
  }
  const stripped = withoutShortTags(text);
  if (stripped !== null) {
    for (const check of [attributeInjection, scriptContext]) {
      const finding = check(stripped);
      if (finding?.severity === 2) return { ...finding, rule: finding.rule + '_stripped_tags', at: 0 };
    }
  }
  return suspicious;
}

/**
 * The value read where it was found. A `body` or `raw_body` value that is a document (a post, a
 * comment: `looksLikeDocument`) is weighed as one: `<script>` named in its sentences and plain calls
 * in its text are not findings, and what only its Markdown code holds (a fence or inline code with
 * `<script src=…></script>`, with at least three words of prose outside the code) is not a finding
 * either: Markdown shows it escaped, and a post that quotes a tag in backticks among sentences is
 * showing code. The trade-off: an application that stores such a post and renders it as raw HTML
 * would run the quoted element; a raw tag outside backticks, or code with no prose around it, or
 * HTML `<code>`/`<pre>` (which do not escape) are still judged as in any value.
 */
export function detectXssAt(value: string, location: InputLocation, name?: string): DetectorHit | null {
  if (value.length < 3) return null;
  // `ja&tab;vascript:`: the scheme exists only once the browser decodes the references.
  const spelled = value.indexOf('&') >= 0 ? referenceSpelledScheme(value) : null;
  if (spelled) return toHit(spelled, value);
  const special = handlerName(value, location) ?? referencedMarkup(value, location) ?? utf7Markup(value);
  if (special) return toHit(special, value);
  const folded = foldedToAscii(value);
  if (folded !== null) {
    // `＜script＞`, `¼script¾`: read as the server's charset handling hands it to the page.
    const found = readXss(folded, false);
    if (found?.severity === 2) return toHit({ ...found, rule: found.rule + '_folded' }, value);
  }
  // `\x3cscript\x3e…`: the escaped spelling needs none of the characters cannotBeXss looks for.
  const escapesMarkup = value.indexOf('\\') >= 0 && jsEscapedMarkup(value) !== null;
  // A name with markup in it, or an external entity declaration, is only suspicious: any stronger reading wins.
  const markup = (nameLocations.has(location) ? markupName(value) : null) ?? entityDeclaration(value);
  if (!escapesMarkup && cannotBeXss(value)) return markup ? toHit(markup, value) : null;
  const inDocument = (location === 'body' || location === 'raw_body') && looksLikeDocument(value);
  const masked = inDocument ? withoutMarkdownCode(value) : null;
  // With Markdown code masked, what only the code held is gone: the document shows it.
  const escaped = escapesMarkup ? jsEscapedMarkup(masked ?? value) : null;
  const decoded = escaped === null ? null : readXss(escaped, inDocument);
  if (decoded?.severity === 2) return toHit({ ...decoded, rule: decoded.rule + '_js_escaped' }, value);
  const found = readXss(masked ?? value, inDocument) ?? (decoded && { ...decoded, rule: decoded.rule + '_js_escaped' });
  if (found && location === 'path' && found.rule.startsWith('xss.js_') && !completesCode(value)) return null;
  if (found?.severity === 2) return toHit(found, value);
  const planted = headerMarkup(value, location, name) ?? (found ? null : markup);
  if (planted) return toHit(planted, value);
  return found ? toHit(found, value) : null;
}

/**
 * A path segment read as script needs a complete call, an assignment or a template: a page named
 * `document.cookie` (a manual's chapter) or `eval(` (a wiki title cut at the parenthesis) does nothing.
 */
function completesCode(value: string): boolean {
  const open = value.indexOf('(');
  return (open >= 0 && value.indexOf(')', open) > open) || value.includes('=') || value.includes('`');
}

function toHit(f: XssFinding, value: string): DetectorHit {
  return { kind: 'xss', rule: f.rule, severity: f.severity, evidence: value.slice(f.at, f.at + 120) };
}

export const detectXss: Detector = (value: string, location: InputLocation, name?: string) => detectXssAt(value, location, name);
