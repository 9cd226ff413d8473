import type { Detector, DetectorHit, InputLocation } from '../../types.ts';
import { codeSpans, looksLikeDocument, spanAt, type CodeSpan } from '../text-shape.ts';
import { containsAnyOf } from '../contains-any.ts';
import { sqlFragment } from './fragments.ts';
import { SqlReader } from './grammar.ts';
import { orOperandDebris } from './breakout-probes.ts';
import { escapedQuoteProbe } from './escaped-quote.ts';
import { listBreakout } from './lists.ts';
import { wholeValueProbe } from './probes.ts';
import { stackedStatement } from './statements.ts';
import { tokenizeSql, type TokenStream } from './tokenize.ts';

/**
 * SQL injection, in the spirit of libinjection: the value is read as the piece of SQL an
 * application would paste into its query — inside a '…' string, inside a "…" string, or as a
 * bare number — and it is an injection when, in one of those contexts, it closes the literal and
 * goes on as SQL that parses: a boolean tail (`' or 1=1--`), a UNION SELECT, a stacked statement,
 * a sub-select or time-based call, or a comment that cuts the rest of the query off. The SQL
 * grammar (grammar.ts) is what makes prose fail: words without SQL structure do not parse.
 */
interface Finding {
  rule: string;
  severity: 1 | 2;
  /** Token index where the evidence starts. */
  at: number;
}

// Enough for a long value padded with SQL noise; the grammar reads are bounded per token, not per value.
const maxTokens = 16_384;

/** A value made only of these characters cannot carry SQL syntax worth reading. */
function cannotBeSql(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const safe = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 95 || c === 46 || c === 47 || c === 58 || c === 64 || c >= 128;
    if (!safe) return false;
  }
  return true;
}

/** Statement words that make a value worth tokenizing even without SQL punctuation. */
const statementWords = ['union', 'select', 'insert', 'update', 'delete', 'drop', 'exec', 'declare', 'create', 'alter', 'truncate', 'shutdown', 'grant', 'waitfor', 'load', 'information_schema'];
const hasStatementWord = containsAnyOf(statementWords);

/**
 * A cheap first look: SQL that can hurt needs a quote, a parenthesis, a `;`, a comment, a leading
 * number, or a statement word. Most header values and identifiers have none and skip the tokenizer.
 */
function worthTokenizing(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "'" || c === '"' || c === '(' || c === ';' || c === '#' || c === '`' || (c === '-' && value[i + 1] === '-') || (c === '/' && value[i + 1] === '*')) return true;
  }
  const first = value.trimStart()[0];
  if (first !== undefined && ((first >= '0' && first <= '9') || first === ')' || first === '-')) return true;
  // A typographic quote opening the value (`‘ -`): the folded reading may close a literal there (quote-probes.ts).
  if (first !== undefined && value.length <= 256 && foldedQuote.test(first)) return true;
  const lower = value.toLowerCase();
  if (hasStatementWord(lower)) return true;
  // `HAVING 1=1`, `AND 2771=1709)`, `|| x == 1` opening the value (prose has these words elsewhere).
  const head = lower.trimStart();
  if (value.includes('::')) return true;
  // Strict-only shapes (strict-shapes.ts) without the marks above: `b,1=1` (a list's next item a
  // tautology), `ORder by`, `SET @var`, `/3 or ` (a path segment, then a dangling condition).
  if ((value.includes(',') && value.includes('=')) || (first === '/' && /\s(?:and|x?or)\b/i.test(value))) return true;
  if (/^(?:order|group)\s+by\s*$/.test(head) || /^[>/]?\s*set\s+@/.test(head)) return true;
  return head.startsWith('having ') || head.startsWith('from ') || head.startsWith('case when ') || /^(?:and|x?or)\s/.test(head) || head.startsWith('&&') || head.startsWith('||');
}

function skipRparens(r: SqlReader, i: number): number {
  let pos = i;
  while (r.is(pos, 'rparen')) pos++;
  return pos;
}

/** After an expression: parentheses closing, clauses (ORDER BY, LIMIT, UNION …), then the end. */
function endsCleanly(r: SqlReader, i: number): boolean {
  const pos = r.clauses(skipRparens(r, i), 0, { end: i, comparison: false, call: false, subquery: false, dangerous: null, literal: false });
  return pos >= 0 && r.isTerminator(pos);
}

/**
 * UNION [ALL|DISTINCT] SELECT at `i`: a real select list, or nothing after it when that is
 * clearly deliberate (obfuscated with comments, or right after the attacker closed a literal).
 */
function unionSelect(r: SqlReader, i: number, stream: TokenStream, afterBreakout = false): Finding | null {
  let s = i + 1;
  if (r.isKeyword(s, 'all', 'distinct')) s++;
  // `UNION (SELECT 1,2,3)`: the second select in its own parentheses, as MySQL and PostgreSQL allow.
  // A parenthesis after "union" is prose as well (`credit union (select one)`), so the select in it
  // must be SQL beyond doubt: after a breakout, with a FROM, a call or a sub-select, or a row of literals.
  if (r.is(s, 'lparen') && r.isKeyword(s + 1, 'select')) {
    const sel = r.select(s + 1);
    if (!sel || !r.is(sel.end, 'rparen')) return null;
    const inside = r.tokens.slice(s + 2, sel.end);
    const literalRow = inside.some((t) => t.type === 'comma') && inside.every((t) => t.type === 'number' || t.type === 'comma' || (t.type === 'string' && t.closed) || (t.type === 'keyword' && t.text === 'null'));
    const sql = afterBreakout || sel.call || sel.subquery || literalRow || inside.some((t) => t.type === 'keyword' && t.text === 'from');
    return sql ? { rule: 'sqli.union_select', severity: 2, at: i } : null;
  }
  // `2 union all`: after the number the value broke out of, UNION ALL cut before its SELECT.
  // "Credit union all" has no number before it, but a list could end so: suspicious only.
  if (afterBreakout && s > i + 1 && r.at(s) === undefined && r.is(i - 1, 'number')) return { rule: 'sqli.union_select', severity: 1, at: i };
  if (!r.isKeyword(s, 'select')) return null;
  const sel = r.select(s);
  const deliberate = afterBreakout || stream.executableComments || stream.inlineComments || stream.mixedCase;
  if (sel && (r.isTerminator(sel.end) || r.is(sel.end, 'rparen') || r.is(sel.end, 'string'))) {
    // "union select 用法", "union select meaning": a search for the phrase reads as UNION SELECT of
    // one bare column. A union needs a query to join: an operand it closes (a number, a literal or
    // a parenthesis) right before it; and a select list an injection uses has SQL in it (a literal,
    // NULL, a call, a list, `*`, FROM). With neither, the words are prose.
    if (!deliberate && !closesOperand(r, i) && !selectListIsSql(r, s, sel.end)) return null;
    return { rule: 'sqli.union_select', severity: 2, at: i };
  }
  // `union select` and nothing more: a probe cut after the keyword pair, or a search for the words.
  // Without an operand before it or obfuscation, it is the search (issue 25: a blog's search box).
  if (r.isTerminator(s + 1)) return deliberate || closesOperand(r, i) || i > 0 ? { rule: 'sqli.union_select', severity: deliberate ? 2 : 1, at: i } : null;
  // `'union select/`: a probe cut after the keyword pair, only punctuation left.
  if (afterBreakout && r.tokens.slice(s + 1).every((t) => t.type === 'operator' || t.type === 'other' || t.type === 'comment')) return { rule: 'sqli.union_select', severity: 2, at: i };
  return null;
}

