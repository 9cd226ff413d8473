import { starFromAfterQuote } from './breakout-probes.ts';
import { dangerousFunctions, type SqlReader } from './grammar.ts';
import { divisionCall } from './operators.ts';
import { selectAfterQuote } from './probes.ts';
import { strictFragment } from './strict-shapes.ts';

/**
 * SQL fragments a value carries without leaving a literal first: the piece of a query an attacker
 * (or a scanner probing for one) appends or injects where the application pastes a column list, a
 * clause or a statement. Each shape is read on the token stream of the bare value, anchored at the
 * value's start (where an injected fragment begins) — prose has SQL words, not these sequences:
 *
 * - `) AS alias FROM [table]`, `` ` AS `x` FROM ``, `1234 AS "x" FROM t`: the end of a select list;
 * - `;update users`, `; insert into`: a value that opens with a statement separator and a statement;
 * - `HAVING 1=1`, `having count(id) > 5`, `PROCEDURE ANALYSE(`: a clause with a condition;
 * - `user(`, `database(`, `db_name(`: an information function named and opened, nothing else;
 * - `concat(0x7e, version())`, `char(113)||chr(…)`: strings assembled from hex codes or server facts;
 * - `function(x)::text`: a PostgreSQL cast of a call's result;
 * - `into outfile '…'`, `execute immediate '…'`, `declare @x`, `exec master.`: things only SQL says.
 */
export interface FragmentFinding {
  rule: string;
  severity: 1 | 2;
  at: number;
}

/** Functions that report the server, the user or the database (the first thing an injection reads). */
export const infoFunctions = new Set([
  'database', 'db_name', 'current_user', 'user', 'system_user', 'session_user', 'version', 'schema', 'current_database',
  'current_schema', 'schema_name', 'user_name', 'suser_name', 'suser_sname', 'host_name', 'connection_id', 'last_insert_id',
  'current_setting', 'pg_backend_pid', 'sys_context', 'banner',
]);

/** Dangerous functions whose names exist nowhere but in a database. */
const sqlOnlyFunctionNames = new Set(['pg_sleep', 'pg_sleep_for', 'load_file', 'sys_eval', 'sys_exec', 'xp_cmdshell', 'lo_import', 'lo_export', 'pg_read_file', 'pg_ls_dir', 'dbms_pipe', 'utl_http', 'utl_inaddr']);

/** JSON functions of MySQL, PostgreSQL, SQLite and MSSQL: named and called, the value is SQL. */
const jsonFunctions = new Set(['json_extract', 'json_value', 'json_query', 'json_contains', 'json_keys', 'json_unquote', 'json_search', 'json_each', 'json_type', 'jsonb_extract_path', 'jsonb_extract_path_text', 'json_extract_path', 'json_extract_path_text', 'jsonb_path_query', 'jsonb_path_exists', 'json_array_length', 'openjson']);

/** Functions that build a string from character codes or pieces. */
const stringBuilders = new Set(['concat', 'concat_ws', 'group_concat', 'char', 'chr', 'nchar', 'make_set', 'elt', 'export_set', 'unhex', 'string_agg', 'listagg', 'xmlagg']);

/** PostgreSQL type names after `::`. */
const pgTypes = new Set(['text', 'int', 'int4', 'int8', 'integer', 'bigint', 'smallint', 'varchar', 'char', 'numeric', 'double', 'float', 'real', 'regclass', 'oid', 'bool', 'boolean', 'date', 'json', 'jsonb', 'bytea', 'inet', 'xml']);

/** `Int` as a Perl or Ruby package name is capitalized; SQL writes types lower or upper case. */
function capitalized(word: string): boolean {
  return word.length > 1 && word[0]! >= 'A' && word[0]! <= 'Z' && word[1]! >= 'a' && word[1]! <= 'z';
}

/** Types a value is cast to for an error that quotes it. */
const errorCastTypes = new Set(['int', 'int4', 'int8', 'integer', 'bigint', 'smallint', 'numeric', 'regclass', 'oid']);

/** Statement words that may follow a leading `;`. */
const statementStarts = new Set(['select', 'insert', 'update', 'delete', 'drop', 'create', 'alter', 'truncate', 'replace', 'set', 'exec', 'execute', 'declare', 'shutdown', 'grant', 'revoke', 'waitfor', 'load']);

function isHexNumber(r: SqlReader, i: number): boolean {
  const t = r.at(i);
  return t !== undefined && t.type === 'number' && /^0x[0-9a-f]{2,}$/i.test(t.text);
}

/**
 * `name(` where the name is a SQL information function and nothing or only parentheses follow;
 * after `SELECT`, a string builder or a file/timing function cut the same way (`select load_file(`).
 */
