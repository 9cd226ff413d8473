import type { FragmentFinding } from './fragments.ts';
import type { SqlReader } from './grammar.ts';

/**
 * Short probes that open by closing the application's literal (the quoted reading's first token is
 * the empty `''`) and go on with a scrap of SQL that does not parse to the end: what a scanner's
 * mutation engine leaves. Each is severity 1 (strict mode blocks it, loose mode passes it): no
 * form or search box opens a value with a lone quote and then these tokens, but the probe itself
 * proves nothing.
 */

/** Tokens a mutated probe trails after its operand: numbers, punctuation, operators, `@`. */
function debris(type: string): boolean {
  return type === 'number' || type === 'comma' || type === 'other' || type === 'operator' || type === 'variable';
}

/**
 * `' or homer 9`, `'  or 3,4,2@!`: the literal closed at once, OR/XOR, one name or number as the
 * condition, then only numbers and punctuation (no second word: `' or else maybe` is a reply that
 * opens on a quote, `' or page 2 of 3` has words after the number). At `pos` the OR, right after
 * the empty literal.
 */
export function orOperandDebris(r: SqlReader, pos: number, text: string): FragmentFinding | null {
  if (text.length > 48 || r.at(pos - 1)?.text.length !== 2 || !r.isKeyword(pos, 'or', 'xor')) return null;
  if (!r.is(pos + 1, 'word') && !r.is(pos + 1, 'number')) return null;
  const tail = r.tokens.slice(pos + 2);
  return tail.length > 0 && tail.length <= 8 && tail.every((t) => debris(t.type)) ? { rule: 'sqli.boolean', severity: 1, at: pos } : null;
}

/**
 * `' * from = 1 id '9`, `"* FROM x`: the literal closed at once (read on a quoted reading, whose
 * first token is the empty `''`), then the star of a select list and its FROM — the tail of
 * `SELECT … *` spliced after the application's literal. A quoted bullet (`"* from 9 to 5`) could
 * open so, which is why it is only suspicious; `'*' from` keeps the star inside its quotes, and a
 * value that opens and ends on the same quote (`"* from 9 to 5"`) is a quoted phrase.
 */
export function starFromAfterQuote(r: SqlReader): FragmentFinding | null {
  const first = r.at(0);
  if (!first || first.type !== 'string' || first.start !== 0 || first.text.length !== 2 || r.source.length > 64) return null;
  if (!r.is(1, 'operator', '*') || !r.isKeyword(2, 'from')) return null;
  const trimmed = r.source.trimEnd();
  if (trimmed.length > 2 && trimmed[trimmed.length - 1] === r.source[0]) return null;
  return { rule: 'sqli.fragment', severity: 1, at: 1 };
}