/** UNION right after something a query ends with: a number, a literal, a closing parenthesis, a column name after WHERE-like SQL. */
function closesOperand(r: SqlReader, i: number): boolean {
  return r.is(i - 1, 'number') || r.is(i - 1, 'string') || r.is(i - 1, 'rparen') || r.is(i - 1, 'comment') || r.is(i - 1, 'keyword') || r.is(i - 1, 'variable') || (r.is(i - 1, 'word') && r.is(i - 2, 'operator'));
}

/** Tokens `from` to `end` of a select hold more than bare words: a literal, NULL, a call, a list, `*`, FROM, a variable. */
function selectListIsSql(r: SqlReader, from: number, end: number): boolean {
  for (let k = from + 1; k < end; k++) {
    const t = r.at(k)!;
    if (t.type === 'word' || t.type === 'dot') continue;
    if (t.type === 'keyword' && (t.text === 'as' || t.text === 'distinct' || t.text === 'all')) continue;
    return true;
  }
  return false;
}

/**
 * `'UNION A`, `' union/`: the value opens by closing an empty literal and goes straight to UNION,
 * then stops (punctuation, or a word of one to three letters: the probe's cut). `'Union Square` is
 * a longer word; `'union' said…` keeps a quote after the word and is no breakout into UNION.
 */
function unionProbe(r: SqlReader, i: number): Finding | null {
  if (i !== 1 || r.at(0)!.text.length !== 2 || !r.isKeyword(i, 'union', 'alter')) return null;
  const rest = r.tokens.slice(i + 1);
  // `'alter a`, `' ALTER/`: the same cut after ALTER; the word is shorter (`'alter ego` is a phrase).
  const wordLength = r.isKeyword(i, 'union') ? 3 : 2;
  const cut = (rest.length > 0 || r.isKeyword(i, 'union')) && (rest.every((t) => t.type === 'operator' || t.type === 'other') || (rest.length === 1 && rest[0]!.type === 'word' && rest[0]!.text.length <= wordLength));
  return cut ? { rule: r.isKeyword(i, 'union') ? 'sqli.union_select' : 'sqli.stacked_query', severity: 2, at: i } : null;
}

/** What follows the closed literal at `i`. */
/**
 * `admin'--` cuts the rest of the query off. Prose quotes options and anchors the same way
 * (`the "--help" option`, `href="#top"`), so the comment must be a real one — `--`/`#` followed
 * by a space or the end — and the literal it closes must be a short token (a user name, an id),
 * or the comment must end the value.
 */
function commentCutsQuery(r: SqlReader, text: string, at: number, breakout: number): boolean {
  const comment = r.at(at)!;
  if (comment.text !== '/*') {
    const after = text[comment.start + comment.text.length];
    if (after !== undefined && after !== ' ' && after !== '\t' && after !== '\n' && after !== '\r') return false;
  }
  const atEnd = text.slice(comment.start + comment.text.length).trim().length === 0;
  const literal = breakout > 0 ? r.at(breakout - 1) : undefined;
  // The literal's text includes its quotes: `'admin'` is 7 characters, `''` (nothing before the quote) is 2.
  const shortToken = literal !== undefined && literal.text.length > 2 && literal.text.length <= 66 && !/\s/.test(literal.text);
  return atEnd || shortToken;
}

/** The literal the value closed is empty or one short token without blanks (`'`, `a'`, `foo\\'`). */
function shortLiteral(r: SqlReader, breakout: number): boolean {
  const literal = r.at(breakout - 1);
  return literal !== undefined && literal.text.length <= 34 && !/\s/.test(literal.text);
}

/**
 * `x'-email--`, `id'is not-id--`, `'sounds like rowid--`, `x' mod id--`: the closed literal becomes
 * the left operand of an operator, a column or number follows, and a comment cuts the query off
 * right there. Prose has no operator between a quote and a name that ends in a real comment.
 */
