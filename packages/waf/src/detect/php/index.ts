/**
 * PHP injection (CRS 933): PHP code where the application expects data. The value is read with a
 * small PHP lexer (lex.ts) and its calls evaluated (calls.ts); around that, the other shapes PHP
 * injection takes: open tags, serialized objects (object injection), superglobals, variable
 * variables, php.ini directives (PHP-CGI `-d` injection, .user.ini uploads) and uploads named like
 * PHP session files (session poisoning).
 *
 * Context decides the severity: a shape only evasion produces (a comment between a name and its
 * `(`, a callee assembled from strings, a variable function) is a clear attack; a plain call to a
 * dangerous function is one when it is the value, or code around it; the same call in a sentence
 * or a post (looksLikeDocument) is what PHP tutorials contain, so it is suspicious at most.
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { looksBinary, looksLikeDocument } from '../text-shape.ts';
import { englishCallees, findCalls, isBuiltin, isDangerous, type PhpCall } from './calls.ts';
import { dnsFunctions } from './functions.ts';
import { judgeIniDirective } from './ini.ts';
import { lexPhp, type PhpToken } from './lex.ts';
import { findOpenTag } from './open-tags.ts';
import { findSerializedObject } from './serialized.ts';
import { judgeWholeCall } from './whole-call.ts';
import { sessionFileUpload } from './session-file.ts';
import { maxScannedValue } from '../scan-limit.ts';

const maxScan = maxScannedValue;

export function detectPhpInjection(value: string, location: InputLocation, name = ''): DetectorHit | null {
  try {
    if (location === 'file_content') return null; // web shells in uploads are the webshell detector's
    const session = sessionFileUpload(value, location, name);
    if (session) return session;
    const text = value.length > maxScan ? value.slice(0, maxScan) : value;
    // Binary data read as text (an image posted raw) holds PHP-looking bytes by chance, and lexing it is waste.
    if ((location === 'raw_body' || location === 'body') && looksBinary(value)) return null;
    const found = detect(text, location);
    if (!found || found.severity < 2) return found;
    // A post or a multi-line message quoting PHP: only evasion shapes stay clear attacks.
    if ((location === 'body' || location === 'raw_body') && !evasive.has(found.rule) && looksLikeDocument(text)) return { ...found, severity: 1 };
    return found;
  } catch {
    return null;
  }
}

/** Shapes no tutorial needs: kept at severity 2 inside documents. */
const evasive = new Set(['php.commented_call', 'php.assembled_callee', 'php.serialized_object', 'php.variable_variable']);

function detect(text: string, location: InputLocation): DetectorHit | null {
  let best: DetectorHit | null = null;
  const keep = (h: DetectorHit | null): DetectorHit | null => {
    if (h && (!best || h.severity > best.severity)) best = h;
    return h && h.severity === 2 ? h : null;
  };
  if (keep(findOpenTag(text))) return best;
  if (keep(findSerializedObject(text))) return best;
  if (keep(judgeIniDirective(text))) return best;
  if (keep(judgeWholeCall(text))) return best;
  if (!worthLexing(text)) return best;
  const tokens = lexPhp(text);
  if (keep(judgeVariables(text, tokens, location))) return best;
  if (text.includes('(')) keep(judgeCalls(text, tokens, location));
  return best;
}

/**
 * Lexing is the expensive part: only values that can hold a call or a variable pay for it — a
 * `$` before a name or brace, a comment, or a `(` after a dangerous or built-in name or after the
 * end of a literal or group (`"system"(`, `(x)(`, `[a][0](`).
 */
