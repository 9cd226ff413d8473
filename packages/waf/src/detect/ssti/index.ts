/**
 * Server-side template injection. Finds template delimiters ({{ }}, ${ }, #{ }, *{ }, <%= %>,
 * {% %}, FreeMarker <# >, Velocity #set) and judges the expression inside: arithmetic on literals
 * (the {{7*7}} probe), objects that reach the interpreter (config, self, request.application,
 * __class__.__mro__, T(java.lang.Runtime), getClass().forName, "…Execute"?new()).
 * A plain variable ({{ user.name }}, ${price}) is what legitimate templates and code posts contain,
 * so it passes. JNDI ${jndi:…} and shell ${IFS} belong to other detectors.
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { looksBinary } from '../text-shape.ts';
import { scannedPart } from '../scan-limit.ts';

const openers: readonly (readonly [open: string, close: string])[] = [
  ['{{', '}}'], ['${', '}'], ['#{', '}'], ['*{', '}'], ['@{', '}'], ['<%=', '%>'], ['<%', '%>'], ['{%', '%}'], ['{#', '#}'],
];

/** Member chains that reach the interpreter in Jinja2, Twig, Mako, Spring EL, OGNL, ERB: clear attacks. */
const runtimeReach =
  /__(?:class|mro|subclasses|globals|builtins|import|init|base|bases|dict|getattribute)__|\bt\s*\(\s*[a-z_]+\.[a-z_]+|java\.lang\.|getclass\s*\(|forname\s*\(|getruntime|processbuilder|\.exec\s*\(|\bsystem\s*\(|popen|\bos\.|registerundefinedfiltercallback|getfilter\s*\(|\b(?:map|filter|sort)\s*\(\s*['"](?:system|exec|passthru)|#_memberaccess|@java\.|\bio\.popen|`[^`]*`|url_for\.|get_flashed_messages|request\.application|\|\s*attr\s*\(/i;
/**
 * Objects a template exposes that leak secrets (Flask's config, Django's settings, Twig's _self):
 * dumped whole ({{config}}) they are an attack; used as a member ({{ settings.title }}) in a code
 * post they are only suspicious.
 */
const exposedObject = /^(?:config|self|_self|settings|session|application|request|app|env|smarty|lipsum|cycler|joiner|namespace)\b/i;

export function detectSsti(value: string, location: InputLocation): DetectorHit | null {
  try {
    if (location === 'file_content' || ((location === 'raw_body' || location === 'body') && looksBinary(value))) return null;
    return detect(value);
  } catch {
    return null;
  }
}

function detect(value: string): DetectorHit | null {
  if (!hasMarker(value)) return null;
  const text = scannedPart(value);
  const lower = text.toLowerCase();

  // FreeMarker: <#assign ex="freemarker.template.utility.Execute"?new()> and ?api / ?new() built-ins.
  if (lower.includes('?new(') || lower.includes('template.utility.execute') || lower.includes('template.utility.objectconstructor')) {
    return hit('ssti.freemarker_new', text, lower.search(/\?new\(|template\.utility/), 2);
  }
  if (lower.includes('<#assign') && /\?(?:new|api|eval)\b/.test(lower)) return hit('ssti.freemarker_new', text, lower.indexOf('<#assign'), 2);
  // Velocity: #set($x = …) reaching classes.
  const velocity = lower.indexOf('#set(');
  if (velocity >= 0 || lower.includes('#set (')) {
    const tail = lower.slice(Math.max(velocity, 0), Math.max(velocity, 0) + 300);
    if (/\$[a-z_]/.test(tail)) return hit('ssti.velocity_set', text, Math.max(velocity, 0), runtimeReach.test(tail) || /class|runtime|\.getclass/.test(tail) ? 2 : 1);
  }
  if (lower.includes('{php}') || lower.includes('{system(')) return hit('ssti.smarty_code', text, lower.search(/\{php\}|\{system\(/), 2);

  for (const [open, close] of openers) {
    let from = 0;
    for (let guard = 0; guard < 50; guard++) {
      const at = lower.indexOf(open, from);
      if (at < 0) break;
      const end = lower.indexOf(close, at + open.length);
      const expr = lower.slice(at + open.length, end < 0 ? Math.min(lower.length, at + 200) : Math.min(end, at + 400)).trim();
      from = at + open.length;
      const severity = judgeExpression(expr, open);
      if (severity) return hit('ssti.expression', text, at, severity);
    }
  }
  return null;
}

/**
 * Two characters that open a template tag: `{{ ${ *{ @{ {% {#`, `#{ #s #S` (Velocity's #set), `<% <#`,
 * and Smarty's `{php}`, `{system(…)}` (`{p {P {s`). (One expression: a character loop over a 100 KB
 * post cost 5× as much.)
 */
const templateMarker = /[{$*@][{%#]|#[{sS]|<[%#]|\{[pPs]/;

function hasMarker(value: string): boolean {
  return templateMarker.test(value);
}

/**
 * `{% if True %}49{% endif %}`, `<% if 1==1 %>…<% end %>`: a block tag whose condition is a literal.
 * No template tests a constant, so the blind probe's answer (the 49 showing or not) is all it is.
 */
const literal = String.raw`(?:\d{1,9}|'[^']{0,8}'|"[^"]{0,8}")`;
const constantCondition = new RegExp(String.raw`^(?:el)?if\s+(?:not\s+)?\(?\s*(?:true|false|none|nil|${literal}(?:\s*(?:==|!=|<=|>=|<|>)\s*${literal})?)\s*\)?\s*:?$`);

function judgeExpression(expr: string, open: string): 1 | 2 | null {
  if (expr.length === 0) return null;
  if ((open === '{%' || open === '<%' || open === '<%=') && constantCondition.test(expr)) return 2;
  // Belongs to other detectors: log4j lookups, shell parameter expansion.
  if (open === '${' && /^(?:jndi|lower|upper|env|sys|::-|ifs\b|path:|home:)/.test(expr)) return null;
  if (isLiteralArithmetic(expr)) return 2;
  if (runtimeReach.test(expr)) return open === '{#' ? 1 : 2;
  const object = exposedObject.exec(expr);
  if (object) return expr.length === object[0].length || /^\.(?:items|__|get\(|keys)|^\s*\|/.test(expr.slice(object[0].length)) ? 2 : 1;
  return null;
}

/**
 * 7*7, 1337*1338, 7*'7', (3+4)*2: only literals and operators, at least one operator between
 * two operands. Template probes look like this; variables (price*qty) do not.
 */
function isLiteralArithmetic(expr: string): boolean {
  if (expr.length > 60) return false;
  const compact = expr.replace(/\s+/g, '');
  if (!/^[0-9'"().*+\-/%]+$/.test(compact)) return false;
  const operands = compact.split(/[*+\-/%]/).filter((p) => /[0-9]/.test(p));
  return operands.length >= 2 && /[0-9'")]\s*[*+\-/%]\s*[('"0-9]/.test(compact);
}

function hit(rule: string, text: string, at: number, severity: 1 | 2): DetectorHit {
  const start = Math.max(0, at);
  return { kind: 'ssti', rule, evidence: text.slice(start, start + 120), severity };
}