function literalOperand(r: SqlReader, i: number, text: string): Finding | null {
  // Cheap gate first: an operator or an operator keyword right after the literal.
  const op = r.at(i);
  if (!op || !(op.type === 'operator' || (op.type === 'keyword' && operatorKeywords.has(op.text)))) return null;
  const e = r.expression(i - 1);
  if (!e || e.end <= i) return null;
  // `'glob 1;`, `x' like 5;`: a SQL comparison word, its operand, then the statement ended with `;`
  // (only comments after it). The word is what code does not write between a quote and a `;`.
  if (op.type === 'keyword' && r.is(e.end, 'semicolon') && r.tokens.slice(e.end + 1).every((t) => t.type === 'comment' || t.type === 'semicolon')) {
    return r.tokens.slice(i + 1, e.end).some((t) => t.type === 'word' || t.type === 'number' || t.type === 'string') ? { rule: 'sqli.boolean', severity: 2, at: i } : null;
  }
  if (!r.is(e.end, 'comment') || r.at(e.end)!.text === '/*') return null;
  // The operator sits right after the literal; at least one operand follows it.
  const operand = r.tokens.slice(i, e.end).some((t) => t.type === 'word' || t.type === 'number' || t.type === 'keyword');
  // `x'%40email--` is the undecoded form of `x'@email--`: a `%` with two hex digits is an escape, not modulo.
  if (r.tokens.slice(i, e.end).some((t) => t.type === 'operator' && t.text === '%' && /^[0-9a-f]{2}/i.test(text.slice(t.start + 1, t.start + 3)))) return null;
  return operand && commentCutsQuery(r, text, e.end, i) ? { rule: 'sqli.comment_truncation', severity: 2, at: i } : null;
}

const operatorKeywords = new Set(['like', 'rlike', 'regexp', 'sounds', 'is', 'not', 'in', 'between', 'glob', 'mod', 'div', 'collate', 'escape', 'similar', 'ilike']);

/** After a leading number at `i - 1`: `= 'n'` with the same digits, maybe AND/OR, then a real `--`/`#` comment ending the value. */
function numberComparedWithQuote(r: SqlReader, i: number, text: string): boolean {
  const op = r.at(i)!;
  const literal = r.at(i + 1);
  if (op.type !== 'operator' || !(op.text === '=' || op.text === '<=>') || !literal || literal.type !== 'string' || !literal.closed) return false;
  if (literal.text.slice(1, -1) !== r.at(i - 1)!.text) return false;
  let j = i + 2;
  if (r.isKeyword(j, 'or', 'and', 'xor')) j++;
  const comment = r.at(j);
  if (!comment || comment.type !== 'comment' || comment.text === '/*' || j + 1 !== r.tokens.length) return false;
  const after = text[comment.start + comment.text.length];
  return after === undefined || after === ' ' || after === '\t' || after === '-';
}

/** `admin@juice-sh.op';`, `root@example.com'/* x *\/;`: the literal closed and the statement ended. */
function closedStatement(r: SqlReader, i: number): Finding | null {
  if (!r.is(i, 'semicolon')) return null;
  return r.tokens.slice(i + 1).every((t) => t.type === 'comment' || t.type === 'semicolon') ? { rule: 'sqli.comment_truncation', severity: 2, at: i } : null;
}

/**
 * Comparisons, and the operators of the `x'-'y`, `a'^'b` bypasses: MySQL turns both strings into
 * numbers, so `pass = 'x'-'y'` is `pass = 0`, true for every non-numeric password.
 */
const literalComparisons = new Set(['=', '!=', '<>', '<=>', '<', '>', '<=', '>=', '-', '^', '&', '|']);

/**
 * `x'='x`, `a'!='b`: the closed literal compared with a literal the application's own closing quote
 * completes — `pass = 'x'='x'` reads `(pass = 'x') = 'x'`, true for every row in MySQL. Both
 * literals are short tokens; a quote, an operator and a quote in a row are not prose.
 */
function quotedComparison(r: SqlReader, i: number): Finding | null {
  const op = r.at(i);
  const last = r.at(i + 1);
  if (!op || op.type !== 'operator' || !literalComparisons.has(op.text) || !last || last.type !== 'string' || last.closed || i + 2 !== r.tokens.length) return null;
  // Both literals are plain tokens (a name, an id, an address): `s.split('=')` closes a literal
  // holding code, and its last quote is followed by a parenthesis.
  // (`'|'`, `'='`, `b'-'` — the second literal empty — are how a separator is written in a setting
  // or in Python's bytes.)
  const first = r.at(i - 1)!;
  if (last.text.length === 1) return null;
  return plainToken.test(first.text.slice(1, -1)) && plainToken.test(last.text.slice(1)) && last.text.length <= 34 ? { rule: 'sqli.boolean', severity: 2, at: i } : null;
}

const plainToken = /^[\w@.$:-]*$/;

