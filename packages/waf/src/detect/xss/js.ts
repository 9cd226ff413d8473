/**
 * Just enough JavaScript to recognise script an attacker wants run: a tokenizer (identifiers,
 * strings, template backticks, punctuation, comments) and a search for calls of the functions
 * XSS payloads call (alert, prompt, eval, setTimeout, fetch, …) in the shapes they use to dodge
 * filters: `(alert)(1)`, `alert.call(null,1)`, ``alert`1` ``, `alert?.()`, `[1].some(confirm)`,
 * `x.constructor('…')()`, and reads of `document.cookie` / `document["cookie"]`.
 */
export interface JsToken {
  type: 'name' | 'string' | 'number' | 'punct';
  text: string;
  start: number;
  closed?: boolean;
  /** For strings: the quote character (a backtick makes it a template literal). */
  quote?: string;
  /** For names: a letter, digit, `_` or `$` of it was written as a `\u` escape (`\u0061lert`). */
  escapedAscii?: boolean;
}

/**
 * `\u0061`, `\u{61}` at `i`: JavaScript reads the escape inside an identifier as the character
 * itself. Returns the character and the escape's length, or null.
 */
function identifierEscape(text: string, i: number): { char: string; length: number } | null {
  if (text[i] !== '\\' || text[i + 1] !== 'u') return null;
  const m = /^\\u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]{1,6})\})/.exec(text.slice(i, i + 10));
  if (!m) return null;
  const code = parseInt(m[1] ?? m[2]!, 16);
  if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return null;
  return { char: String.fromCodePoint(code), length: m[0].length };
}

function isIdentifierCode(d: number): boolean {
  return (d >= 48 && d <= 57) || (d >= 65 && d <= 90) || (d >= 97 && d <= 122) || d === 95 || d === 36 || d >= 128;
}

/**
 * An identifier from `i` with its `\u` escapes decoded. `escapedAscii`: an escape stood for a
 * plain ASCII character — no encoder writes one (JSON and JS escape only what is not ASCII), so
 * the spelling exists to hide the word from filters.
 */
function readIdentifier(text: string, i: number): { name: string; end: number; escapedAscii: boolean } {
  let name = '';
  let escapedAscii = false;
  let j = i;
  while (j < text.length && name.length < 256) {
    const escape = identifierEscape(text, j);
    if (escape) {
      const d = escape.char.codePointAt(0)!;
      if (!isIdentifierCode(d)) break;
      if (d < 128) escapedAscii = true;
      name += escape.char;
      j += escape.length;
      continue;
    }
    if (!isIdentifierCode(text.charCodeAt(j))) break;
    name += text[j];
    j++;
  }
  return { name, end: j, escapedAscii };
}

export function tokenizeJs(text: string, maxTokens = 2048): JsToken[] {
  const tokens: JsToken[] = [];
  let i = 0;
  while (i < text.length && tokens.length < maxTokens) {
    const c = text[i]!;
    const code = c.charCodeAt(0);
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      const eol = text.indexOf('\n', i);
      if (eol < 0) break;
      i = eol + 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) break;
      i = close + 2;
      continue;
    }
    const start = i;
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      let closed = false;
      for (; j < text.length; j++) {
        if (text[j] === '\\') j++;
        else if (text[j] === c) {
          closed = true;
          j++;
          break;
        } else if (text[j] === '\n' && c !== '`') break;
      }
      tokens.push({ type: 'string', text: text.slice(i + 1, closed ? j - 1 : j), start, closed, quote: c });
      i = j;
      continue;
    }
    const escapedStart = c === '\\' ? identifierEscape(text, i) : null;
    const escapedStartCode = escapedStart ? escapedStart.char.codePointAt(0)! : -1;
    if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122) || c === '_' || c === '$' || code >= 128 || (escapedStartCode >= 0 && isIdentifierCode(escapedStartCode) && !(escapedStartCode >= 48 && escapedStartCode <= 57))) {
      const { name, end, escapedAscii } = readIdentifier(text, i);
      tokens.push(escapedAscii ? { type: 'name', text: name, start, escapedAscii } : { type: 'name', text: name, start });
      i = end;
      continue;
    }
    if (code >= 48 && code <= 57) {
      let j = i + 1;
      while (j < text.length && /[0-9a-zA-Z.]/.test(text[j]!)) j++;
      tokens.push({ type: 'number', text: text.slice(i, j), start });
      i = j;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '?.' || two === '=>' || two === '||' || two === '&&' || two === '==' || two === '!=' || two === '++' || two === '--') {
      tokens.push({ type: 'punct', text: two, start });
      i += 2;
      continue;
    }
    tokens.push({ type: 'punct', text: c, start });
    i++;
  }
  return tokens;
}

