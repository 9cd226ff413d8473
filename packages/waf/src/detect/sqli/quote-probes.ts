import type { SqlReader } from './grammar.ts';
import type { FragmentFinding } from './fragments.ts';

/**
 * Probes that open by closing the application's literal and carry no SQL words at all: the quote
 * and only what neutralises or completes the application's own closing quote — a comment, or an
 * operator whose right operand that quote supplies. They are what a scanner sends to see whether
 * the value lands in a literal (the error or the changed answer tells it), and none of them is a
 * working query worth a clear verdict; each is severity 1, so strict mode blocks and loose mode
 * passes. Each reads a quoted reading (`'` or `"` prepended) whose first token is the empty
 * literal: the value begins with its quote. A value that opens with a word (`it's -`, `5' #1`,
 * a password such as `ab'!#$`) never matches.
 *
 * Left out on purpose (CRS 942420-942432 count special characters; 942460 repeats them): runs of
 * symbols with no quote opening them (`!@#$%^&*`, `(((((())))))`, `~~~~~~~~~`, `-----`) close no
 * literal and form no SQL, and a password or a separator line is written so. Only the quote-led
 * ones above are read as probes.
 */

/** The reading's first token is `''` or `""`: the value's own first character closed the literal. */
function opensOnQuote(r: SqlReader): boolean {
  const t = r.at(0);
  return t !== undefined && t.type === 'string' && t.closed === true && t.start === 0 && t.text.length === 2;
}

/** No letter, digit or underscore: symbols and blanks only. */
const symbolsOnly = /^[^\p{L}\p{N}_]*$/u;
/** A quoted symbol (`'#'`, `"--"`, `'/*'`): how a setting or a post names the character itself. */
const quotedSymbol = /^(['"])[^\w\s]*\1$/;

/**
 * `' #-`, `';@@#--`, `' = # '`, `'? # = --`: after the closing quote, only symbols, among them a
 * comment marker — the application's closing quote and the rest of its query are commented out
 * (MySQL's `#` runs to the end of the line whatever follows it, so `#-` is a comment there, not
 * PostgreSQL's JSON operator). Text has words; a quoted symbol is closed again and stays out.
 */
function quoteThenCommentedRest(r: SqlReader): FragmentFinding | null {
  if (!opensOnQuote(r)) return null;
  const rest = r.source.slice(2);
  if (rest.trim() === '' || !symbolsOnly.test(rest) || quotedSymbol.test(r.source.slice(1))) return null;
  return rest.includes('#') || rest.includes('--') || rest.includes('/*') ? { rule: 'sqli.comment_truncation', severity: 1, at: 0 } : null;
}

/**
 * Operators MySQL applies to two strings by turning both into numbers: `'' - ''` is 0, `'' = ''`
 * is 1 — the `'-'` and `'='` login bypasses, written without their second quote.
 */
const stringOperators = new Set(['=', '!=', '<>', '<=>', '<', '>', '<=', '>=', '-', '+', '*', '^', '&', '|']);

/**
 * `' -`, `'=`: the quote closes the literal, then one operator ends the value — the application's
 * own closing quote becomes the right operand (`pass = '' - ''`, true for every non-numeric
 * password in MySQL). `'-'` (a quoted dash) has both quotes and three tokens.
 */
function quoteThenDanglingOperator(r: SqlReader): FragmentFinding | null {
  if (!opensOnQuote(r) || r.tokens.length !== 2) return null;
  const op = r.at(1)!;
  return op.type === 'operator' && stringOperators.has(op.text) && r.source.slice(op.start + op.text.length).trim() === '' ? { rule: 'sqli.boolean', severity: 1, at: 1 } : null;
}

const comparisonOperators = new Set(['=', '==', '!=', '<>', '<=>', '<', '>', '<=', '>=']);
/** A literal the application's closing quote completes: a short plain token. */
const plainOpenLiteral = /^['"][\w.]{1,32}$/;

/**
 * `' * from = 1 or '9`: the quote closes the literal, an operator goes on from it, a comparison
 * follows, and the value ends on OR and a new literal the application's own closing quote
 * completes (`or '9'`, true) — the breakout, a condition and the tautology. Only operators, names,
 * keywords and numbers between; a quoted phrase or a sentence has other strings and punctuation.
 */
function reopenedTautology(r: SqlReader): FragmentFinding | null {
  if (!opensOnQuote(r) || r.tokens.length < 5 || r.tokens.length > 12 || !r.is(1, 'operator')) return null;
  const last = r.tokens.length - 1;
  const reopened = r.at(last)!;
  if (reopened.type !== 'string' || reopened.closed || !plainOpenLiteral.test(reopened.text) || reopened.text[0] !== r.source[0]) return null;
  if (!r.isKeyword(last - 1, 'or', 'xor') && !r.is(last - 1, 'operator', '||')) return null;
  const middle = r.tokens.slice(1, last - 1);
  const sqlPieces = middle.every((t) => t.type === 'operator' || t.type === 'number' || t.type === 'word' || t.type === 'keyword');
  return sqlPieces && middle.some((t) => t.type === 'operator' && comparisonOperators.has(t.text)) ? { rule: 'sqli.boolean', severity: 1, at: 1 } : null;
}

/** The first quote probe the reading matches. */
export function quoteProbe(r: SqlReader): FragmentFinding | null {
  return quoteThenCommentedRest(r) ?? quoteThenDanglingOperator(r) ?? reopenedTautology(r);
}