function breakoutTail(r: SqlReader, i: number, stream: TokenStream, quoted: boolean, text: string): Finding | null {
  const pos = skipRparens(r, i);
  const t = r.at(pos);
  if (!t) return null;
  if (t.type === 'comment') {
    if (pos === i && !quoted) return null;
    return commentCutsQuery(r, text, pos, i) ? { rule: 'sqli.comment_truncation', severity: quoted ? 2 : 1, at: pos } : null;
  }
  if (r.isLogical(pos)) {
    const e = r.expression(pos + 1);
    // `test' or 1=`, `'or 12356789<`: the condition cut after its operator, the query's own text to follow.
    const last = r.tokens[r.tokens.length - 1]!;
    if (e && quoted && shortLiteral(r, i) && e.end === r.tokens.length - 1 && last.type === 'operator' && !['~', '!'].includes(last.text)) return { rule: 'sqli.boolean', severity: 2, at: pos };
    if (e && endsCleanly(r, e.end)) {
      if (e.dangerous) return { rule: 'sqli.blind_function', severity: 2, at: pos };
      if (e.comparison || e.call || e.subquery) return { rule: 'sqli.boolean', severity: 2, at: pos };
      // `' or 1--`, `9999 or /*+hint*/ true`: a bare literal is a condition when comments frame it.
      if (e.literal && (r.is(skipRparens(r, e.end), 'comment') || stream.inlineComments)) return { rule: 'sqli.boolean', severity: 2, at: pos };
      // `a'or'a`, `'||true`, `'''or 1`: a literal closed right away (a short token, no blanks) and
      // a bare literal as the whole condition — the tautology without the `=`.
      // (`' or true; foo`: the tautology then a statement separator.)
      if (e.literal && quoted && shortLiteral(r, i) && (r.at(e.end) === undefined || r.is(e.end, 'semicolon')) && (r.isKeyword(pos, 'or', 'xor') || r.is(pos, 'operator', '||'))) return { rule: 'sqli.boolean', severity: 2, at: pos };
    }
    // `' or abc!`: the value opens on the quote, then OR and one column name as the whole condition
    // (true for every row where it is non-zero), a stray mark after it. A reply could open so too, so
    // it is only suspicious (strict mode blocks it).
    if (e && quoted && pos === i && r.at(i - 1)!.text.length === 2 && r.isKeyword(pos, 'or', 'xor') && e.end === pos + 2 && r.is(pos + 1, 'word') && r.tokens.slice(e.end).every((t) => t.type === 'other' || (t.type === 'operator' && t.text === '!'))) {
      return { rule: 'sqli.boolean', severity: 1, at: pos };
    }
    return quoted && pos === i ? orOperandDebris(r, pos, text) : null;
  }
  if (quoted && pos === i && (t.type === 'operator' || t.type === 'semicolon' || t.type === 'keyword') && shortLiteral(r, i)) {
    const f = literalOperand(r, i, text) ?? closedStatement(r, i) ?? quotedComparison(r, i);
    if (f) return f;
  }
  // `x', 'admin', 1)--`, `admin', '1'='1`: more items appended to the list the literal sits in (lists.ts).
  if (quoted && pos === i && t.type === 'comma' && shortLiteral(r, i)) {
    const rule = listBreakout(r, i, text);
    return rule ? { rule, severity: 2, at: pos } : null;
  }
  // `'.sleep(12).'`: the literal closed, a timing or file call joined to it with `.` (PHP's string
  // operator, where the value lands in a query string the code builds), and a literal reopened for
  // the application's own quote. A sentence has no call between a quote and a dot.
  if (quoted && pos === i && t.type === 'dot' && shortLiteral(r, i)) {
    const e = r.expression(pos + 1);
    const reopened = e !== null && r.is(e.end, 'dot') && r.is(e.end + 1, 'string') && e.end + 2 === r.tokens.length;
    if (e && e.dangerous && (reopened || r.isTerminator(e.end))) return { rule: 'sqli.blind_function', severity: 2, at: pos + 1 };
    return null;
  }
  // `';print'`: MSSQL's PRINT stacked after the closed literal, its operand the literal the
  // application's own closing quote completes (Perl's `; print "…"` follows code, not a short token).
  if (quoted && pos === i && t.type === 'semicolon' && r.is(pos + 1, 'word', 'print') && r.is(pos + 2, 'string') && r.at(pos + 3) === undefined && shortLiteral(r, i)) {
    return { rule: 'sqli.stacked_query', severity: 2, at: pos };
  }
  if (t.type === 'semicolon') {
    const statement = stackedStatement(r, pos + 1);
    return statement ? { rule: 'sqli.stacked_query', severity: 2, at: pos } : null;
  }
  if (r.isKeyword(pos, 'union')) return unionSelect(r, pos, stream, true) ?? (quoted ? unionProbe(r, pos) : null);
  if (quoted && r.isKeyword(pos, 'alter')) {
    const probe = unionProbe(r, pos);
    if (probe) return probe;
  }
  // `) when 234 then`: a CASE branch after the application's parenthesis or literal — SQL only.
  if (r.isKeyword(pos, 'when') && (pos > i || quoted)) {
    const cond = r.expression(pos + 1);
    if (cond && r.isKeyword(cond.end, 'then')) {
      const result = r.expression(cond.end + 1);
      if (r.isTerminator(cond.end + 1) || (result && (r.isTerminator(result.end) || r.isKeyword(result.end, 'else', 'end', 'when')))) return { rule: 'sqli.fragment', severity: 2, at: pos };
    }
  }
  // MSSQL runs a second statement without `;`: `'waitfor delay '0:0:5'--`, `' exec xp_cmdshell …`.
  if (r.isKeyword(pos, 'waitfor', 'exec', 'execute', 'declare', 'shutdown', 'drop', 'insert', 'update', 'delete') && stackedStatement(r, pos)) {
    return { rule: 'sqli.stacked_query', severity: 2, at: pos };
  }
  // `' notnull--`, `' collate nocase--`: a test or collation that only makes sense as SQL.
  if ((r.isKeyword(pos, 'notnull', 'isnull') && r.isTerminator(pos + 1)) || (r.isKeyword(pos, 'collate') && r.isTerminator(pos + 2))) {
    return quoted && r.is(r.isKeyword(pos, 'collate') ? pos + 2 : pos + 1, 'comment') ? { rule: 'sqli.comment_truncation', severity: 2, at: pos } : null;
  }
  // `1='1' or-- -`, `5='5'#`: the number compared with a quoted copy (MySQL converts it, the
  // condition holds), an optional dangling AND/OR, and a comment that cuts the rest of the query.
  if (!quoted && pos === i && numberComparedWithQuote(r, i, text)) return { rule: 'sqli.comment_truncation', severity: 2, at: pos };
  // `1 rlike (select …)`, `1 like sleep(5)`: a comparison keyword works as the operator.
  if (t.type === 'operator' || r.isKeyword(pos, 'like', 'rlike', 'regexp', 'in', 'glob')) {
    const e = r.expression(pos + 1);
    if (e && (e.dangerous || e.subquery)) return { rule: e.dangerous ? 'sqli.blind_function' : 'sqli.subquery', severity: 2, at: pos };
    return null;
  }
  if (r.isKeyword(pos, 'order', 'group', 'having', 'limit', 'procedure', 'into') && pos > i - 1) {
    const info = { end: pos, comparison: false, call: false, subquery: false, dangerous: null, literal: false };
    const end = r.clauses(pos, 0, info);
    // (`x' into @team` reads like a sentence about a handle: INTO a variable alone needs the comment.)
    const intoVariable = r.isKeyword(pos, 'into') && r.is(pos + 1, 'variable');
    // (`1 group by 1 having 1=1`: a HAVING or WHERE comparison in the chain is SQL without the comment.)
    if (end > pos && r.isTerminator(end) && (r.is(end, 'comment') || (quoted && !intoVariable) || info.comparison)) return { rule: 'sqli.clause_breakout', severity: 2, at: pos };
  }
  return null;
}

