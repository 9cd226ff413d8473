/**
 * Where a Java name stands decides what it means. The same `java.lang.Runtime` is a payload when it
 * is the whole value of a parameter, a parameter's name, an OGNL static reference
 * (`@java.lang.Runtime@getRuntime()`), a SpEL type (`T(java.lang.Runtime)`), a constructor
 * (`new java.io.File(…)`), an XStream element (`<java.lang.ProcessBuilder>`) or a method chain
 * (`java.lang.Runtime.getRuntime().exec(…)`) — and a mention when it sits in a sentence. In a
 * document (a post, a multi-line message) even code is what the author shows, so it is suspicious only.
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { looksLikeDocument } from '../text-shape.ts';
import type { JavaName } from './class-names.ts';

const nameLocations = new Set<InputLocation>(['query_name', 'body_name', 'cookie_name']);

/** `text` is the value (or its head) the names were read from. */
export function judgeJavaNames(text: string, names: readonly JavaName[], location: InputLocation): DetectorHit | null {
  if (names.length === 0) return null;
  const isName = nameLocations.has(location);
  let document: boolean | null = null;
  let best: DetectorHit | null = null;
  for (const name of names) {
    const whole = isName || wholeValue(text, name);
    const code = !whole && codeContext(text, name);
    let severity: 0 | 1 | 2 = 0;
    if (name.risk === 'gadget') severity = 2;
    else if (name.risk === 'inert') severity = inertNameIsPayload(text, name, location) ? 2 : whole || code ? 1 : 0;
    else severity = whole || code ? 2 : 0;
    if (severity === 2 && code && name.risk !== 'gadget') {
      document ??= looksLikeDocument(text);
      if (document) severity = 1;
    }
    if (severity === 0) continue;
    const rule = name.risk === 'gadget' ? 'java.gadget_class' : whole ? 'java.class_name' : 'java.code_reference';
    const found: DetectorHit = { kind: 'java_deserialization', rule, evidence: text.slice(name.start, name.start + 120), severity };
    if (severity === 2) return found;
    best ??= found;
  }
  return best;
}

/**
 * A plain Java type (`java.lang.String`, `org.apache.commons`) is ordinary where people type: a
 * search box on a developer site, an API field that takes a type name (a workflow engine's
 * `objectTypeName`), so as a parameter value it stays suspicious (strict blocks it, loose lets it
 * through). It is a payload where nobody types and the application names things itself:
 *  - a parameter, cookie or JSON key that is exactly a class name: binder paths are bean properties,
 *    and a JSON object keyed by a class is Jackson's wrapper-object polymorphic typing, the
 *    deserialization entry point. Package names (`org.apache.commons`) as JSON or form keys stay
 *    suspicious: a log-level map is keyed by package (`{"org.apache.commons": "WARN"}`); as a query
 *    or cookie name they are not;
 *  - the whole value of a cookie or a header: both are set by the application or the browser.
 */
function inertNameIsPayload(text: string, name: JavaName, location: InputLocation): boolean {
  if (!wholeValue(text, name)) return false;
  if (location === 'cookie' || location === 'header' || location === 'query_name' || location === 'cookie_name') return true;
  if (location !== 'body_name') return false;
  // Java spells classes with a capital and packages without (`java.lang.String`, `org.apache.commons`).
  const last = name.text.slice(name.text.lastIndexOf('.') + 1);
  return /^[A-Z]/.test(last);
}

/** The value is the name, maybe with a call or a statement end after it ("java.io.File", "x.Y()"). */
function wholeValue(text: string, name: JavaName): boolean {
  for (let i = 0; i < name.start; i++) if (!isSpaceOrQuote(text.charCodeAt(i))) return false;
  let rest = text.slice(name.end).trim();
  if (rest.startsWith('()')) rest = rest.slice(2);
  return /^[\s'";]*$/.test(rest.slice(0, 8)) && rest.length <= 8;
}

function isSpaceOrQuote(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 34 || c === 39;
}

/** Code syntax touching the name: static reference, type argument, constructor, call, XML element. */
function codeContext(text: string, name: JavaName): boolean {
  const before = text[name.start - 1] ?? '';
  const after = text[name.end] ?? '';
  if (before === '@' || before === '#' || after === '@') return true; // OGNL @java.lang.Runtime@getRuntime()
  if (after === '(') return true; // a call or constructor: java.lang.Runtime.getRuntime(
  if (before === '<' || (before === '/' && text[name.start - 2] === '<')) return true; // XStream <java.lang.ProcessBuilder>
  if (before === '(' && /[A-Za-z0-9_]/.test(text[name.start - 2] ?? '')) return true; // T(java.lang.Runtime), forName(java.…)
  if (before === '(' && after === ')' && /[A-Za-z_(@#$]/.test(text[name.end + 1] ?? '')) return true; // a cast: (java.lang.Runtime)x
  if (/\bnew\s+$/i.test(text.slice(Math.max(0, name.start - 8), name.start))) return true;
  if (/(?:"@type"|"@class"|\bclass)\s*[:=]\s*["']?$/i.test(text.slice(Math.max(0, name.start - 16), name.start))) return true;
  return false;
}