function worthLexing(text: string): boolean {
  for (let at = text.indexOf('$'); at >= 0; at = text.indexOf('$', at + 1)) {
    const c = text.charCodeAt(at + 1);
    if (c === 123 || c === 36 || c === 95 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return true;
    // `$ {…}`: PHP allows blanks between the `$` and the brace of a variable variable.
    if (c === 32 || c === 9) {
      let k = at + 1;
      while (k < text.length && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k++;
      if (text.charCodeAt(k) === 123) return true;
    }
  }
  if (text.indexOf('(') < 0) return false;
  // Comments hide a call only in code: `/* */` anywhere, `#` and `//` when a line break ends them
  // (a URL's "//" or an anchor's "#" on one line is not a comment that matters).
  if (text.includes('/*')) return true;
  if ((text.includes('\n') || text.includes('\r')) && (text.includes('#') || text.includes('//'))) return true;
  for (let at = text.indexOf('('); at >= 0; at = text.indexOf('(', at + 1)) {
    let k = at - 1;
    while (k >= 0 && text.charCodeAt(k) <= 32) k--;
    if (k < 0) continue;
    const c = text[k]!;
    if (c === ')' || c === ']' || c === '}' || c === '"' || c === "'" || c === '`') return true;
    let w = k;
    while (w >= 0 && /[A-Za-z0-9_]/.test(text[w]!)) w--;
    if (w === k) continue;
    const word = text.slice(w + 1, k + 1).toLowerCase();
    if (isDangerous(word) || isBuiltin(word) || dnsFunctions.has(word)) return true;
  }
  return false;
}

const superglobals = new Set([
  '$_get', '$_post', '$_cookie', '$_request', '$_server', '$_env', '$_files', '$_session', '$globals', '$http_raw_post_data',
  '$http_get_vars', '$http_post_vars', '$http_cookie_vars', '$http_server_vars', '$http_env_vars', '$http_post_files', '$http_response_header',
]);
const nameLocations = new Set<InputLocation>(['query_name', 'body_name', 'cookie_name']);

function judgeVariables(text: string, tokens: readonly PhpToken[], location: InputLocation): DetectorHit | null {
  let best: DetectorHit | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'var') continue;
    const next = tokens[i + 1];
    // ${…}, $ {…}: PHP's variable variables. "$ {" with a gap, or a quoted or $-name inside, is PHP
    // only (JavaScript and shell templates write ${name} glued and bare).
    if (t.text.endsWith('$') && next?.text === '{') {
      const inner = tokens[i + 2];
      if (!inner || inner.text === '}') continue; // `${}` / `$ { }`: nothing to evaluate
      if (text[t.start - 1] === '\\') continue; // `\${…}`: escaped, text about a shell or a template
      // `${@…}` suppresses errors of a PHP expression; shell's `${@:…}`, `${@}` are its positional parameters.
      const suppressed = inner.text === '@' && /^[A-Za-z_$(]/.test(text.slice(inner.end, inner.end + 1));
      const phpOnly = next.spaced || inner.kind === 'string' || inner.kind === 'var' || suppressed;
      if (phpOnly) return hit('php.variable_variable', text, t.start, 2);
      continue;
    }
    // (`$_S ERVER['x']`, a name cut by blanks, stays out: CRS's must-pass tests hold the very same
    // payload for 933130 that 933131 expects blocked, so blocking it costs as much as it gains.)
    if (!superglobals.has(t.text.toLowerCase())) continue;
    // The superglobal is the name or the whole value ("$_POST is empty" is a question about it).
    const whole = nameLocations.has(location) || tokens.length <= 2;
    // Indexed ($_SERVER['x']) it is code — when it is the value or part of code, not the subject of a question.
    const indexed = next?.text === '[' && (i === 0 ? subscriptIsTail(tokens, i + 1) : tokens[i - 1]!.kind === 'punct');
    const found = hit('php.superglobal', text, t.start, whole || indexed ? 2 : 1);
    if (found.severity === 2) return found;
    best ??= found;
  }
  return best;
}

/** After the `[…]` opened at `open`: nothing, or punctuation (`;`, `)`, `.`), not words. */
function subscriptIsTail(tokens: readonly PhpToken[], open: number): boolean {
  let depth = 0;
  let k = open;
  for (; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind !== 'punct') continue;
    if (t.text === '[') depth++;
    else if (t.text === ']' && --depth === 0) break;
  }
  const next = tokens[k + 1];
  return next === undefined || next.kind === 'punct';
}

function judgeCalls(text: string, tokens: readonly PhpToken[], location: InputLocation): DetectorHit | null {
  let best: DetectorHit | null = null;
  for (const call of findCalls(tokens)) {
    // A path segment cut at its parenthesis (`/wiki/eval(`) reads as a page title as much as a
    // probe: suspicious only (strict blocks it, loose lets it through); with its arguments
    // (`/x/system('id')`, `/get/substr()`) it is judged as anywhere.
    const titleLike = location === 'path' && call.cutOff && call.shape === 'name' && !call.commented;
    const severity = titleLike ? (Math.min(1, callSeverity(call, tokens)) as 0 | 1) : callSeverity(call, tokens);
    if (severity === 0) continue;
    const rule = call.commented ? 'php.commented_call' : call.shape === 'variable' ? 'php.variable_function' : call.shape === 'expression' ? 'php.assembled_callee' : 'php.function_call';
    const found = hit(rule, text, tokens[call.first]!.start, severity);
    if (severity === 2) return found;
    best ??= found;
  }
  return best;
}