/** Checks that hold wherever the value sits: UNION SELECT, sub-selects, dangerous calls, `;` + statement. */
function anywhere(r: SqlReader, stream: TokenStream): Finding | null {
  const tokens = r.tokens;
  let suspicious: Finding | null = null;
  // (Severity 1 here; a value that is not a document raises it, as for a whole statement: a
  // mysqldump pasted into a post carries `/*!40101 SET …*/` lines.)
  if (stream.executableKeyword) suspicious = { rule: 'sqli.executable_comment', severity: 1, at: stream.executableKeywordAt };
  // (One written inside an ordinary comment, `/* x/*!50000from*\/`, counts too: the filter it hides from
  // reads the same characters.)
  else if (r.source.includes('/*!') && executableKeywordText.test(r.source)) suspicious = { rule: 'sqli.executable_comment', severity: 1, at: 0 };
  if (stream.splitKeyword) return { rule: 'sqli.obfuscation', severity: 2, at: 0 };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.type === 'keyword' && t.text === 'union') {
      const f = unionSelect(r, k, stream);
      if (f) return f;
    } else if (t.type === 'keyword' && t.text === 'select' && stream.mixedCase && literalColumns(r, k + 1)) {
      // `SeLect*/ 1,2,3,user(`: a select list of placeholder literals (UNION's column-count probe)
      // under a keyword in alternating case, written to slip past filters.
      return { rule: 'sqli.union_select', severity: 2, at: k };
    } else if (t.type === 'lparen' && r.isKeyword(k + 1, 'select')) {
      // `name=(select`, `@.= ( SELECT`: a sub-select opened after a comparison and cut there, where
      // the query goes on; a sentence does not end on `=(select`.
      if (k + 2 === tokens.length && r.is(k - 1, 'operator') && ['=', '<>', '!=', '<', '>', '<=', '>='].includes(tokens[k - 1]!.text)) return { rule: 'sqli.subquery', severity: 2, at: k };
      const sel = r.select(k + 1);
      if (sel && (sel.call || sel.subquery || sel.dangerous || tokens.slice(k + 1, sel.end).some((x) => x.type === 'keyword' && x.text === 'from')))
        return { rule: sel.dangerous ? 'sqli.blind_function' : 'sqli.subquery', severity: 2, at: k };
    } else if (t.type === 'semicolon') {
      if (stackedStatement(r, k + 1)) return { rule: 'sqli.stacked_query', severity: 2, at: k };
    } else if (t.type === 'word' && (t.text === 'except' || t.text === 'intersect') && r.isKeyword(k + 1, 'select', 'values')) {
      // `except select .1,2`, `intersect values(1,2)`: UNION's siblings, with a row of literals
      // (`everyone except select members` selects a name, which prose does).
      const f = setOperation(r, k + 1);
      if (f) return f;
    } else if (t.type === 'word' && catalogs.has(t.text)) {
      // Reading the catalog: `from information_schema.tables`; named alone it may be a DBA's question.
      // `from mysql` alone is prose ("upgrading from MySQL 5.7"): the ambiguous names count dotted only.
      const fromCatalog = r.isKeyword(k - 1, 'from', 'join') && (!ambiguousCatalogs.has(t.text) || r.is(k + 1, 'dot'));
      if (fromCatalog || (r.is(k + 1, 'dot') && r.is(k + 2, 'word') && catalogTables.has(r.at(k + 2)!.text))) return { rule: 'sqli.catalog', severity: 2, at: k };
      if (!ambiguousCatalogs.has(t.text)) suspicious ??= { rule: 'sqli.catalog', severity: 1, at: k };
    } else if (t.type === 'word' && procedures.has(t.text) && (r.isKeyword(k - 1, 'exec', 'execute') || r.is(k - 1, 'dot'))) {
      return { rule: 'sqli.stored_procedure', severity: 2, at: k };
    } else if ((t.type === 'word' || (t.type === 'keyword' && t.text === 'waitfor')) && !r.is(k - 1, 'dot')) {
      const f = dangerousCall(r, k);
      if (f) return f;
    }
  }
  return suspicious;
}

/**
 * At `i`, after the debris of a comment closed on the keyword (`*\/`), two or more literal columns
 * in a row (`1,2,3`, `null,null`): the placeholders a UNION probe counts columns with.
 */
function literalColumns(r: SqlReader, i: number): boolean {
  let j = i;
  while (r.is(j, 'operator', '*') || r.is(j, 'operator', '/')) j++;
  let literals = 0;
  while (r.is(j, 'number') || r.isKeyword(j, 'null') || (r.is(j, 'string') && r.at(j)!.closed)) {
    literals++;
    j++;
    if (!r.is(j, 'comma')) break;
    j++;
  }
  // The list goes on (`,user(`), ends, or reaches FROM; `sElEcT 1, 2 oR 3` (mocking case) is a sentence.
  return literals >= 2 && (r.is(j - 1, 'comma') || r.isTerminator(j) || r.isKeyword(j, 'from', 'union'));
}

const executableKeywordText = /\/\*!\d*\s*(?:select|union|from|where|and|or|insert|update|delete|drop|exec|declare|set)\b/i;

function setOperation(r: SqlReader, s: number): Finding | null {
  let j = s + 1;
  if (r.isKeyword(s, 'values')) {
    if (!r.is(j, 'lparen')) return null;
    j++;
  }
  let literals = 0;
  for (;;) {
    if (r.is(j, 'operator', '-')) j++;
    if (!r.is(j, 'number') && !(r.is(j, 'string') && r.at(j)!.closed) && !r.isKeyword(j, 'null')) return null;
    literals++;
    j++;
    if (!r.is(j, 'comma')) break;
    j++;
  }
  if (r.isKeyword(s, 'values')) {
    if (!r.is(j, 'rparen')) return null;
    j++;
  }
  return literals > 0 && r.isTerminator(j) ? { rule: 'sqli.union_select', severity: 2, at: s - 1 } : null;
}

