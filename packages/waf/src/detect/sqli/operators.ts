import { percentDecode } from '../../decode/url.ts';
import type { DetectorHit, InputLocation } from '../../types.ts';
import type { FragmentFinding } from './fragments.ts';
import type { SqlReader } from './grammar.ts';

/**
 * SQL operators without their operands. `x >> 1`, `a <=> b`, `name RLIKE '^a'` are expressions; the
 * operator alone is what a scanner sends to see whether a value is pasted into one (spliced in, it
 * leaves the query without an operand and the database answers with a syntax error the scanner
 * reads). Each shape is the whole value, found severity 1: strict mode blocks it, loose mode lets it
 * through. What stays out, and why:
 *
 * - A single operator anywhere in a value (`node.js >= 18`, `a || b`): prose and code posts.
 * - The comparisons `=`, `!=`, `<`, `<=`, `>=`, `==` as a value: filter forms send them as the chosen
 *   operator (Redmine's `op[due_date]=>=`, phpMyAdmin's search form sends `!=`, `LIKE`, `IS NULL`,
 *   `REGEXP`). As a name only when it came percent-encoded (`%21%3D`): a top-level JSON key is read
 *   as a name too, and JSON Logic rules are keyed by `==`, `!=`, `<=`, `>=`.
 * - `RegExp` as a value is JavaScript's class (a code search), `||`, `<>`, `>>`, `->` as a value are
 *   a separator or a button label someone may configure; `like`, `glob` and `regexp` as a name are
 *   flags or a log search's pattern field (`?like`, `?glob=*.js`, `?regexp=^err`).
 */

/** Operators and operator words that are never a parameter's name: applications name fields with identifiers. */
const operatorName = /^\s*(?:>>|<<|\|\||&&|<>|<=>|->>?|xor|rlike|ilike|is\s+(?:not\s+)?null|not\s+(?:regexp|rlike))\s*$/i;

/**
 * Comparisons as a name that arrived percent-encoded (`%21%3D`, `>%3D`): the urlencoded framing of a
 * query string or form body, where `=` cannot stand unencoded in a name — not a JSON key.
 */
const comparisonName = /^\s*(?:!=|<=|>=|==)\s*$/;

/**
 * Operators that no form offers as a choice: `&&`, MySQL's NULL-safe `<=>`; and `LIKE NULL`,
 * `rlike null`, a pattern match against NULL (never true) with no left operand. The trade-off: a
 * documentation site's search for the bare operator (`&&`, `<=>`) is blocked in strict mode.
 */
const operatorValue = /^\s*(?:&&|<=>|(?:not\s+)?(?:like|rlike|regexp|ilike)\s+null)\s*$/i;

const nameLocations = new Set<InputLocation>(['query_name', 'body_name', 'cookie_name']);
/** Where a value is a parameter an application reads (not a path segment, a header or a file). */
const valueLocations = new Set<InputLocation>(['query', 'body', 'cookie', 'xml']);

const probe = (value: string): DetectorHit => ({ kind: 'sqli', rule: 'sqli.operator_probe', severity: 1, evidence: value });

/**
 * An operator as the whole name or value. `name` (the input's name) tells a form field's name from a
 * nested JSON key, whose name is its path (`query.regexp`, an Elasticsearch query): only a name that
 * is the value itself is read so. (Regular expressions anchored at both ends: most values fail on
 * their first character, and this runs on every short input.)
 */
export function operatorAlone(value: string, location: InputLocation, name?: string): DetectorHit | null {
  if (value.length > 24 || value.length < 2) return null;
  if (nameLocations.has(location)) {
    if (name === undefined || name === value) return operatorName.test(value) ? probe(value) : null;
    // The raw form of a name percent-encoded on the wire (the decoded variants follow it).
    const encoded = value.includes('%') && percentDecode(value, true) === name;
    return encoded && (operatorName.test(name) || comparisonName.test(name)) ? probe(value) : null;
  }
  return valueLocations.has(location) && operatorValue.test(value) ? probe(value) : null;
}

/** A number with its sign at `i`; the index after it, or -1. */
function signedNumber(r: SqlReader, i: number): number {
  const k = r.is(i, 'operator', '-') || r.is(i, 'operator', '+') ? i + 1 : i;
  return r.is(k, 'number') ? k + 1 : -1;
}

/**
 * `div(23,-2)`, `div (23.23 , 2)`: MySQL's integer-division operator written as PostgreSQL's `div()`
 * on two numbers, as the whole value — the arithmetic probe (does `id=div(23,-2)` show the page of
 * id -11?) in a form only a database evaluates. `div` is no spreadsheet or JavaScript function;
 * `mod(5,2)` is a spreadsheet's and stays out.
 */
export function divisionCall(r: SqlReader): FragmentFinding | null {
  if (!r.isKeyword(0, 'div') || !r.is(1, 'lparen')) return null;
  const first = signedNumber(r, 2);
  if (first < 0 || !r.is(first, 'comma')) return null;
  const second = signedNumber(r, first + 1);
  return second > 0 && r.is(second, 'rparen') && r.at(second + 1) === undefined ? { rule: 'sqli.function_probe', severity: 1, at: 0 } : null;
}