function infoProbe(r: SqlReader): FragmentFinding | null {
  let k = 0;
  while (r.is(k, 'lparen')) k++;
  const selected = r.isKeyword(k, 'select');
  if (selected) while (r.is(++k, 'lparen'));
  const t = r.at(k);
  // `select pg_sleep`: a timing or file function only a database has, selected and cut before its
  // parenthesis (`sleep` and `benchmark` are English words and need the call).
  if (selected && t && t.type === 'word' && sqlOnlyFunctionNames.has(t.text) && r.isTerminator(k + 1)) return { rule: 'sqli.blind_function', severity: 2, at: k };
  if (!t || (t.type !== 'word' && t.type !== 'keyword') || !r.is(k + 1, 'lparen')) return null;
  if (!infoFunctions.has(t.text) && !dangerousFunctions.has(t.text) && !(selected && stringBuilders.has(t.text))) return null;
  let j = k + 2;
  while (r.is(j, 'rparen')) j++;
  return r.at(j) === undefined ? { rule: 'sqli.function_probe', severity: 2, at: k } : null;
}

const aliasKeywords = new Set(['user', 'data', 'time', 'schema', 'database', 'index', 'view', 'function', 'default']);

/** The value opens with the end of a select list: a closing token, `AS alias`, `FROM [table]`. */
function selectListTail(r: SqlReader): FragmentFinding | null {
  const first = r.at(0);
  if (!first) return null;
  let k = 0;
  // `) as cc FROM`, `1234 AS "foobar" FROM t`, and (read after an opening backtick) `` ` AS `x` from``.
  if (first.type === 'rparen') while (r.is(k, 'rparen')) k++;
  else if (first.type === 'number' || (first.type === 'word' && first.text === '')) k = 1;
  else return null;
  if (!r.isKeyword(k, 'as')) return null;
  const alias = r.at(k + 1);
  if (!alias) return null;
  // `6 As" from`: the fragment was cut inside a quoted alias.
  if (alias.type === 'string' && !alias.closed) return /^["'`]\s*from\s*$/i.test(alias.text) ? { rule: 'sqli.select_fragment', severity: 2, at: 0 } : null;
  // `) as User from`: a keyword that is a column name often enough to be an alias.
  if (alias.type !== 'word' && alias.type !== 'string' && !(alias.type === 'keyword' && aliasKeywords.has(alias.text))) return null;
  let from = k + 2;
  if (!r.isKeyword(from, 'from')) return null;
  from++;
  // Nothing, a table name, or a table name then a clause; no prose after it (a quoted alias is SQL only).
  if (r.at(from) === undefined || r.isTerminator(from)) return { rule: 'sqli.select_fragment', severity: 2, at: 0 };
  if (r.is(from, 'word') && (alias.type === 'string' || r.at(from + 1) === undefined || r.isTerminator(from + 1) || r.isKeyword(from + 1, 'where', 'order', 'group', 'limit', 'join', 'left', 'inner'))) {
    return { rule: 'sqli.select_fragment', severity: 2, at: 0 };
  }
  return null;
}

/** `;update users`, `; insert into`, `;SET @x`: a separator first, then a statement keyword. */
function leadingStatement(r: SqlReader): FragmentFinding | null {
  let k = 0;
  while (r.is(k, 'string') || r.is(k, 'rparen')) {
    // A closed literal before the `;` is a short token (`'`, `x'`): a quoted sentence is prose.
    const t = r.at(k)!;
    if (t.type === 'string' && (t.text.length > 34 || /\s/.test(t.text))) return null;
    k++;
  }
  if (!r.is(k, 'semicolon')) return null;
  const t = r.at(k + 1);
  if (!t || !(t.type === 'keyword' || t.type === 'word') || !statementStarts.has(t.text)) return null;
  const next = r.at(k + 2);
  // `; select` alone (a JSON key), or a statement keyword and a name, variable or star after it
  // (`;select p`, `;SET @OLD_SQL_MODE`).
  if (!next) return ['select', 'insert', 'update', 'delete', 'drop'].includes(t.text) ? { rule: 'sqli.stacked_query', severity: 2, at: k } : null;
  // (`;set @` alone, a variable without a name, is no statement.)
  // (`;truncate[xx`: MSSQL's bracketed table name, cut before its `]`.)
  if (next.type === 'other' && next.text === '[' && r.is(k + 3, 'word') && r.at(k + 4) === undefined) return { rule: 'sqli.stacked_query', severity: 2, at: k };
  if (!(next.type === 'word' || next.type === 'keyword' || (next.type === 'variable' && /^@@?\w/.test(next.text)) || (next.type === 'operator' && next.text === '*'))) return null;
  return { rule: 'sqli.stacked_query', severity: 2, at: k };
}

/**
 * `FROM \`db\`.\`t\` LIMIT`, `FROM users WHERE name="x";`: the value opens with a FROM clause and
 * goes on with the query's clauses — the application pasted a query's tail. A qualified table, a
 * WHERE comparison, a cut `LIMIT` or a closing `;` are SQL only; `from home order by phone` could be
 * someone's words, so a bare ORDER/GROUP BY tail is suspicious only.
 */
function leadingFrom(r: SqlReader): FragmentFinding | null {
  if (!r.isKeyword(0, 'from') || !r.is(1, 'word')) return null;
  let pos = 2;
  let qualified = false;
  while (r.is(pos, 'dot') && r.is(pos + 1, 'word')) {
    qualified = true;
    pos += 2;
  }
  const tableEnd = pos;
  const info = { end: pos, comparison: false, call: false, subquery: false, dangerous: null, literal: false };
  const end = r.clauses(pos, 0, info);
  if (end < 0) return null;
  const cutLimit = r.isKeyword(end, 'limit') && r.at(end + 1) === undefined;
  if (end === tableEnd && !cutLimit) return null;
  if (!cutLimit && !r.isTerminator(end)) return null;
  const clear = qualified || info.comparison || cutLimit || r.is(end, 'semicolon');
  return { rule: 'sqli.clause_breakout', severity: clear ? 2 : 1, at: 0 };
}

/** `HAVING 1=1`, `having count(id) > 5`: a condition clause that opens the value. */
function leadingClause(r: SqlReader): FragmentFinding | null {
  if (r.isKeyword(0, 'procedure') && r.is(1, 'word', 'analyse')) return { rule: 'sqli.clause_breakout', severity: 2, at: 0 };
  if (!r.isKeyword(0, 'having')) return null;
  const e = r.expression(1);
  // `HAVING 1=`: a probe cut after the comparison operator counts as the comparison.
  const cut = e !== null && r.at(e.end + 1) === undefined && ['=', '<', '>', '<=', '>=', '<>', '!='].includes(r.at(e.end)?.text ?? '');
  return e && (e.comparison || cut) && (r.isTerminator(e.end) || cut) ? { rule: 'sqli.clause_breakout', severity: 2, at: 0 } : null;
}

/**
 * `AND (name = "`, `AND 2771=1709)`, `or 1='`, `|| langCode == '`: the value opens with a logical
 * operator and goes on as a comparison — a condition appended to a WHERE clause. It is clear when
 * the value leaves the comparison open (an unclosed string or parenthesis, an operator at the end),
 * closes the application's parenthesis, or compares two numbers; a complete comparison of names
 * (`and status = open`, an advanced search's syntax) is suspicious only.
 */
function leadingCondition(r: SqlReader): FragmentFinding | null {
  if (!r.isLogical(0)) return null;
  const e = r.expression(1);
  // `||(null!=`, `&&(f =(`: the same cut after a comparison operator, inside a parenthesis the value
  // opened (the group has no end, so the expression above does not read it).
  if (e === null && r.is(1, 'lparen')) {
    let k = 1;
    while (r.is(k, 'lparen')) k++;
    const inner = r.expression(k);
    if (inner && r.is(inner.end, 'operator') && comparisons.has(r.at(inner.end)!.text) && r.tokens.slice(inner.end + 1).every((t) => t.type === 'lparen')) return { rule: 'sqli.boolean', severity: 2, at: 0 };
  }
  const last = r.tokens[r.tokens.length - 1]!;
  // An operator right after the expression, ending the value (`or 120=121=`, `xor 5-`): the probe
  // stops where the query goes on.
  let dangling = e !== null && e.end === r.tokens.length - 1 && last.type === 'operator' && !['~', '!', '?'].includes(last.text);
  // `AND 7639=(`, `and uid!=(`: cut after the comparison and the sub-select's opening parenthesis.
  if (e && r.is(e.end, 'operator') && comparisons.has(r.at(e.end)!.text) && r.is(e.end + 1, 'lparen') && r.tokens.slice(e.end + 1).every((t) => t.type === 'lparen')) dangling = true;
  // `OR 1# `, `or true-- `: a bare literal as the whole condition, then a comment that ends the value.
  if (e && e.literal && r.is(e.end, 'comment') && r.at(e.end)!.text !== '/*' && r.tokens.length === e.end + 1 && /^(?:#|--)(?:\s*)$/.test(r.source.slice(r.at(e.end)!.start))) {
    return { rule: 'sqli.boolean', severity: 2, at: 0 };
  }
  if (!e || !(e.comparison || dangling)) return null;
  const rest = r.at(e.end);
  const lparens = r.tokens.filter((t) => t.type === 'lparen').length;
  const rparens = r.tokens.filter((t) => t.type === 'rparen').length;
  const open = (last.type === 'string' && !last.closed) || lparens > rparens || dangling;
  // `AND deleted = 0)`: the application's parenthesis closed after a comparison with a literal
  // (`|| uc(a) == uc(b))`, a line of C or Perl, compares names).
  const literal = r.tokens.slice(1, e.end).some((t) => t.type === 'number' || t.type === 'string');
  const closesParen = literal && rest?.type === 'rparen' && r.tokens.slice(e.end).every((t) => t.type === 'rparen' || t.type === 'comment');
  const numbers = r.is(1, 'number') && r.is(2, 'operator') && comparisons.has(r.at(2)!.text) && r.is(3, 'number');
  // A cast or a JSON operator (`'{"b":2}'::jsonb <@ '…'`, `-> '$.c' = 7`) is SQL and nothing else
  // (C's `p->x` has no string after the arrow).
  const sqlOnly = r.tokens.some((t, j) => t.type === 'operator' && (sqlOnlyOperators.has(t.text) || (t.text === '->' && r.is(j + 1, 'string'))));
  // `OR (7319=8742)`, `OR '[1,2]' ? '1'`: literals compared with literals, no name anywhere — a
  // tautology or contradiction; a search syntax or a line of code compares names.
  const inside = r.tokens.slice(1, e.end);
  const literalsOnly = inside.filter((t) => t.type === 'number' || t.type === 'string').length >= 2 && inside.every((t) => t.type === 'number' || t.type === 'string' || t.type === 'lparen' || t.type === 'rparen' || (t.type === 'operator' && comparisons.has(t.text)) || (t.type === 'operator' && (t.text === '?' || t.text === '?|' || t.text === '?&')));
  // `OR json_extract('{…}', '$.name') = 'x'`: a database's JSON function.
  const jsonCall = inside.some((t, j) => (t.type === 'word' || t.type === 'keyword') && jsonFunctions.has(t.text) && r.is(j + 2, 'lparen'));
  const cutInString = e.end === r.tokens.length - 1 && last.type === 'string' && !last.closed;
  // `OR '{"name":"asd"}' ?| array['a','name']`: a JSON containment test on a JSON literal — only
  // PostgreSQL reads a string then `?|`, `?&`, `@>`; what follows may be any array syntax.
  if (r.tokens.some((t, j) => j > 0 && j <= e.end && t.type === 'operator' && sqlOnlyOperators.has(t.text) && t.text !== '::' && r.is(j - 1, 'string'))) return { rule: 'sqli.boolean', severity: 2, at: 0 };
  if (rest !== undefined && !r.isTerminator(e.end) && !closesParen && !dangling && !cutInString) return null;
  // A complete comparison of names (`or verbosity < 0 or verbosity > 4`) is how code and
  // documentation write conditions too: no finding.
  return open || closesParen || numbers || sqlOnly || literalsOnly || jsonCall ? { rule: 'sqli.boolean', severity: 2, at: 0 } : null;
}

/** Functions no language but SQL names so (MySQL's set and string helpers, the NULL helpers). */
const sqlOnlyCalls = new Set(['find_in_set', 'group_concat', 'concat_ws', 'ifnull', 'nullif', 'char_length', 'make_set', 'export_set', 'strcmp', 'unhex', 'sysdate', 'substring_index', 'coalesce', 'string_agg', 'listagg']);

/**
 * `, FIND_IN_SET('22', Category )`: the value opens with a comma and a call of a SQL-only function
 * that reads a column, and stops there — one more item of a select list or an ORDER BY the
 * application pastes it into.
 */
function leadingListItem(r: SqlReader): FragmentFinding | null {
  // (`x', FIND_IN_SET(…)`: after a short literal the value closed, as the quoted readings see it.)
  const first = r.at(0);
  const k = first?.type === 'string' && first.closed && first.text.length <= 34 && !/\s/.test(first.text) ? 1 : 0;
  if (!r.is(k, 'comma') || !r.is(k + 2, 'lparen')) return null;
  const name = r.at(k + 1)!;
  if ((name.type !== 'word' && name.type !== 'keyword') || !(sqlOnlyCalls.has(name.text) || jsonFunctions.has(name.text))) return null;
  const e = r.expression(k + 1);
  return e && e.call && r.isTerminator(e.end) ? { rule: 'sqli.fragment', severity: 2, at: k + 1 } : null;
}

/** Comparison words a pattern match is written with; `glob` and `like` are English too. */
const matchWords = new Set(['like', 'rlike', 'regexp', 'glob', 'ilike']);
const sqlOnlyMatchWords = new Set(['rlike', 'regexp', 'ilike']);

/**
 * `) like (`, `` ` REGEXP ``, `name RLIKE '`: the value opens where the application's expression
 * ends (its parenthesis closed, its backtick-quoted column closed, or a bare column name), applies
 * a pattern match and stops at the operand's opening — a parenthesis or the quote the application
 * closes. The query goes on from there; a sentence does not stop on an opened quote after LIKE.
 * `word like '` is how a sentence could be cut while typed (`I like '`), so with LIKE or GLOB after
 * a bare name it is only suspicious.
 */
function cutComparison(r: SqlReader): FragmentFinding | null {
  let k = 0;
  let lead: 'paren' | 'backtick' | 'name';
  if (r.is(0, 'rparen')) {
    lead = 'paren';
    while (r.is(k, 'rparen')) k++;
  } else if (r.is(0, 'word', '') && r.source.startsWith('`')) {
    lead = 'backtick';
    k = 1;
  } else if (r.is(0, 'word')) {
    lead = 'name';
    k = 1;
    while (r.is(k, 'dot') && r.is(k + 1, 'word')) k += 2;
  } else return null;
  if (r.isKeyword(k, 'not')) k++;
  const op = r.at(k);
  if (!op || op.type !== 'keyword' || !matchWords.has(op.text)) return null;
  const rest = r.tokens.slice(k + 1);
  const loneQuote = rest.length === 1 && rest[0]!.type === 'string' && !rest[0]!.closed && rest[0]!.text.length === 1;
  const parens = rest.length > 0 && rest.every((t) => t.type === 'lparen');
  if (lead === 'name') return loneQuote ? { rule: 'sqli.boolean', severity: sqlOnlyMatchWords.has(op.text) ? 2 : 1, at: 0 } : null;
  if (loneQuote || parens || (lead === 'backtick' && rest.length === 0)) return { rule: 'sqli.boolean', severity: 2, at: 0 };
  return null;
}

const sqlOnlyOperators = new Set(['::', '->>', '#>', '#>>', '<@', '@>', '?|', '?&']);

const comparisons = new Set(['=', '==', '<>', '!=', '<', '>', '<=', '>=']);

/** SQL functions a scanner names and opens (`md5(`, `SUBSTRING(`) to see whether the value lands in SQL. */
const probedFunctions = new Set(['cast', 'char', 'chr', 'count', 'floor', 'format', 'now', 'pi', 'replace', 'round', 'lower', 'upper', 'convert', 'ln', 'log', 'minute', 'hour', 'year', 'time', 'values', 'abs', 'left', 'right', 'if', 'date', 'coalesce', 'compress', 'uncompress', 'concat', 'concat_ws', 'group_concat', 'cos', 'sin', 'pow', 'rand', 'decode', 'encode', 'hex', 'unhex', 'ifnull', 'nullif', 'isnull', 'trim', 'rtrim', 'ltrim', 'make_set', 'md5', 'sha1', 'mid', 'ord', 'ascii', 'sysdate', 'strcmp', 'substr', 'substring', 'find_in_set', 'char_length', 'length', 'instr', 'locate', 'lpad', 'rpad']);

/** `md5(`, `SUBSTRING(`: a common SQL function opened and cut, nothing else — a probe, suspicious. */
function functionProbe(r: SqlReader): FragmentFinding | null {
  // `if(1234=`: MySQL's IF opened on a comparison of a number and cut there — a blind probe.
  if (r.isKeyword(0, 'if') && r.is(1, 'lparen') && r.is(2, 'number') && r.is(3, 'operator') && comparisons.has(r.at(3)!.text) && r.at(4) === undefined) {
    return { rule: 'sqli.blind_function', severity: 2, at: 0 };
  }
  // `case when condition1 then result1`: a CASE expression opening the value; it reads as a
  // sentence too (`case when ready then go`), so suspicious only.
  if (r.isKeyword(0, 'case') && r.isKeyword(1, 'when')) {
    const cond = r.expression(2);
    const result = cond && r.isKeyword(cond.end, 'then') ? r.expression(cond.end + 1) : null;
    if (result && (r.isTerminator(result.end) || r.isKeyword(result.end, 'else', 'end', 'when'))) return { rule: 'sqli.fragment', severity: 1, at: 0 };
  }
  const t = r.at(0);
  if (!t || (t.type !== 'word' && t.type !== 'keyword')) return null;
  // (`cOnCaT(`, `uNhEx(`: written in alternating case, which no one searching or coding does — the
  // filter evasion makes the probe clear. `isNull(`, `ifNull(` are camelCase: two flips, not three.)
  if (probedFunctions.has(t.text) && r.is(1, 'lparen') && r.at(2) === undefined) return { rule: 'sqli.function_probe', severity: caseFlips(r.raw(0)) >= 3 ? 2 : 1, at: 0 };
  // `length||(`, `version=(`, `md5\(`, `IN/**/(`: the name, a few punctuation characters (an operator,
  // a comment, an escape), then the parenthesis that ends the value — a scanner's mutation of the
  // same probe. Suspicious only: strict mode blocks it.
  const probe = glued.exec(r.source);
  if (probe && (probedFunctions.has(probe[1]!.toLowerCase()) || probedNames.has(probe[1]!.toLowerCase()))) return { rule: 'sqli.function_probe', severity: 1, at: 0 };
  return null;
}

/** How often the case changes between letters inside a word (`cOnCaT` 5, `isNull` 2, `Concat` 0). */
function caseFlips(word: string): number {
  let flips = 0;
  for (let i = 1; i < word.length; i++) {
    const a = word[i - 1]!;
    const b = word[i]!;
    const aLower = a >= 'a' && a <= 'z';
    const aUpper = a >= 'A' && a <= 'Z';
    // (A capital opening the word, `Concat`, is no flip.)
    if ((aLower && b >= 'A' && b <= 'Z') || (aUpper && i > 1 && b >= 'a' && b <= 'z')) flips++;
  }
  return flips;
}

const glued = /^\s*([A-Za-z_]\w*)[^\w\s(]{0,8}\s?[^\w\s(]{0,4}\($/;
/** More names scanners open that way: date parts, keywords SQL calls like functions, hashing. */
const probedNames = new Set(['insert', 'default', 'elt', 'local', 'quarter', 'day', 'month', 'year', 'password', 'version', 'user', 'length', 'in', 'execute', 'field', 'encode', 'database', 'schema']);

/** Anywhere in the value: shapes that only SQL has. */
function sqlOnlyShapes(r: SqlReader): FragmentFinding | null {
  const tokens = r.tokens;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    const next = tokens[k + 1];
    // A `::` after this token (checked once: most tokens are words followed by words).
    const cast = next !== undefined && next.type === 'operator' && next.text === '::';
    if (t.type === 'keyword' && t.text === 'into' && r.isKeyword(k + 1, 'outfile', 'dumpfile') && r.is(k + 2, 'string')) {
      return { rule: 'sqli.file_write', severity: 2, at: k };
    }
    if (t.type === 'keyword' && (t.text === 'execute' || t.text === 'exec') && r.is(k + 1, 'word', 'immediate') && r.is(k + 2, 'string')) {
      return { rule: 'sqli.stacked_query', severity: 2, at: k };
    }
    if (t.type === 'keyword' && t.text === 'declare' && r.is(k + 1, 'variable') && r.at(k + 1)!.text.startsWith('@') && (k === 0 || r.is(k - 1, 'semicolon'))) {
      return { rule: 'sqli.stacked_query', severity: 2, at: k };
    }
    if (t.type === 'keyword' && (t.text === 'exec' || t.text === 'execute') && r.is(k + 1, 'word') && ['master', 'dbo', 'sys'].includes(r.at(k + 1)!.text) && r.is(k + 2, 'dot')) {
      return { rule: 'sqli.stored_procedure', severity: 2, at: k };
    }
    if (t.type === 'rparen' && r.is(k + 1, 'operator', '::') && r.is(k + 2, 'word') && pgTypes.has(r.at(k + 2)!.text)) {
      return { rule: 'sqli.pg_cast', severity: 2, at: k };
    }
    // `'{"a":1}'::jsonb`: a literal cast to a PostgreSQL type — nothing but SQL writes a string then `::type`.
    if (cast && t.type === 'string' && t.closed && r.is(k + 2, 'word') && pgTypes.has(r.at(k + 2)!.text)) {
      return { rule: 'sqli.pg_cast', severity: 2, at: k };
    }
    // `password::int`, `1+current_user::int`: a column cast to an integer type to raise a conversion
    // error that shows its value. The name opens the value or follows an operator, and the cast ends
    // it (`MooseX::Types::Int`, a Perl package path, chains its names).
    if (cast && t.type === 'word' && (k === 0 || r.is(k - 1, 'operator')) && !r.is(k - 1, 'operator', '::') && r.is(k + 2, 'word') && errorCastTypes.has(r.at(k + 2)!.text) && r.isTerminator(k + 3) && !capitalized(r.raw(k + 2))) {
      return { rule: 'sqli.pg_cast', severity: 2, at: k };
    }
    // `benchmark(5000000, md5(1))`: MySQL's benchmark called with a repeat count (`BENChmARk(2999/**/999,`).
    if (t.type === 'word' && t.text === 'benchmark' && r.is(k + 1, 'lparen') && r.is(k + 2, 'number') && !r.is(k - 1, 'dot') && (r.is(k + 3, 'comma') || (r.is(k + 3, 'number') && r.is(k + 4, 'comma')))) {
      return { rule: 'sqli.blind_function', severity: 2, at: k };
    }
    // `procedure analyse(`: MySQL's clause that reports column types, nothing else names it so.
    if (t.type === 'keyword' && t.text === 'procedure' && r.is(k + 1, 'word', 'analyse') && r.is(k + 2, 'lparen')) {
      return { rule: 'sqli.clause_breakout', severity: 2, at: k };
    }
    // `count(*),concat((select …`: the double-query error technique's select list (with `floor(rand(0)*2)`).
    if (t.type === 'word' && t.text === 'count' && r.is(k + 1, 'lparen') && r.is(k + 2, 'operator', '*') && r.is(k + 3, 'rparen') && r.is(k + 4, 'comma') && r.is(k + 5, 'word') && stringBuilders.has(r.at(k + 5)!.text) && r.is(k + 6, 'lparen') && (r.is(k + 7, 'lparen') || r.isKeyword(k + 7, 'select'))) {
      return { rule: 'sqli.error_based', severity: 2, at: k };
    }
    // `SELECT (CASE`, `(SELECT (CASE WHEN`: sqlmap's boolean probe, a sub-select opening a CASE.
    if (t.type === 'keyword' && t.text === 'select' && r.is(k + 1, 'lparen') && r.isKeyword(k + 2, 'case') && (r.at(k + 3) === undefined || r.isKeyword(k + 3, 'when'))) {
      return { rule: 'sqli.subquery', severity: 2, at: k };
    }
    if ((t.type === 'word' || t.type === 'keyword') && stringBuilders.has(t.text) && r.is(k + 1, 'lparen') && !r.is(k - 1, 'dot')) {
      if (builtFromCodes(r, k + 2)) return { rule: 'sqli.string_function', severity: 2, at: k };
    }
  }
  return null;
}

/**
 * The arguments of a string builder hold a hex literal and a server fact (`concat(0x7e,version())`),
 * or the call is chained with `||` to more character codes (`CHR(113)||CHR(122)`).
 */
function builtFromCodes(r: SqlReader, from: number): boolean {
  let hex = false;
  let fact = false;
  let depth = 1;
  for (let j = from; j < r.tokens.length && j < from + 64 && depth > 0; j++) {
    const t = r.at(j)!;
    if (t.type === 'lparen') depth++;
    else if (t.type === 'rparen') {
      if (--depth === 0 && r.is(j + 1, 'operator', '||') && r.is(j + 2, 'word') && stringBuilders.has(r.at(j + 2)!.text) && r.is(j + 3, 'lparen')) return true;
    } else if (isHexNumber(r, j)) hex = true;
    else if ((t.type === 'word' || t.type === 'keyword') && infoFunctions.has(t.text) && r.is(j + 1, 'lparen')) fact = true;
    else if (t.type === 'variable' && t.text.startsWith('@@')) fact = true;
    else if (t.type === 'keyword' && t.text === 'select') fact = true; // a sub-select: `concat(0x7e,(select …))`
  }
  return hex && fact;
}

/** Comparison words between two literals: SQL's, not a sentence's (`42 like 42`, `'1' not regexp '2'`). */
const sqlComparisonWords = new Set(['like', 'rlike', 'regexp', 'glob', 'ilike']);

function isLiteral(r: SqlReader, i: number): boolean {
  const t = r.at(i);
  return t !== undefined && (t.type === 'number' || (t.type === 'string' && t.closed === true));
}

/** A literal, or a number with its sign (`-1`); returns the index after it, or -1. */
function signedLiteral(r: SqlReader, i: number): number {
  if (r.is(i, 'operator', '-') && r.is(i + 1, 'number')) return i + 2;
  return isLiteral(r, i) ? i + 1 : -1;
}

/**
 * `1=1`, `11!=1`, `b,1=1`, `42 like 42`, `42<=>42`, `1 is not 2`: the whole value (or what follows a
 * leading `name,`) is one literal compared with another so that the condition always holds — a
 * tautology probe.
 * With a SQL comparison word or `<=>` nothing else writes it; with `=`, `!=` or `is` it could be
 * arithmetic or a sentence in a search box, so it is only suspicious (strict mode blocks it).
 */
function literalComparison(r: SqlReader): FragmentFinding | null {
  let k = 0;
  // (`b,1=1`, `'admin', '1'='1'`: after a leading name or literal and a comma, a list's next item.)
  if ((r.is(0, 'word') || isLiteral(r, 0)) && r.is(1, 'comma')) k = 2;
  if (!isLiteral(r, k)) return null;
  let j = k + 1;
  const not = r.isKeyword(j, 'not');
  if (not) j++;
  const op = r.at(j);
  if (!op) return null;
  let strong: boolean;
  // The comparison is negated (`!=`, `not like`, `is not`): true when the literals differ.
  let negated = not;
  if (op.type === 'operator' && !not && ['=', '==', '!=', '<>', '<=>'].includes(op.text)) {
    strong = op.text === '<=>';
    negated = op.text === '!=' || op.text === '<>';
  } else if (op.type === 'keyword' && sqlComparisonWords.has(op.text)) strong = true;
  else if (op.type === 'keyword' && op.text === 'is' && !not) {
    strong = false;
    if (r.isKeyword(j + 1, 'not')) {
      negated = true;
      j++;
    }
  } else return null;
  if (!isLiteral(r, j + 1) || r.at(j + 2) !== undefined) return null;
  // Only an always-true condition is the probe (`1=1`, `11!=1`); `11=1` is a value, a sum, a typo.
  const same = unquoted(r.at(k)!.text) === unquoted(r.at(j + 1)!.text);
  if (same === negated) return null;
  // `'admin', '1'='1'`: quoted literals throughout, a row of SQL values ending in the tautology
  // (a search or a sum does not quote its numbers on both sides of the `=`).
  const quotedRow = k === 2 && [0, k, j + 1].every((x) => r.is(x, 'string'));
  return { rule: 'sqli.boolean', severity: strong || quotedRow ? 2 : 1, at: k };
}

function unquoted(text: string): string {
  return text.length >= 2 && (text[0] === "'" || text[0] === '"') ? text.slice(1, -1) : text;
}

/**
 * `VALUES ('192.168.0.1', 'test')`: an INSERT's row of literals as the whole value — SQL only. `in (0,1)`,
 * `IN (815914, 815913)`: a list of numbers after IN, which is also how mathematics writes an
 * interval, so only suspicious.
 */
function literalRow(r: SqlReader): FragmentFinding | null {
  if (!r.isKeyword(0, 'values', 'in') || !r.is(1, 'lparen')) return null;
  let k = 2;
  let count = 0;
  for (let next = signedLiteral(r, k); next > 0; next = signedLiteral(r, k)) {
    count++;
    k = next;
    if (!r.is(k, 'comma')) break;
    k++;
  }
  if (count < 2 || !r.is(k, 'rparen') || r.at(k + 1) !== undefined) return null;
  return r.isKeyword(0, 'values') ? { rule: 'sqli.fragment', severity: 2, at: 0 } : { rule: 'sqli.fragment', severity: 1, at: 0 };
}

const scientificGate = /\d\.e[.(]/i;

/** Names a `1.e(` or `1.e.` may lead to: functions, catalog tables, keywords. */
const scientificTargets = new Set(['tables', 'columns', 'schemata', 'user', 'ascii', 'substring', 'substr', 'mid', 'char', 'concat', 'version', 'database', 'length', 'select', 'sleep', 'hex', 'ord']);

/**
 * `1.e(ascii`, `1.e.tables`: MySQL reads `1.e` as the number 1 and the rest as if no space stood
 * there, a known way past filters that look for `ascii(` or `.tables` after a name. Outline
 * numbering (`1.e.(ii)`) has no SQL name after it.
 */
function scientificNotationBypass(r: SqlReader): FragmentFinding | null {
  if (!scientificGate.test(r.source)) return null;
  for (let k = 0; k + 3 < r.tokens.length; k++) {
    const t = r.at(k)!;
    if (!(t.type === 'word' && /^\d+$/.test(t.text)) || !r.is(k + 1, 'dot') || !r.is(k + 2, 'word', 'e')) continue;
    const e = r.at(k + 2)!;
    const next = r.at(k + 3)!;
    if (next.start !== e.start + 1 || !(next.type === 'lparen' || next.type === 'dot')) continue;
    const name = r.at(k + 4);
    if (name && (name.type === 'word' || name.type === 'keyword') && scientificTargets.has(name.text)) return { rule: 'sqli.obfuscation', severity: 2, at: k };
  }
  return null;
}

/**
 * `` ` < 0) AND ` ``: read after the backtick the application opened around an identifier, the value
 * closes it, compares the column with a literal, closes the application's parenthesis, adds a
 * logical operator and opens a new backtick-quoted name for the application's closing backtick —
 * a condition spliced into a query that quotes column names (an ORDER BY or filter builder).
 * Markdown code in a sentence starts with a backtick and a word, not with a closed empty name and a
 * comparison.
 */
function backtickBreakout(r: SqlReader): FragmentFinding | null {
  if (!r.is(0, 'word', '') || !r.source.startsWith('``')) return null;
  const e = r.expression(0);
  if (!e || !e.comparison || !r.tokens.slice(1, e.end).some((t) => t.type === 'number' || t.type === 'string')) return null;
  let pos = e.end;
  while (r.is(pos, 'rparen')) pos++;
  if (pos === e.end || !r.isLogical(pos)) return null;
  const rest = r.tokens.slice(pos + 1);
  const reopened = rest.length === 1 && rest[0]!.type === 'other' && r.source[rest[0]!.start] === '`' && rest[0]!.start === r.source.length - 1;
  return reopened || r.isTerminator(pos + 1) ? { rule: 'sqli.boolean', severity: 2, at: 0 } : null;
}

/** A string literal holding a JSON document (`'{"a":1}'`, `'[1,2]'`). */
const jsonDocumentLiteral = /^(['"])\s*[[{][^]*\1$/;
/** A string literal holding a JSON path (`'$.c[2].f'`, `'$[0]'`, `'$'`). */
const jsonPathLiteral = /^(['"])\$(?:[.[][^]*)?\1$/;

/**
 * `'{"a":2,"c":[4,5,{"f":7}]}' < '$.c[2].f' = 7`: a JSON document written as a literal and compared
 * with a JSON path, the way the JSON-syntax WAF bypass builds a condition that filters reading
 * `1=1` do not know (MySQL, PostgreSQL and SQLite read JSON in SQL). The whole value is one
 * expression of literals and operators only; code compares a document with a path nowhere else.
 */
function jsonPathComparison(r: SqlReader): FragmentFinding | null {
  const first = r.at(0);
  if (!first || first.type !== 'string' || !first.closed || !jsonDocumentLiteral.test(first.text)) return null;
  const e = r.expression(0);
  if (!e || !e.comparison || !r.isTerminator(e.end)) return null;
  const inside = r.tokens.slice(0, e.end);
  const literalsOnly = inside.every((t) => t.type === 'string' || t.type === 'number' || t.type === 'operator' || t.type === 'lparen' || t.type === 'rparen');
  const path = inside.some((t) => t.type === 'string' && t.closed === true && jsonPathLiteral.test(t.text));
  return literalsOnly && path ? { rule: 'sqli.boolean', severity: 2, at: 0 } : null;
}

/** The first fragment shape in the bare reading of a value. */
export function sqlFragment(r: SqlReader): FragmentFinding | null {
  return infoProbe(r) ?? selectListTail(r) ?? leadingStatement(r) ?? leadingClause(r) ?? leadingFrom(r) ?? leadingCondition(r) ?? cutComparison(r) ?? leadingListItem(r) ?? sqlOnlyShapes(r) ?? literalComparison(r) ?? literalRow(r) ?? scientificNotationBypass(r) ?? jsonPathComparison(r) ?? backtickBreakout(r) ?? functionProbe(r) ?? divisionCall(r) ?? selectAfterQuote(r) ?? strictFragment(r) ?? starFromAfterQuote(r);
}