/** System catalogs an injection reads to map the database. */
const catalogs = new Set(['information_schema', 'pg_catalog', 'sysobjects', 'syscolumns', 'sysdatabases', 'msysaccessobjects', 'msysobjects', 'all_tables', 'user_tables', 'sqlite_master', 'sqlite_schema', 'pg_shadow', 'pg_user', 'mysql']);
/** Catalog names that are also ordinary words in prose (`mysql-server`, `user_tables`). */
const ambiguousCatalogs = new Set(['mysql', 'all_tables', 'user_tables', 'pg_user']);
const catalogTables = new Set(['tables', 'columns', 'schemata', 'user', 'db', 'pg_tables', 'pg_user', 'pg_shadow', 'routines', 'processlist']);

/** MSSQL's extended procedures that run commands, read the registry or reach the network. */
const procedures = new Set(['xp_cmdshell', 'xp_regread', 'xp_regwrite', 'xp_dirtree', 'xp_fileexist', 'xp_servicecontrol', 'sp_oacreate', 'sp_oamethod', 'sp_makewebtask', 'sp_addextendedproc', 'sp_configure', 'sp_executesql', 'sp_password']);

/** sleep(5), benchmark(…), pg_sleep(…), WAITFOR DELAY '…': SQL-shaped calls of timing functions. */
function dangerousCall(r: SqlReader, k: number): Finding | null {
  if (r.isKeyword(k, 'waitfor')) {
    return r.isKeyword(k + 1, 'delay', 'time') && r.is(k + 2, 'string') ? { rule: 'sqli.blind_function', severity: 2, at: k } : null;
  }
  if (!r.is(k + 1, 'lparen') && !r.is(k + 1, 'dot')) return null;
  const e = r.expression(k);
  if (!e || !e.dangerous) return null;
  // Preceded by SQL syntax it is injected; as the whole value (`sleep(5)`, sqlmap's probe) too.
  // After prose (`I need sleep(5)`) it is only suspicious.
  const before = r.at(k - 1);
  const syntaxBefore = before !== undefined && before.type !== 'word' && before.type !== 'other';
  let first = 0;
  while (r.is(first, 'lparen')) first++;
  const wholeValue = first === k && endsCleanly(r, e.end);
  // `{${sleep(12)}}`: the call alone inside `${…}`, the interpolation PHP strings, shells and template
  // engines evaluate — a timing probe for whichever of them builds the query; prose does not write it.
  // (A number as the only argument: code that interpolates a helper passes a variable, `${sleep(ms)}`.)
  const dollar = r.at(k - 2);
  const interpolated = r.is(k + 2, 'number') && r.is(k + 3, 'rparen') && before !== undefined && before.text === '{' && dollar !== undefined && dollar.text === '$' && dollar.start + 1 === before.start && before.start + 1 === r.at(k)!.start && r.is(e.end, 'other', '}');
  return { rule: 'sqli.blind_function', severity: syntaxBefore || wholeValue || interpolated ? 2 : 1, at: k };
}

/** A whole statement as the value (`SELECT * FROM users`): code in a post, or a raw query. */
function wholeStatement(r: SqlReader, stream: TokenStream): Finding | null {
  // `select 0x616263`, `select @@version`: a select of a hex literal or a server variable reads
  // the server or smuggles a string; nobody selects those to show a query.
  const sel = r.isKeyword(0, 'select') ? r.select(0) : null;
  if (sel && r.isTerminator(sel.end) && r.tokens.slice(1, sel.end).some((t) => (t.type === 'number' && /^0x[0-9a-f]{4,}$/i.test(t.text)) || (t.type === 'variable' && t.text.startsWith('@@')))) {
    return { rule: 'sqli.statement', severity: 2, at: 0 };
  }
  // `DROP sampletable;--`, `DROP/*comment*/sampletable`: a table dropped by its bare name, closed
  // with `;` and a comment or split by comments — a statement written to run, not a sentence.
  if (r.isKeyword(0, 'drop') && r.is(1, 'word') && ((r.is(2, 'semicolon') && r.tokens.slice(3).every((t) => t.type === 'comment')) || (stream.inlineComments && r.at(2) === undefined))) {
    return { rule: 'sqli.statement', severity: 2, at: 0 };
  }
  // `/CREATE TABLE Persons`, `>DROP TABLE x`: a stray `/` or `>` left of the statement (a path or tag cut).
  const statement = stackedStatement(r, r.is(0, 'operator') && (r.at(0)!.text === '/' || r.at(0)!.text === '>') ? 1 : 0);
  // Only the data statements and DDL: `call fails`, `grant Olson`, `truncate a file` are prose.
  if (!statement || !wholeStatements.has(statement)) return null;
  // `SELECT /*!32302 1/0, */ 1 FROM t`, `sElEcT … FrOm`: MySQL's version comments and alternating
  // case are written to slip past filters; nobody shows or runs a query written so.
  return { rule: 'sqli.statement', severity: stream.executableComments || stream.mixedCase ? 2 : 1, at: 0 };
}

const wholeStatements = new Set(['select', 'insert', 'update', 'delete', 'drop', 'create', 'alter', 'declare', 'waitfor', 'load data']);

function evidence(text: string, stream: TokenStream, at: number, offset: number): string {
  const start = Math.max(0, (stream.tokens[at]?.start ?? offset) - offset);
  return text.slice(offset + start, offset + start + 120);
}

function hit(f: Finding, text: string, stream: TokenStream, offset: number): DetectorHit {
  return { kind: 'sqli', rule: f.rule, severity: f.severity, evidence: evidence(text, stream, f.at, offset) };
}

/** One reading of the value: the text tokenized, and where the application's literal ends. */
interface Reading {
  text: string;
  /** Characters we prepended (the opening quote), subtracted from evidence offsets. */
  offset: number;
  stream: TokenStream;
  /** Token index after the closed literal, or -1 when the value does not leave it. */
  breakout: number;
  quoted: boolean;
  /** Only the fragment shapes are read (a reading made for them). */
  fragmentsOnly?: boolean;
}

