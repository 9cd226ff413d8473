import { decodeHtmlEntities } from '../../decode/html-entities.ts';
import { startTags, type HtmlAttribute, type HtmlTag } from './html.ts';
import { findScript, tokenizeJs } from './js.ts';

/**
 * What makes a tag or an attribute dangerous. Severity 2: it runs script (script element, event
 * handler with code, javascript: URL, srcdoc with script, CSS expression). Severity 1: elements
 * that embed or redirect (iframe, object, base, meta, form…) without visible script — rich-text
 * editors rarely need them, so strict mode blocks them and loose mode lets them through.
 */
export interface XssFinding {
  rule: string;
  severity: 1 | 2;
  /** Offset in the value where the evidence starts. */
  at: number;
}

/** Event handler attributes browsers fire (WHATWG, SVG, plus vendor ones seen in payloads). */
const events = new Set(
  (
    'abort afterprint animationcancel animationend animationiteration animationstart auxclick beforecopy beforecut ' +
    'beforeinput beforepaste beforeprint beforetoggle beforeunload begin blur cancel canplay canplaythrough change click close ' +
    'contextlost contextmenu contextrestored copy cuechange cut dblclick drag dragend dragenter dragexit dragleave dragover ' +
    'dragstart drop durationchange emptied end ended error focus focusin focusout formdata fullscreenchange gotpointercapture ' +
    'hashchange input invalid keydown keypress keyup load loadeddata loadedmetadata loadend loadstart lostpointercapture message ' +
    'messageerror mousedown mouseenter mouseleave mousemove mouseout mouseover mouseup mousewheel offline online pagehide ' +
    'pageshow paste pause play playing pointercancel pointerdown pointerenter pointerleave pointermove pointerout pointerover ' +
    'pointerrawupdate pointerup popstate progress ratechange repeat reset resize scroll scrollend securitypolicyviolation ' +
    'search seeked seeking select selectionchange selectstart show slotchange stalled storage submit suspend timeupdate toggle ' +
    'touchcancel touchend touchmove touchstart transitioncancel transitionend transitionrun transitionstart unhandledrejection ' +
    'unload volumechange waiting webkitanimationend webkitanimationiteration webkitanimationstart webkittransitionend wheel ' +
    'activate afterupdate beforeactivate beforedeactivate beforeeditfocus beforeupdate bounce cellchange controlselect ' +
    'dataavailable datasetchanged datasetcomplete deactivate errorupdate filterchange finish help layoutcomplete losecapture ' +
    'move moveend movestart propertychange readystatechange rowenter rowexit rowsdelete rowsinserted start zoom'
  )
    .split(' ')
    .map((e) => 'on' + e),
);

/**
 * Elements that embed other documents, submit elsewhere or load resources: suspicious when they
 * point somewhere (`<meta charset>`, `<link rel=…>` without href, `<style>` named in prose are not).
 */
