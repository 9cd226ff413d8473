import type { SqlReader } from './grammar.ts';
import type { FragmentFinding } from './fragments.ts';
import { quoteProbe } from './quote-probes.ts';
import { loginProbe } from './login-probes.ts';

/**
 * Fragments that are SQL-shaped but short enough that a person could, rarely, type them: the
 * paranoia-2 probes scanners send to see whether a value lands in a query. Each is read on the
 * whole value (anchored at its start and end) and found severity 1 only: strict mode blocks it,
 * loose mode lets it through. The shapes a search box or a code post sends in a sentence
 * (`or`, `and/or`, `node.js <= 18`, `what is 1+1`) have words around them and fail the anchors.
 */

const comparisons = new Set(['=', '==', '!=', '<>', '<', '>', '<=', '>=', '<=>']);
const plainContent = /^[\w@.$:-]{1,32}$/;

/**
 * `'x'!='y`, `'1001'='10`: a quoted token compared with a second quoted token whose closing quote
 * the application's own literal supplies. Code compares closed literals; prose writes no operator
 * between quotes.
 */
function comparedWithOpenLiteral(r: SqlReader): FragmentFinding | null {
  if (r.tokens.length !== 3) return null;
  const left = r.at(0)!;
  const op = r.at(1)!;
  const right = r.at(2)!;
  if (left.type !== 'string' || !left.closed || right.type !== 'string' || right.closed || left.start !== 0) return null;
  if (op.type !== 'operator' || !comparisons.has(op.text) || left.text[0] !== right.text[0]) return null;
  return plainContent.test(left.text.slice(1, -1)) && plainContent.test(right.text.slice(1)) ? { rule: 'sqli.boolean', severity: 1, at: 0 } : null;
}

/**
 * `' ', 10`, `'', '', '', 13`, `', 2, 1`: an empty (or blank) literal, then a list of literals
 * ending on a number — the column-count probe a UNION injection starts with. A quoted word and a
 * number (`'n', 2`) is a list someone could write; a blank literal opening one is not.
 */
function blankLiteralList(r: SqlReader): FragmentFinding | null {
  const first = r.at(0);
  if (!first || first.type !== 'string' || !first.closed || first.text[0] !== "'" || first.text.slice(1, -1).trim() !== '') return null;
  let k = 1;
  let items = 1;
  while (r.is(k, 'comma')) {
    const t = r.at(k + 1);
    if (!t || !(t.type === 'number' || (t.type === 'string' && t.closed) || (t.type === 'keyword' && t.text === 'null'))) return null;
    items++;
    k += 2;
  }
  return items >= 2 && r.at(k) === undefined && r.is(k - 1, 'number') ? { rule: 'sqli.union_select', severity: 1, at: 0 } : null;
}

/**
 * `or 88`, `and '5'orig_var`: AND/OR/XOR and a single literal as the whole condition (true for
 * every row when non-zero), or a literal glued to the name after it. `or` alone, `and/or` and
 * `or more` are words; a logical keyword then only a literal is a probe.
 */
function bareLiteralCondition(r: SqlReader): FragmentFinding | null {
  if (!r.isKeyword(0, 'and', 'or', 'xor')) return null;
  const lit = r.at(1);
  if (!lit || !(lit.type === 'number' || (lit.type === 'string' && lit.closed))) return null;
  const next = r.at(2);
  if (next === undefined) return { rule: 'sqli.boolean', severity: 1, at: 0 };
  const glued = lit.type === 'string' && next.type === 'word' && next.start === lit.start + lit.text.length && r.at(3) === undefined;
  return glued ? { rule: 'sqli.boolean', severity: 1, at: 0 } : null;
}

/** Lower and upper case mixed inside the word (`ORder`, `ordeR`), not a capital first letter. */
function oddCase(raw: string): boolean {
  const rest = raw.slice(1);
  return raw !== raw.toLowerCase() && raw !== raw.toUpperCase() && rest !== rest.toLowerCase();
}

/** `ORder by`, `gROUP BY`: the clause alone, its keyword in a case no one types on purpose. */
function oddCaseClause(r: SqlReader): FragmentFinding | null {
  if (r.tokens.length !== 2 || !r.isKeyword(0, 'order', 'group') || !r.isKeyword(1, 'by')) return null;
  return oddCase(r.raw(0)) || oddCase(r.raw(1)) ? { rule: 'sqli.clause_breakout', severity: 1, at: 0 } : null;
}

/**
 * `` `>65 ``: read after the backtick the application opened around a column name, the value
 * closes it and compares the column with a literal. Markdown code opens on a word, not on `>`.
 */
function backtickComparison(r: SqlReader): FragmentFinding | null {
  if (!r.is(0, 'word', '') || !r.source.startsWith('``') || r.tokens.length !== 3) return null;
  const op = r.at(1)!;
  const lit = r.at(2)!;
  if (op.type !== 'operator' || !comparisons.has(op.text)) return null;
  const literal = lit.type === 'number' || (lit.type === 'word' && /^\d/.test(lit.text));
  return literal ? { rule: 'sqli.boolean', severity: 1, at: 0 } : null;
}

/** `SET @OLD_SQL_NOTES`, `>SET @x`: a user variable set, the way a dump or a stacked query opens. */
function setVariable(r: SqlReader): FragmentFinding | null {
  const k = r.is(0, 'operator') && (r.at(0)!.text === '>' || r.at(0)!.text === '/') ? 1 : 0;
  if (!r.isKeyword(k, 'set') || !r.is(k + 1, 'variable') || !/^@\w{2,}$/.test(r.at(k + 1)!.text)) return null;
  const end = r.at(k + 2) === undefined || (r.is(k + 2, 'operator', '=') && r.at(k + 4) === undefined);
  return end ? { rule: 'sqli.stacked_query', severity: 1, at: k } : null;
}

