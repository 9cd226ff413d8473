/**
 * NoSQL (MongoDB) injection. Four shapes:
 *  - operators as keys: `password[$ne]=` in query, form and cookie names, or `$gt` keys in JSON;
 *  - operators inside a value that is parsed as an object or an expression: `{"$ne": 1}`,
 *    `', $or: [ {}, {'a':'a`, `true, $where: '1 == 1'`, or written as a key path (`u_id[$ne]`,
 *    bracket-operators.ts);
 *  - a `$where` break-out: a literal closed and joined to `this.field` (where-breakout.ts);
 *  - JavaScript for $where / mapReduce: statements with loops or sleeps, `db.coll.method(`.
 * JSON with `$` keys that Mongo does not read ($schema, $id, $ref, $comment, $type) passes, and so
 * does a price in dollars. Query-builder APIs (Strapi, Directus) use $eq / $in / $contains
 * legitimately: those are suspicious (strict mode) only; $where, $function, $expr, $regex, $ne,
 * $gt… in a name are clear attacks.
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { looksBinary, looksLikeDocument } from '../text-shape.ts';
import { findBracketOperator } from './bracket-operators.ts';
import { builderOperators, clearOperators } from './operators.ts';
import { judgeWhereBreakout } from './where-breakout.ts';

const collectionMethods = /^db\.[a-z_][a-z0-9_]*\.(?:find|findone|insert|insertone|insertmany|update|updateone|updatemany|remove|deleteone|deletemany|drop|aggregate|mapreduce|count|save|getcollection)\s*\(/i;

export function detectNosql(value: string, location: InputLocation): DetectorHit | null {
  try {
    return detect(value, location);
  } catch {
    return null;
  }
}

function detect(value: string, location: InputLocation): DetectorHit | null {
  if (location === 'file_content' || (location === 'raw_body' && looksBinary(value))) return null;
  // XML items are attribute values and text: only the query-string key shape (`u_id[$ne]`) is read there.
  if (location === 'xml') return value.includes('[$') ? bracketOperatorHit(value) : null;
  const isName = location === 'query_name' || location === 'body_name' || location === 'cookie_name';
  if (value.includes('$')) {
    const found = scanOperators(value, isName) ?? (isName || !value.includes('[$') ? null : bracketOperatorHit(value));
    if (found) return found;
  }
  if (isName) return null;
  if (value.includes('this')) {
    const severity = judgeWhereBreakout(value, location === 'path');
    if (severity !== 0) return hit('nosql.where_breakout', value, severity === 2 && postedDocument(value, location) ? 1 : severity);
  }
  const trimmed = value.trimStart();
  if (trimmed.startsWith('db.') && collectionMethods.test(trimmed)) return hit('nosql.mongo_shell', trimmed, 2);
  if (value.includes(';') || value.includes('{')) return judgeJavaScript(value, location);
  return null;
}

/** Finds `$operator` tokens; in values they must be used as object keys (followed by ':'). */
function scanOperators(value: string, isName: boolean): DetectorHit | null {
  const lower = value.length > 8192 ? value.slice(0, 8192).toLowerCase() : value.toLowerCase();
  let at = lower.indexOf('$');
  let suspicious: DetectorHit | null = null;
  while (at >= 0) {
    let end = at + 1;
    while (end < lower.length && /[a-z]/.test(lower[end]!)) end++;
    const op = lower.slice(at, end);
    const clear = clearOperators.has(op);
    if (clear || builderOperators.has(op)) {
      let after = end;
      while (lower[after] === ' ' || lower[after] === '"' || lower[after] === "'") after++;
      const before = at > 0 ? lower[at - 1] : '';
      const asKey = isName
        ? before === '[' || at === 0 || before === '.'
        : lower[after] === ':' && (at === 0 || /[\s{,"'[]/.test(before!));
      if (asKey) {
        const found = hit(isName ? 'nosql.operator_key' : 'nosql.operator_in_value', value.slice(Math.max(0, at - 20), at + 80), clear ? 2 : 1);
        if (clear) return found;
        suspicious ??= found;
      }
    }
    at = lower.indexOf('$', end);
  }
  return suspicious;
}

/** `[$ne]` in a value: an attack unless the value is a written document (a post about Mongo). */
function bracketOperatorHit(value: string): DetectorHit | null {
  const found = findBracketOperator(value);
  if (!found) return null;
  const severity = found.clear && !looksLikeDocument(value) ? 2 : 1;
  return hit('nosql.bracket_operator', value.slice(found.start, found.start + 100), severity);
}

/** A form field holding a written text (several lines, a post): code in it is shown, not run. */
function postedDocument(value: string, location: InputLocation): boolean {
  return (location === 'body' || location === 'raw_body') && looksLikeDocument(value);
}

/**
 * JavaScript meant for $where: statements after a break-out with loops, timing or `this.` access.
 * Counting signals keeps a single "while(" in prose or a URL from counting.
 */
function judgeJavaScript(value: string, location: InputLocation): DetectorHit | null {
  const text = value.length > 4096 ? value.slice(0, 4096) : value;
  let signals = 0;
  if (/\b(?:var|let|const)\s+[a-z_$][\w$]*\s*=/i.test(text)) signals++;
  if (/\bnew\s+date\s*\(/i.test(text)) signals++;
  if (/\bdo\s*\{/.test(text)) signals++;
  if (/\bwhile\s*\(/.test(text)) signals++;
  if (/\bsleep\s*\(\s*\d/.test(text)) signals += 2;
  if (/\bthis\.[a-z_]\w*\s*(?:==|!=|\.match|\[)/i.test(text)) signals++;
  if (/^\s*['"]?\s*;|^\s*\d+\s*;|['"]\s*;\s*(?:return|var|while|sleep)/.test(text)) signals++;
  if (/\breturn\s+(?:true|1|this)\b/.test(text)) signals++;
  if (signals < 3) return null;
  // Code posted in a form (several lines, or long) is only suspicious; payloads are one-liners.
  const posted = location === 'body' && (text.includes('\n') || text.length > 200);
  return hit('nosql.javascript', text, posted ? 1 : 2);
}

function hit(rule: string, evidence: string, severity: 1 | 2): DetectorHit {
  return { kind: 'nosql', rule, evidence: evidence.slice(0, 120), severity };
}