const inclusion = new Set(['include', 'include_once', 'require', 'require_once']);

/** Punctuation after which a call is a statement or an operand, not a word in a sentence. */
const codeBefore = new Set([';', '@', '=', '(', '{', '.', '<?', '?>', '`', ',', '[', '!']);

function callSeverity(call: PhpCall, tokens: readonly PhpToken[]): 0 | 1 | 2 {
  const first = tokens[call.first]!;
  const before = tokens[call.first - 1];
  // The call opens the value (after `@` or a quote that broke out of a string) or follows code.
  const opens = call.first === 0 || (call.first === 1 && before!.kind === 'punct' && (before!.text === '@' || before!.text === "'" || before!.text === '"' || before!.text === ';'));
  const inCode = before !== undefined && ((before.kind === 'punct' && codeBefore.has(before.text)) || (before.kind === 'ident' && /^(?:return|echo|print)$/i.test(before.text)));
  const wholeCall = opens && restIsTail(tokens, call.paren);
  if (call.shape === 'variable') {
    // ${name}(…) is also a JavaScript or shell template followed by text: glued and alone it is a call.
    if (call.templateLike && !call.commented) return tokens[call.paren]!.spaced ? 0 : wholeCall ? 2 : 1;
    // $a(1): the call syntax of web shells. Glued or commented it is code; "$a (b)" inside prose is not.
    if (opens || call.commented) return 2;
    if (!first.spaced && !tokens[call.paren]!.spaced) return 2;
    return inCode ? 2 : 1;
  }
  const dangerous = isDangerous(call.name);
  if (call.shape === 'expression') return dangerous ? 2 : 0;
  if (call.commented && (dangerous || isBuiltin(call.name))) return 2; // `checkdate/*x*/()`: only evasion comments there
  if (dnsFunctions.has(call.name)) return wholeCall ? 1 : 0; // functions.ts: a probe only as the whole value
  if (!dangerous) return opens && isBuiltin(call.name) ? 1 : 0;
  // include/require take a file: `require("fs")` is JavaScript, `require('/tmp/x.php')` an inclusion.
  if (inclusion.has(call.name)) {
    const arg = call.firstArgument;
    if (!(arg?.kind === 'var' || (arg?.kind === 'string' && /[/.:\\]/.test(arg.text)))) return wholeCall ? 1 : 0;
  }
  // "file(s)", "system(s)": an English word with a bare word in parentheses reads as prose.
  const prose = englishCallees.has(call.name) && (call.bareWordArgument || call.cutOff || !call.codeArguments);
  // Whole: "system(s)" and a cut-off "exec (" are probes or prose, "system (as described…)" is prose.
  if (wholeCall) return prose ? (call.bareWordArgument || call.cutOff ? 1 : 0) : 2;
  // "system() vs exec() in PHP", "print_r($a) shows nothing": a title that starts with a call and goes on in words.
  if (opens) return prose ? 0 : 1;
  if (inCode) return call.codeArguments && !prose ? 2 : 1;
  return 0;
}

/** After the call's `)`: nothing, or what ends an expression (`;`, `.x`, `[0]`, `?>`), never words. */
function restIsTail(tokens: readonly PhpToken[], paren: number): boolean {
  let depth = 0;
  let k = paren;
  for (; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind !== 'punct') continue;
    if (t.text === '(') depth++;
    else if (t.text === ')' && --depth === 0) break;
  }
  // Never closed: a cut-off probe (`base64_decode(`) when nothing follows the `(`, else words.
  if (k >= tokens.length) return paren === tokens.length - 1;
  const next = tokens[k + 1];
  if (next === undefined) return true;
  return next.kind === 'punct' && [';', '.', '[', '?>', ')', ',', '`', '-', '&', '|'].includes(next.text) && tokens.length - k <= 5;
}

function hit(rule: string, text: string, at: number, severity: 1 | 2): DetectorHit {
  return { kind: 'cmdi', rule, evidence: text.slice(Math.max(0, at - 10), at + 110).slice(0, 120), severity };
}