/**
 * `&&(l=!0)`, `||(c=!1)`, `&&(b=0)`: the value opens with a logical operator and a parenthesised
 * test of one name against a number — a condition appended to a WHERE clause. The operator must
 * be one SQL reads (`=`, `!=`, `<>`, then maybe `!`): `&&(e===` is JavaScript's strict equality.
 */
function appendedParenTest(r: SqlReader): FragmentFinding | null {
  if (!r.is(0, 'operator', '&&') && !r.is(0, 'operator', '||')) return null;
  if (!r.is(1, 'lparen') || !r.is(2, 'word') || !r.is(3, 'operator') || !['=', '!=', '<>'].includes(r.at(3)!.text)) return null;
  let k = 4;
  if (r.is(k, 'operator', '!')) k++;
  if (!r.is(k, 'number')) return null;
  k++;
  if (r.is(k, 'rparen')) k++;
  return r.at(k) === undefined ? { rule: 'sqli.boolean', severity: 1, at: 0 } : null;
}

/**
 * `/3 or `, `/Cm7 AND `, `/3 and(`: a path's last segment, then AND/OR left dangling with the
 * blank or parenthesis where the condition goes on. A search typed as it is suggested has words,
 * not a leading slash.
 */
function danglingLogical(r: SqlReader): FragmentFinding | null {
  if (!r.is(0, 'operator', '/') || r.source[0] !== '/' || !(r.is(1, 'word') || r.is(1, 'number')) || !r.isKeyword(2, 'and', 'or', 'xor')) return null;
  const keyword = r.at(2)!;
  const rest = r.tokens.slice(3);
  const after = r.source.slice(keyword.start + keyword.text.length);
  const open = (rest.length === 0 && /^\s+$/.test(after)) || (rest.length === 1 && rest[0]!.type === 'lparen');
  return open ? { rule: 'sqli.boolean', severity: 1, at: 0 } : null;
}

/**
 * `hash = 'abc', 0x1a`, `product = 'item', (5)`: an assignment of a quoted literal, then one more
 * item that is a hex literal or a parenthesised number — an UPDATE's SET list extended.
 */
function assignmentList(r: SqlReader): FragmentFinding | null {
  if (!r.is(0, 'word') || !r.is(1, 'operator', '=') || !r.is(2, 'string') || !r.at(2)!.closed || !r.is(3, 'comma')) return null;
  const hex = r.is(4, 'number') && /^0x[0-9a-f]+$/i.test(r.at(4)!.text) && r.at(5) === undefined;
  const paren = r.is(4, 'lparen') && r.is(5, 'number') && r.is(6, 'rparen') && r.at(7) === undefined;
  return hex || paren ? { rule: 'sqli.fragment', severity: 1, at: 0 } : null;
}

/** OLE DB providers a linked-server or OPENROWSET injection names (`'msdasql'`), quoted alone. */
const providers = new Set(['msdasql', 'sqloledb', 'sqlncli', 'msoledbsql']);

function quotedProvider(r: SqlReader): FragmentFinding | null {
  const t = r.at(0);
  if (r.tokens.length !== 1 || !t || t.type !== 'string' || !t.closed || t.start !== 0) return null;
  return providers.has(t.text.slice(1, -1).toLowerCase()) ? { rule: 'sqli.catalog', severity: 1, at: 0 } : null;
}

/**
 * `'or(glob 1)--`: the value closes the literal at once (the reading's first token is the empty
 * `''`), then OR/AND and a condition made only of SQL pieces — parentheses, an operator word, a
 * number — cut off by a real comment. The grammar does not read `glob 1` without its left
 * operand; a reply that opens on a quote has words in it.
 */
function sqlOnlyConditionCut(r: SqlReader): FragmentFinding | null {
  if (!r.is(0, 'string', "''") || !r.isKeyword(1, 'and', 'or', 'xor')) return null;
  const last = r.tokens.length - 1;
  const comment = r.at(last)!;
  if (last < 3 || comment.type !== 'comment' || comment.text === '/*' || r.source.slice(comment.start + comment.text.length).trim() !== '') return null;
  const inside = r.tokens.slice(2, last);
  const sqlOnly = inside.every((t) => t.type === 'lparen' || t.type === 'rparen' || t.type === 'number' || t.type === 'operator' || (t.type === 'keyword' && operatorWords.has(t.text)));
  return sqlOnly && inside.some((t) => t.type === 'number') && inside.some((t) => t.type === 'keyword') ? { rule: 'sqli.boolean', severity: 1, at: 1 } : null;
}

const operatorWords = new Set(['like', 'rlike', 'regexp', 'glob', 'ilike', 'is', 'not', 'null', 'between', 'in', 'div', 'mod', 'true', 'false']);

/** The first strict-only shape the reading matches. */
export function strictFragment(r: SqlReader): FragmentFinding | null {
  return comparedWithOpenLiteral(r) ?? blankLiteralList(r) ?? bareLiteralCondition(r) ?? oddCaseClause(r) ?? backtickComparison(r) ?? setVariable(r) ?? appendedParenTest(r) ?? danglingLogical(r) ?? assignmentList(r) ?? quotedProvider(r) ?? sqlOnlyConditionCut(r) ?? quoteProbe(r) ?? loginProbe(r);
}