/** Functions that run code, show a dialog (the proof-of-concept call) or send data out. */
const sinks = new Set([
  'alert', 'prompt', 'confirm', 'eval', 'Function', 'setTimeout', 'setInterval', 'setImmediate', 'execScript',
  'fetch', 'atob', 'import', 'write', 'writeln', 'fromCharCode', 'sendBeacon', 'open', 'showModalDialog',
  'print', 'constructor', 'XMLHttpRequest', 'WebSocket', 'postMessage', 'insertAdjacentHTML', 'createElement',
  'appendChild', 'assign', 'replace', 'Image', 'require',
]);
/** The ones that are unmistakable alone; others (open, print, write, replace, assign, …) need a receiver. */
const strongSinks = new Set(['alert', 'prompt', 'confirm', 'eval', 'Function', 'setTimeout', 'setInterval', 'execScript', 'atob', 'fromCharCode', 'constructor', 'sendBeacon']);
const receivers = new Set(['document', 'window', 'location', 'self', 'top', 'parent', 'frames', 'globalThis', 'navigator', 'String', 'this', 'opener', 'content']);
const sensitiveProperties = new Set(['cookie', 'domain', 'location', 'innerHTML', 'outerHTML', 'href', 'localStorage', 'sessionStorage', 'name', 'onerror', 'src']);

/** Methods that call the function they are handed as the first argument. */
const invokers = new Set(['apply', 'call', 'bind', 'construct']);

export interface JsFinding {
  /** Token index of the call or access. */
  at: number;
  /** 'obfuscated' shapes no prose has; 'plain' is `alert(1)`. */
  shape: 'obfuscated' | 'plain' | 'access';
  name: string;
}

function isPunct(t: JsToken | undefined, text: string): boolean {
  return t !== undefined && t.type === 'punct' && t.text === text;
}