const embeddingElements = new Set(['iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'meta', 'link', 'form', 'isindex', 'portal', 'vmlframe']);
const pluginElements = new Set(['embed', 'object', 'applet', 'vmlframe']);
const loadingAttributes = new Set(['src', 'data', 'href', 'action', 'code', 'codebase', 'srcdoc', 'content', 'archive']);
/** Elements whose only purpose is script. */
const scriptElements = new Set(['script']);

/** Browsers drop tabs, newlines and controls inside URL schemes (`java&Tab;script:`). */
function schemeOf(value: string): string {
  const decoded = decodeHtmlEntities(value);
  let compact = '';
  for (let i = 0; i < decoded.length && compact.length < 40; i++) {
    const c = decoded.charCodeAt(i);
    if (c <= 32 || c === 0xfeff || (c >= 0x200b && c <= 0x200f)) continue;
    compact += decoded[i];
  }
  return compact.toLowerCase();
}

export function isScriptUrl(value: string): boolean {
  const s = schemeOf(value);
  return s.startsWith('javascript:') || s.startsWith('vbscript:') || s.startsWith('livescript:') || s.startsWith('data:text/html') || s.startsWith('data:image/svg') || s.startsWith('data:application/xhtml') || s.startsWith('data:text/xml') || s.startsWith('data:application/x-shockwave');
}

/** CSS that runs script: IE expression(), behaviors, -moz-binding, javascript: in url(). */
export function isScriptCss(value: string): boolean {
  const css = decodeHtmlEntities(value)
    .replace(/\/\*[^]*?\*\//g, '')
    .replace(/\\([0-9a-fA-F]{1,6})\s?/g, (_m, hex: string) => String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff) || 0xfffd))
    .replace(/\\/g, '')
    .toLowerCase()
    .replace(/\s+/g, '');
  return css.includes('expression(') || css.includes('javascript:') || css.includes('vbscript:') || css.includes('-moz-binding') || css.includes('behavior:') || css.includes('behaviour:');
}

/**
 * CSS outside a tag (a style parameter): bindings and script URLs, not `expression(` which prose has.
 * A `url(` that opens with a script scheme counts even when the value stops at the scheme's name
 * (`x:url(javascript`): a probe cut where the page supplies the rest; no prose ends that way.
 */
export function isScriptCssValue(value: string): boolean {
  const compact = value.toLowerCase().replace(/\s+/g, '');
  if (/url\(['"]?(?:java|vb)script(?::|['"]?$)/.test(compact)) return true;
  return compact.includes('-moz-binding:') || compact.includes('behavior:url(');
}

/**
 * An attribute value as the browser hands it to the script engine, after an application that
 * unescapes once more: `confirm&amp;lpar;1&amp;rpar;` is `confirm(1)` once both have decoded it.
 * At most three rounds (each one can only shorten the text).
 */
function handlerCode(value: string): string {
  let text = value;
  for (let round = 0; round < 3 && text.indexOf('&') >= 0; round++) {
    const next = decodeHtmlEntities(text);
    if (next === text) break;
    text = next;
  }
  return text;
}

/** An attribute value that reads as code: a sink call, or at least a call or assignment. */
function looksExecutable(value: string): boolean {
  const decoded = handlerCode(value);
  if (findScript(tokenizeJs(decoded, 256)) !== null) return true;
  return /[(`=]/.test(decoded);
}

export function isEventName(name: string): boolean {
  return events.has(name);
}

/** Judges one attribute. `inTag`: it belongs to a real tag in the value (not an injected tail). */
export function judgeAttribute(attribute: HtmlAttribute, inTag: boolean): { rule: string; severity: 1 | 2 } | null {
  const { name, value } = attribute;
  if (name.startsWith('on') && name.length > 4) {
    if (isEventName(name)) {
      if (inTag && value.length > 0) return { rule: 'xss.event_handler', severity: looksExecutable(value) ? 2 : 1 };
      if (looksExecutable(value)) return { rule: 'xss.event_handler', severity: 2 };
    } else if (/^on[a-z]+$/.test(name) && value.length > 0) {
      if (findScript(tokenizeJs(decodeHtmlEntities(value), 256))) return { rule: 'xss.event_handler', severity: 2 };
      // An unknown handler holding a call (`onbeforehellfreezes=alerw(1)`) in a real tag: a probe for
      // the next browser's events; no editor writes on* attributes of its own invention.
      if (inTag && looksExecutable(value)) return { rule: 'xss.event_handler', severity: /^[\w$.]+\s*\(/.test(value.trim()) ? 2 : 1 };
    }
    return null;
  }
  if (value.length === 0) return null;
  if (isScriptUrl(value)) return { rule: 'xss.script_url', severity: 2 };
  if (name === 'style' && isScriptCss(value)) return { rule: 'xss.css_expression', severity: 2 };
  if (name === 'srcdoc') {
    const inner = judgeHtml(decodeHtmlEntities(value), 1);
    return { rule: 'xss.srcdoc', severity: inner && inner.severity === 2 ? 2 : 1 };
  }
  return null;
}

/** `x:script` is a script element in an XHTML namespace: judge the local name. */
function localName(name: string): string {
  const colon = name.lastIndexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function attributeValue(tag: HtmlTag, name: string): string | undefined {
  return tag.attributes.find((a) => a.name === name)?.value;
}

/** Words a script can start with followed by another word (`var x`, `new Image`); anything else that does is prose. */
const jsLeadingKeywords = new Set(['var', 'let', 'const', 'new', 'return', 'typeof', 'void', 'await', 'async', 'function', 'delete', 'throw', 'if', 'for', 'while', 'do', 'else', 'in', 'of', 'instanceof', 'yield', 'class', 'import', 'export', 'with', 'case', 'try', 'switch', 'debugger']);

/**
 * The text after a bare `<script>` (no `src`) reads as a sentence: its first line opens with two
 * words and the first is no JavaScript keyword ("Use <script> tags carefully", "Why our <script>
 * loading strategy changed"). Such an element cannot run: its content is a syntax error, and a
 * script with a syntax error runs none of its statements. Only real blanks separate the words:
 * `<script>x+y` is valid script (`x+y\nalert(1)` runs), so the reading of a form value that kept
 * its `+` is judged as written (the reading with `+` decoded to spaces is judged too).
 */
function proseFollows(text: string, from: number): boolean {
  const line = text.slice(from, from + 80);
  const m = /^\s*([A-Za-z]+)[ \t]+([A-Za-z]+)(?:[ \t,.:;!?]|$)/.exec(line);
  return m !== null && !jsLeadingKeywords.has(m[1]!.toLowerCase()) && !jsLeadingKeywords.has(m[2]!.toLowerCase());
}

/**
 * `<script>+tags+carefully:+put+them…`: the reading of a form value that kept its `+` blanks. Words
 * joined by `+` are a valid expression (`x+y+z`), so the sentence must also break the syntax: a `:`,
 * `.` or `!` right after a `+`-joined run of words (`carefully:+put`, `defer.+Kindly`) — no label,
 * member access or postfix operator can stand there, and a script with a syntax error runs nothing.
 */
function plusJoinedSentence(body: string): boolean {
  return /^[+\s]*[A-Za-z]{2,}(?:\+[A-Za-z]{2,})+[:.!]\+[A-Za-z]/.test(body.slice(0, 200));
}

/**
 * An `<iframe src="https://…">` and nothing else that loads: what editors insert for maps, videos
 * and other embeds (WordPress's HTML and embed blocks). In a document it is content; alone in a
 * parameter it stays suspicious. Script in it (`javascript:` src, handlers, srcdoc) is judged anyway.
 */
function isEditorEmbed(name: string, tag: HtmlTag): boolean {
  if (name !== 'iframe') return false;
  const src = attributeValue(tag, 'src');
  return src !== undefined && /^https:\/\/[^\s/]/i.test(src.trim()) && !tag.attributes.some((a) => a.name === 'srcdoc');
}

/**
 * `<link>` pulling a style sheet (or an HTML import) into the page: from a single value (not a
 * document: a theme's font link in a post stays suspicious) it restyles the page for phishing or
 * leaks its content through selectors, as `<style>@import` does. An `href` still open at the end of
 * the value (`<link / x href /=`) is the same load left for the page's next characters to finish,
 * as with `<base href`.
 */
function judgeLink(tag: HtmlTag, text: string, inDocument: boolean): XssFinding | null {
  const href = attributeValue(tag, 'href');
  if (href === undefined) return null;
  if (text[tag.end - 1] !== '>' && href.trim() === '') return { rule: 'xss.embedding_tag', severity: 2, at: tag.start };
  const rel = (attributeValue(tag, 'rel') ?? '').toLowerCase().split(/\s+/);
  if (!inDocument && href.trim() !== '' && (rel.includes('stylesheet') || rel.includes('import'))) return { rule: 'xss.css_import', severity: 2, at: tag.start };
  return null;
}

/** Controls that take what the user types (a planted login box reads a password). */
const entryControls: ReadonlySet<string> = new Set(['input', 'textarea', 'select', 'keygen']);
/** Attributes that say where a form is sent. */
const submissionAttributes: ReadonlySet<string> = new Set(['action', 'formaction', 'form']);

/**
 * Markup that runs nothing yet changes the page around it, from a single value (strict mode only):
 * a `<meta>` that sets the charset or a header (a page re-read as UTF-7 or ISO-2022 lets escaped
 * script through), an entry control with attributes (a login box planted in the page, a `pattern`
 * the page did not write), a form or button that says where to send the page's form. In a document
 * (a post, a tutorial) it is content. A site-verification `<meta name content>` pasted into a
 * theme's header field, and a `<button class>` in a custom HTML block, set neither and pass.
 */
function pageMarkup(name: string, tag: HtmlTag): XssFinding | null {
  const named = (set: ReadonlySet<string>) => tag.attributes.some((a) => set.has(a.name));
  if (name === 'meta' && tag.attributes.some((a) => a.name === 'charset' || a.name === 'http-equiv')) return { rule: 'xss.page_markup', severity: 1, at: tag.start };
  if (entryControls.has(name) && tag.attributes.some((a) => a.name.length > 0)) return { rule: 'xss.page_markup', severity: 1, at: tag.start };
  if ((name === 'form' || name === 'button') && named(submissionAttributes)) return { rule: 'xss.page_markup', severity: 1, at: tag.start };
  return null;
}

function judgeTag(tag: HtmlTag, text: string, depth: number, inDocument: boolean): XssFinding | null {
  let worst: XssFinding | null = null;
  const name = localName(tag.name);
  if (scriptElements.has(name)) {
    const loadsSource = tag.attributes.some((a) => a.name === 'src' || a.name.endsWith('href'));
    // `<script>` and a sentence after it: the element's content is a syntax error (two words in a
    // row on its first line), and a script with a syntax error runs none of its statements —
    // whatever later lines, a closing tag or the page hold (a second `<script>` is judged on its
    // own). Nothing to block, in a document or not ("Why our <script> loading strategy changed").
    if (!loadsSource && text[tag.end - 1] === '>' && proseFollows(text, tag.end)) return null;
    const close = text.toLowerCase().indexOf('</script', tag.end);
    // A complete element (`<script>…</script>`) or one that loads code is code whatever it holds.
    if (loadsSource || close >= 0) return { rule: 'xss.script_tag', severity: 2, at: tag.start };
    const body = text.slice(tag.end);
    if (findScript(tokenizeJs(body, 512)) !== null) return { rule: 'xss.script_tag', severity: 2, at: tag.start };
    // `=` or `(` in a body that is not wordy is code (`<script>location=name`); wordy text with an
    // `=` in it is suspicious. A bare `<script>` (nothing after it that reads as words) is a probe;
    // in a document it cannot run anything either.
    if (plusJoinedSentence(body)) return null;
    const codeChars = /[=(]/.test(body);
    if (codeChars) return { rule: 'xss.script_tag', severity: /[\s+]\w+[\s+]\w+[\s+]/.test(body) ? 1 : 2, at: tag.start };
    return inDocument && text[tag.end - 1] === '>' ? null : { rule: 'xss.script_tag', severity: 1, at: tag.start };
  }
  // A refresh to elsewhere or a new base URL hijacks the page without script.
  // A `<base href` whose value is still open (the input stops at `href` or `href=`) is the same
  // takeover left for the page's next characters to finish.
  if ((name === 'meta' && (attributeValue(tag, 'http-equiv') ?? '').toLowerCase() === 'refresh') || (name === 'base' && (attributeValue(tag, 'href') || (attributeValue(tag, 'href') !== undefined && text[tag.end - 1] !== '>')))) {
    return { rule: 'xss.redirect_tag', severity: 2, at: tag.start };
  }
  if (name === 'link') {
    const found = judgeLink(tag, text, inDocument);
    if (found) return found;
  }
  for (const attribute of tag.attributes) {
    const verdict = judgeAttribute(attribute, true);
    if (verdict?.severity === 2) return { ...verdict, severity: 2, at: tag.start };
    if (verdict && !worst) worst = { ...verdict, at: tag.start };
  }
  if (name === 'style') {
    const close = text.toLowerCase().indexOf('</style', tag.end);
    const css = text.slice(tag.end, close < 0 ? undefined : close);
    if (isScriptCss(css)) return { rule: 'xss.css_expression', severity: 2, at: tag.start };
    // A style sheet pulled from elsewhere can restyle the page for phishing or leak data with
    // selectors: from a URL in a single value it is an injection; in a document, a theme's fonts.
    const imported = /@import\s*(?:url\(\s*)?['"]?\s*(?:https?:)?\/\//i.exec(css.replace(/\\/g, ''));
    if (!worst && imported) worst = { rule: 'xss.css_import', severity: inDocument ? 1 : 2, at: tag.start };
    else if (!worst && /@import/i.test(css.replace(/\\/g, ''))) worst = { rule: 'xss.css_import', severity: 1, at: tag.start };
  }
  if (!worst && !inDocument && depth === 0) worst = pageMarkup(name, tag);
  if (!worst && embeddingElements.has(name) && depth === 0 && !(inDocument && isEditorEmbed(name, tag)) && tag.attributes.some((a) => loadingAttributes.has(a.name) && (a.name !== 'content' || /url|javascript|:/i.test(a.value)))) {
    // Plugins (Flash, Java, VML) run code of their own; an iframe or a link may be an embed from an editor.
    worst = { rule: 'xss.embedding_tag', severity: pluginElements.has(name) ? 2 : 1, at: tag.start };
  }
  return worst;
}

/** Tags in the value: the worst finding (the first severity 2, else the first severity 1). */
export function judgeHtml(text: string, depth = 0, inDocument = false): XssFinding | null {
  if (text.indexOf('<') < 0) return null;
  let first: XssFinding | null = null;
  for (const tag of startTags(text)) {
    const finding = judgeTag(tag, text, depth, inDocument);
    if (finding?.severity === 2) return finding;
    first ??= finding;
  }
  return first;
}
