import type { SqlReader } from './grammar.ts';

/**
 * `x', 'admin', 1)--`, `bob', 'admin');`: the value closes the application's literal, appends more
 * items to the list it sits in (an INSERT's VALUES row, an IN list, a call's arguments), closes the
 * list's parenthesis and cuts the rest of the query off with a comment or ends the statement — the
 * way an attacker sets a column the form never offered (a role, a price). Every item must be an SQL
 * expression, and the parenthesis plus the comment or `;` must follow them: a quoted name, a comma
 * and more words in a sentence (`Rock 'n', roll`) do not close a parenthesis and a query.
 *
 * `admin', '1'='1`: the same appended list ending on a literal compared with itself whose closing
 * quote the application supplies — a tautology in the row.
 *
 * `x', is_admin=1, name='x`: in an UPDATE's SET list, more assignments, the last one's literal left
 * open for the application's quote — a column the form never offered, set.
 *
 * `at` is the comma right after the closed literal. Returns the rule of the breakout, or null.
 */
export function listBreakout(r: SqlReader, at: number, source: string): 'sqli.boolean' | 'sqli.fragment' | null {
  const row = rowBreakout(r, at, source);
  return row === 'tautology' ? 'sqli.boolean' : row ? 'sqli.fragment' : null;
}

function rowBreakout(r: SqlReader, at: number, source: string): 'tautology' | boolean {
  let pos = at;
  let items = 0;
  let lastStart = pos + 1;
  while (r.is(pos, 'comma')) {
    lastStart = pos + 1;
    const e = r.expression(pos + 1);
    if (!e) return false;
    items++;
    pos = e.end;
  }
  if (items === 0) return false;
  if (pos === r.tokens.length) return selfComparisonTail(r, lastStart) ? 'tautology' : assignmentTail(r, at);
  let close = pos;
  while (r.is(close, 'rparen')) close++;
  if (close === pos) return false;
  const end = r.at(close);
  if (end === undefined) return false;
  if (end.type === 'semicolon') return r.tokens.slice(close + 1).every((t) => t.type === 'comment' || t.type === 'semicolon');
  if (end.type !== 'comment' || close + 1 !== r.tokens.length) return false;
  // A real comment: `--` or `#` followed by a blank or the end (`--help`, `#top` are words), or `/*`.
  const after = source[end.start + end.text.length];
  return end.text === '/*' || after === undefined || after === ' ' || after === '\t' || after === '\n' || after === '\r';
}

/** The last item is `'a'='a` (or `'a'!='b`), its last literal left open for the application's quote. */
function selfComparisonTail(r: SqlReader, from: number): boolean {
  if (from + 3 !== r.tokens.length) return false;
  const left = r.at(from)!;
  const op = r.at(from + 1)!;
  const right = r.at(from + 2)!;
  if (left.type !== 'string' || !left.closed || op.type !== 'operator' || right.type !== 'string' || right.closed) return false;
  if (left.text[0] !== right.text[0]) return false;
  const same = left.text.slice(1, -1) === right.text.slice(1);
  return (op.text === '=' && same) || ((op.text === '!=' || op.text === '<>') && !same);
}

/** From the comma at `at`: only `name = literal` items, the last literal an unclosed string. */
function assignmentTail(r: SqlReader, at: number): boolean {
  let pos = at;
  while (r.is(pos, 'comma')) {
    const value = r.at(pos + 3);
    if (!r.is(pos + 1, 'word') || !r.is(pos + 2, 'operator', '=') || !value || !(value.type === 'number' || value.type === 'string')) return false;
    pos += 4;
  }
  const last = r.at(pos - 1);
  return pos === r.tokens.length && pos > at && last !== undefined && last.type === 'string' && !last.closed;
}