/** `at eval (file:line:col)`, `at eval (eval at f (…), <anonymous>:1:1)`: V8's frame of code run by eval. */
function isStackFrame(text: string, at: number): boolean {
  return /\bat\s+(?:new\s+)?$/.test(text.slice(Math.max(0, at - 8), at)) && /^eval\s*\((?:eval at |<anonymous>|[^\s()'"`]+:\d+(?::\d+)?\))/.test(text.slice(at, at + 80));
}

/** The first sink call or sensitive access in the tokens from `from`. */
export function findScript(tokens: readonly JsToken[], from = 0, text?: string): JsFinding | null {
  for (let k = from; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (escapedIdentifierUse(tokens, k)) return { at: k, shape: 'obfuscated', name: t.text };
    if (t.text === 'Function' && t.type === 'name' && tokens[k - 1]?.text === 'new' && isPunct(tokens[k + 1], '(')) {
      // new Function(…): code compiled from a string, the constructor eval hides behind.
      return { at: k, shape: 'obfuscated', name: 'new Function' };
    }
    if (t.type === 'name' && sinks.has(t.text)) {
      // `at eval (app.js:12:3)`: a frame of a stack trace (error reporters send them), not a call.
      if (text !== undefined && isStackFrame(text, t.start)) continue;
      const prev = tokens[k - 1];
      const viaDot = isPunct(prev, '.') || isPunct(prev, '?.');
      const receiver = viaDot ? tokens[k - 2] : undefined;
      if (!strongSinks.has(t.text) && !(receiver && receivers.has(receiver.text))) continue;
      let next = k + 1;
      // `(alert)(1)`: the name wrapped in parentheses.
      const wrapped = isPunct(prev, '(') && isPunct(tokens[next], ')');
      if (wrapped) next++;
      const after = tokens[next];
      // alert`1` — glued to the name; `eval `dircolors`` with a space is shell quoting in prose.
      const tagged = after?.type === 'string' && after.quote === '`' && after.start === t.start + t.text.length;
      if (isPunct(after, '(') || tagged || isPunct(after, '?.')) {
        const obfuscated = wrapped || !isPunct(after, '(') || t.text === 'constructor' || argumentsLookHostile(tokens, next);
        if (obfuscated) return { at: k, shape: 'obfuscated', name: t.text };
        if (looksLikeCall(tokens, k, next, text)) return { at: k, shape: 'plain', name: t.text };
        continue;
      }
      if (isPunct(after, '.') && ['call', 'apply', 'bind'].includes(tokens[next + 1]?.text ?? '') && isPunct(tokens[next + 2], '(')) {
        return { at: k, shape: 'obfuscated', name: t.text };
      }
      // Passed as a callback: `[1].some(confirm)`, `onerror=alert`, `{window.onerror=eval}`.
      if (strongSinks.has(t.text) && (isPunct(prev, '(') || isPunct(prev, '=') || isPunct(prev, ',')) && (isPunct(after, ')') || isPunct(after, '}') || isPunct(after, ';') || after === undefined)) {
        return { at: k, shape: 'obfuscated', name: t.text };
      }
      // Handed to a function that calls it: `Reflect.apply(alert, null, [1])`,
      // `Function.prototype.call.call(alert, 0, 1)` — the sink runs without its name before `(`.
      if (strongSinks.has(t.text) && isPunct(prev, '(') && isPunct(after, ',') && invokers.has(tokens[k - 2]?.text ?? '') && isPunct(tokens[k - 3], '.')) {
        return { at: k, shape: 'obfuscated', name: t.text };
      }
    } else if (t.type === 'name' && receivers.has(t.text) && isPunct(tokens[afterReceiver(tokens, k)], '[') && computedCall(tokens, afterReceiver(tokens, k))) {
      // top["al"+"ert"](1), window['eval'](…), self["$"]["globalEval"](…): a name assembled from strings, then called.
      return { at: k, shape: 'obfuscated', name: t.text + '[…]' };
    } else if (t.type === 'name' && (t.text === 'document' || t.text === 'window') && afterReceiver(tokens, k) > k + 1 && isPunct(tokens[afterReceiver(tokens, k)], '[')) {
      // (document)["cookie"]: the receiver wrapped in parentheses, then a computed property.
      const prop = tokens[afterReceiver(tokens, k) + 1];
      if (prop?.type === 'string' && sensitiveProperties.has(prop.text)) return { at: k, shape: 'access', name: `${t.text}.${prop.text}` };
    } else if (t.type === 'name' && (t.text === 'call' || t.text === 'apply') && isPunct(tokens[k - 1], '.') && (taggedWithExpression(tokens[k + 1]) || gluedTemplate(t, tokens[k + 1]))) {
      // [].sort.call`${alert}1337`, Reflect.apply.call`${f}…`: a tagged template calls with its parts;
      // glued to `.call` with no part yet (Reflect.sort.call``), it is the same call without parentheses.
      return { at: k, shape: 'obfuscated', name: t.text + '`…`' };
    } else if (t.type === 'name' && escapedGlobalLookup(tokens, k)) {
      // self["\x24"], window['\u0065val']: a global looked up by a name spelled in escapes.
      return { at: k, shape: 'obfuscated', name: t.text + '[…]' };
    } else if (t.type === 'name' && receivers.has(t.text) && t.text !== 'this') {
      // document.cookie, document["cookie"], window['location']
      const dot = tokens[k + 1];
      const prop = dot && (isPunct(dot, '.') || isPunct(dot, '?.')) ? tokens[k + 2] : isPunct(dot, '[') ? tokens[k + 2] : undefined;
      if (prop && (prop.type === 'name' || prop.type === 'string') && sensitiveProperties.has(prop.text) && (t.text === 'document' || t.text === 'window')) {
        // cookie/domain reads are exfiltration; location or name alone is how prose about JS talks.
        const shape = prop.text === 'cookie' || prop.text === 'domain' || prop.text === 'innerHTML' || prop.text === 'outerHTML' ? 'access' : 'plain';
        return { at: k, shape, name: `${t.text}.${prop.text}` };
      }
    }
  }
  return null;
}

/**
 * `alert(1)` rather than `a prompt (one with newlines)`: the parenthesis is glued to the name and
 * the arguments are not a run of words.
 */
function looksLikeCall(tokens: readonly JsToken[], name: number, open: number, text?: string): boolean {
  const t = tokens[name]!;
  if (tokens[open]!.start !== t.start + t.text.length && !isPunct(tokens[name - 1], '.')) return false;
  let words = 0;
  for (let k = open + 1; k < tokens.length && k < open + 32; k++) {
    const a = tokens[k]!;
    if (isPunct(a, ')')) {
      if (k > open + 1) return true;
      // `alert()` used as a noun ("does an alert() box block the page"): a name follows on the
      // same line, which no script allows after a call, so it names the function, not calls it.
      if (text !== undefined && nounFollows(tokens, k, text)) return false;
      return ['alert', 'prompt', 'confirm', 'print'].includes(t.text);
    }
    words = a.type === 'name' ? words + 1 : 0;
    if (words >= 2) return false;
  }
  return true;
}

/** JavaScript words that may follow an expression on the same line. */
const infixKeywords = new Set(['in', 'of', 'instanceof']);

/** The token after `close` is a plain word on the same line (prose: "alert() box"). */
function nounFollows(tokens: readonly JsToken[], close: number, text: string): boolean {
  const next = tokens[close + 1];
  if (!next || next.type !== 'name' || infixKeywords.has(next.text)) return false;
  return !text.slice(tokens[close]!.start, next.start).includes('\n');
}

/**
 * A name spelled with escapes of plain ASCII letters (`\u0061lert(1)`, `\u0076alueOf=`) that is
 * called, assigned or tagged: code hiding its words from filters. A `\u0041` inside a string
 * (a post showing escapes) is part of the string token, not a name.
 */
function escapedIdentifierUse(tokens: readonly JsToken[], k: number): boolean {
  const t = tokens[k]!;
  if (t.type !== 'name' || !t.escapedAscii) return false;
  const next = tokens[k + 1];
  return isPunct(next, '(') || isPunct(next, '=') || (next?.type === 'string' && next.quote === '`');
}

/** The first escaped name used as code (see escapedIdentifierUse), for readings after a closed quote. */
export function findEscapedIdentifier(tokens: readonly JsToken[], from = 0): JsFinding | null {
  for (let k = from; k < tokens.length; k++) if (escapedIdentifierUse(tokens, k)) return { at: k, shape: 'obfuscated', name: tokens[k]!.text };
  return null;
}

/** After a receiver at `k`: the index past `)` when it is wrapped as `(document)`, else `k + 1`. */
function afterReceiver(tokens: readonly JsToken[], k: number): number {
  return isPunct(tokens[k - 1], '(') && isPunct(tokens[k + 1], ')') ? k + 2 : k + 1;
}

/** A template literal with a `${…}` part: the arguments of a tagged call. */
function taggedWithExpression(t: JsToken | undefined): boolean {
  return t !== undefined && t.type === 'string' && t.quote === '`' && t.text.includes('${');
}

/** A template literal written right after the name (`call``…```): a tagged call, not two words. */
function gluedTemplate(name: JsToken, next: JsToken | undefined): boolean {
  return next !== undefined && next.type === 'string' && next.quote === '`' && next.start === name.start + name.text.length;
}

/** Globals a page's script can be reached through by a computed name. */
const globalObjects = new Set(['window', 'self', 'top', 'parent', 'frames', 'globalThis', 'document', 'opener']);

/**
 * `self["\x24"]`: a global object indexed by a string spelled in `\x`/`\u` escapes. Only code
 * hiding the name it reaches for writes a property that way.
 */
function escapedGlobalLookup(tokens: readonly JsToken[], k: number): boolean {
  if (!globalObjects.has(tokens[k]!.text)) return false;
  const open = afterReceiver(tokens, k);
  const key = tokens[open + 1];
  return isPunct(tokens[open], '[') && key?.type === 'string' && /\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F{])/.test(key.text) && isPunct(tokens[open + 2], ']');
}

/** `[ strings… ]` (one or more, `["$"]["globalEval"]`) followed by `(`: a computed member call. */
function computedCall(tokens: readonly JsToken[], open: number): boolean {
  let sawString = false;
  for (let k = open + 1; k < tokens.length && k < open + 32; k++) {
    const t = tokens[k]!;
    if (isPunct(t, ']') && isPunct(tokens[k + 1], '[')) {
      k++;
      continue;
    }
    if (isPunct(t, ']')) return sawString && isPunct(tokens[k + 1], '(');
    if (t.type === 'string') sawString = true;
    else if (!isPunct(t, '+')) return false;
  }
  return false;
}

/** Arguments that reference other sinks or the document: `eval(atob(…))`, `alert(document.domain)`. */
function argumentsLookHostile(tokens: readonly JsToken[], open: number): boolean {
  let depth = 0;
  for (let k = open; k < tokens.length && k < open + 64; k++) {
    const t = tokens[k]!;
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')') && --depth <= 0) return false;
    else if (t.type === 'name' && (strongSinks.has(t.text) || t.text === 'document' || t.text === 'window' || t.text === 'cookie' || t.text === 'String')) return true;
  }
  return false;
}

/** Tokens that may follow a string an attacker closed, when they go on as code. */
const breakoutPunctuation = new Set([';', ',', '+', '-', '*', '/', '%', ')', '}', ']', '||', '&&', '?', ':', '==', '!=', '<', '>', '|', '&', '^', '=']);

/** After the closing quote at token 0: does the value continue as code that calls a sink? */
export function stringBreakout(tokens: readonly JsToken[]): JsFinding | null {
  const next = tokens[1];
  if (!next || next.type !== 'punct' || !breakoutPunctuation.has(next.text)) return null;
  return findScript(tokens, 1);
}