/** Typographic quotes some stacks fold to `'` (a collation or a "smart quotes" normaliser): `1’ OR ’1’=’1`, `1´ OR ´1´=´1`. */
const foldedQuote = /[\u2018\u2019\u201b\u02bc\uff07\u00b4]/;
const foldedQuotes = /[\u2018\u2019\u201b\u02bc\uff07\u00b4]/g;
const latin1Quote = /\u00e2\u0080[\u0098\u0099\u009b]/;
const latin1Quotes = /\u00e2\u0080[\u0098\u0099\u009b]/g;

function readings(value: string): Reading[] {
  const out = readingsOf(value);
  // Read the folded value too, only its quoted readings (a prose apostrophe folded is still prose:
  // the grammar decides). Only short values: the probes are short, and prose set with typographic
  // apostrophes is long (two more tokenizations of every post would cost more than they find).
  if (value.length <= 256 && foldedQuote.test(value)) out.push(...readingsOf(value.replace(foldedQuotes, "'")).filter((r) => r.quoted));
  // The same quotes as UTF-8 bytes read one by one (a header taken as Latin-1): `â\x80\x99`.
  else if (value.length <= 256 && value.includes('\u00e2\u0080') && latin1Quote.test(value)) out.push(...readingsOf(value.replace(latin1Quotes, "'")).filter((r) => r.quoted));
  // `starts_with(password,\$\$t\$\$)`: PostgreSQL's dollar quoting with its dollars escaped for the
  // shell, Perl or PHP string that carries the payload (and unescapes it before the query is built).
  // Read unescaped too, its quoted readings only: a shell snippet in a post is still judged by the
  // grammar. Short values only, as above.
  if (value.length <= 512 && value.includes('\\$')) out.push(...readingsOf(value.replaceAll('\\$', '$')).filter((r) => r.quoted));
  // A value opening with a backtick may continue an identifier the application quoted
  // (`` ` AS `x` FROM``): read after an opening backtick, for the fragment shapes only.
  if (value.trimStart().startsWith('`')) {
    const text = '`' + value;
    out.push({ text, offset: 1, stream: tokenizeSql(text, maxTokens), breakout: -1, quoted: false, fragmentsOnly: true });
  }
  return out;
}

function readingsOf(value: string): Reading[] {
  const out: Reading[] = [];
  const backslashModes = value.includes('\\') ? [true, false] : [true];
  // Quoted contexts: the value continues a '…' or "…" literal the application opened.
  for (const quote of ["'", '"']) {
    if (!value.includes(quote)) continue;
    for (const backslashEscapes of backslashModes) {
      const text = quote + value;
      const stream = tokenizeSql(text, maxTokens, backslashEscapes);
      const first = stream.tokens[0];
      if (first && first.type === 'string' && first.closed) out.push({ text, offset: 1, stream, breakout: 1, quoted: true });
    }
  }
  // Bare context: a number (or a closing parenthesis) the application did not quote.
  const stream = tokenizeSql(value, maxTokens);
  let start = 0;
  if (stream.tokens[0]?.type === 'operator' && stream.tokens[0].text === '-') start++;
  const lead = stream.tokens[start]?.type;
  const breakout = lead === 'number' ? start + 1 : lead === 'rparen' ? start : -1;
  out.push({ text: value, offset: 0, stream, breakout, quoted: false });
  return out;
}

/**
 * Where the value is a document (a post, a comment, editor HTML: `looksLikeDocument`), a statement
 * found inside one of its code regions (Markdown fence or inline code, `<code>`, `<pre>`) is code the
 * author is showing, not a query being bent: it is dropped. SQL elsewhere in the document is judged
 * as in any value, and so is what the breakout readings find (the value closing the application's
 * literal and going on as SQL): that is how an injection into a stored text would have to look.
 * The trade-off: an attacker who wraps a statement in a fence inside thirty words of prose passes;
 * such a statement cannot leave a literal the application opened, which an injection must.
 */
interface DocumentContext {
  spans: CodeSpan[];
}

function shownAsCode(f: Finding, reading: Reading, doc: DocumentContext): boolean {
  const at = (reading.stream.tokens[f.at]?.start ?? reading.offset) - reading.offset;
  return spanAt(doc.spans, at) !== null;
}

/**
 * A system catalog named alone (`INFORMATION_SCHEMA`, `pg_catalog`, `msdb`): what a scanner probes
 * with, and what a DBA might type in a search — suspicious. Dotted into one of its tables
 * (`information_schema.tables`, `mysql.user`) it is the read itself. (`Northwind`, Microsoft's sample
 * database, is what scanners name to see whether a demo install answers.)
 */
const probedCatalogs = new Set(['northwind', 'information_schema', 'pg_catalog', 'sysobjects', 'syscolumns', 'sysdatabases', 'msysaccessobjects', 'msysobjects', 'sqlite_master', 'sqlite_schema', 'pg_shadow', 'tempdb', 'msdb', 'schema_name', 'table_schema']);

/** Lower, upper, lower again within the name's letters (`InFoRmaTioN`); `Information_Schema` is one change. */
function alternatingCaseName(name: string): boolean {
  let changes = 0;
  for (let i = 1; i < name.length; i++) {
    const a = name[i - 1]!;
    const b = name[i]!;
    const aLower = a >= 'a' && a <= 'z';
    const aUpper = a >= 'A' && a <= 'Z';
    if ((aLower && b >= 'A' && b <= 'Z') || (aUpper && b >= 'a' && b <= 'z' && i > 1 && name[i - 2] !== '_')) changes++;
  }
  return changes >= 3;
}

function catalogName(value: string): DetectorHit | null {
  if (value.length > 48) return null;
  const name = value.trim().toLowerCase();
  // `InFoRmaTioN_ScHemA`: written in alternating case to slip past a filter, which no one searching does.
  if (probedCatalogs.has(name)) return { kind: 'sqli', rule: 'sqli.catalog', severity: alternatingCaseName(value.trim()) ? 2 : 1, evidence: value.slice(0, 120) };
  // `xp_cmdshell`, `sp_executesql`, `UTL_HTTP` alone: a scanner naming the procedure; a DBA might search it.
  if (procedures.has(name) || name === 'utl_http' || name === 'openrowset') return { kind: 'sqli', rule: 'sqli.stored_procedure', severity: 1, evidence: value.slice(0, 120) };
  const dot = name.indexOf('.');
  if (dot > 0 && (catalogs.has(name.slice(0, dot)) || name.startsWith('mysql.')) && catalogTables.has(name.slice(dot + 1))) {
    return { kind: 'sqli', rule: 'sqli.catalog', severity: name.startsWith('mysql.') ? 1 : 2, evidence: value.slice(0, 120) };
  }
  return null;
}

/** `admin@example.org\`;`: an identifier the application quoted with backticks, closed, and the statement ended. */
const closedIdentifier = /^[\w@.-]{1,64}`\s*;\s*(?:(?:--|#).*)?$/;

/**
 * `2.2250738585072011e-308`: the decimal just below the smallest normal double, on which the float
 * parsers of Java and PHP looped forever (CVE-2010-4476, PHP bug 53632). No measurement is written so.
 */
function floatParserHang(value: string): boolean {
  if (value.length > 40 || !/^[+-]?[0-9.]+e-?[0-9]+$/i.test(value)) return false;
  const x = Math.abs(Number(value));
  return x > 2.2250738585072e-308 && x < 2.2250738585073e-308;
}

export function detectSqliAt(value: string, location: InputLocation): DetectorHit | null {
  if (value.length < 2) return null;
  if (floatParserHang(value)) return { kind: 'sqli', rule: 'sqli.numeric_overflow', severity: 2, evidence: value };
  if (value.includes('`') && closedIdentifier.test(value)) return { kind: 'sqli', rule: 'sqli.comment_truncation', severity: 2, evidence: value.slice(0, 120) };
  // `"'`, `'"`: both quote characters and nothing else — the first thing a scanner sends, to see which
  // literal the value lands in by the error it raises. A unit (`5'`, `12"`) has one kind and a number.
  if (value.length <= 6 && /^\s*(?:['"]\s*){2,4}$/.test(value) && value.includes("'") && value.includes('"')) return { kind: 'sqli', rule: 'sqli.quote_probe', severity: 1, evidence: value };
  if (escapedQuoteProbe(value)) return { kind: 'sqli', rule: 'sqli.boolean', severity: 2, evidence: value.slice(0, 120) };
  // (`password::int`, a PostgreSQL cast, is made of "safe" characters too.)
  // (`1.e.tables`, MySQL's scientific-notation bypass, is made of them as well.)
  if (cannotBeSql(value) && !value.includes('::') && !/\d\.e\./i.test(value)) return catalogName(value);
  if (!worthTokenizing(value)) return null;
  let suspicious: DetectorHit | null = null;
  let doc: DocumentContext | null | undefined;
  const documentOf = (): DocumentContext | null => {
    if (doc === undefined) doc = (location === 'body' || location === 'raw_body') && looksLikeDocument(value) ? { spans: codeSpans(value) } : null;
    return doc;
  };
  for (const reading of readings(value)) {
    const r = new SqlReader(reading.stream.tokens, reading.text);
    const findings: [Finding | null, boolean][] = reading.fragmentsOnly
      ? [[sqlFragment(r), false]]
      : [
          [reading.breakout >= 0 ? breakoutTail(r, reading.breakout, reading.stream, reading.quoted, reading.text) : null, true],
          [anywhere(r, reading.stream), false],
          [reading.quoted ? null : wholeStatement(r, reading.stream), false],
          [sqlFragment(r), false],
        ];
    for (const [f, atBreakout] of findings) {
      if (!f) continue;
      const context = atBreakout ? null : documentOf();
      if (context && shownAsCode(f, reading, context)) continue;
      // A whole statement as a value that is not a document (a parameter, a header, a cookie, a
      // short form field): the application sends it to be run, or someone tries to. CRS blocks it
      // too. Inside a document (a post with SQL in it) it stays suspicious: code being shown.
      // (MySQL quotes names in backticks, which the document test reads as Markdown inline code:
      // `ALTER TABLE \`t\` CHANGE …` alone is a statement, not a post with code in it.)
      if ((f.rule === 'sqli.statement' || f.rule === 'sqli.executable_comment') && f.severity === 1 && (context === null || documentOnlyByQuotedNames(value))) f.severity = 2;
      const h = hit(f, reading.text, reading.stream, reading.offset);
      if (h.severity === 2) return h;
      suspicious ??= h;
    }
  }
  return suspicious;
}

/** The value is a document only because of backtick-quoted names (`` `mass_mails` ``), which SQL writes too. */
function documentOnlyByQuotedNames(value: string): boolean {
  return value.includes('`') && !looksLikeDocument(value.replace(quotedNames, 'x'));
}

const quotedNames = /`[\w$]{1,64}`/g;

/** The value read as a parameter (no document weighing). */
export function detectSqliValue(value: string): DetectorHit | null {
  return detectSqliAt(value, 'query');
}

/**
 * `pay=;update users` reaching us whole as a parameter name (a form body whose `=` was
 * percent-encoded): an application that decodes once more sees the part after the `=` as the value,
 * so it is read on its own too.
 */
const rawAssignment = /^[A-Za-z_][A-Za-z0-9_.-]{0,30}=/;

export const detectSqli: Detector = (value: string, location: InputLocation, name?: string) => {
  // An uploaded file's content is not a parameter: PHP hands it to the application as a file
  // ($_FILES, a temporary path), as every multipart reader does, never as a value pasted into a
  // query. SQL in it is what the file is (a dump or migration imported in phpMyAdmin or a backup
  // plugin: `SET NAMES utf8mb4; INSERT INTO …`, issue 25), and CRS does not read file contents for
  // SQL either. The file's name and the form's other fields are still read.
  if (location === 'file_content') return null;
  const found = detectSqliAt(value, location) ?? wholeValueProbe(value, location, name);
  if (found?.severity === 2 || (location !== 'body_name' && location !== 'query_name')) return found;
  const assignment = rawAssignment.exec(value);
  if (!assignment) return found;
  return detectSqliAt(value.slice(assignment[0].length), location) ?? found;
};
