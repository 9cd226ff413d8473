import type { Token } from './tokenize.ts';

/**
 * A small recursive-descent reader of SQL expressions and statements over the token stream.
 * It does not build a tree: it answers "does a plausible piece of SQL start here, where does it
 * end, and what did it contain" (a comparison, a function call, a sub-select, a dangerous
 * function). Prose fails it quickly: `select the best option from our union` is not a select
 * list, because three bare words in a row are not an expression with an alias.
 */
export interface ExprInfo {
  /** Index after the expression. */
  end: number;
  comparison: boolean;
  call: boolean;
  subquery: boolean;
  /** A time-based or out-of-band function: sleep, benchmark, pg_sleep, … (name). */
  dangerous: string | null;
  /** A single literal (`1`, `'a'`, `true`): a degenerate condition, `or 1--`. */
  literal: boolean;
}

/** Functions an injection calls for blind timing, file access or out-of-band exfiltration. */
export const dangerousFunctions = new Set([
  'sleep', 'benchmark', 'pg_sleep', 'pg_sleep_for', 'randomblob', 'load_file', 'extractvalue', 'updatexml',
  'sys_eval', 'sys_exec', 'xp_cmdshell', 'xp_dirtree', 'xp_fileexist', 'get_host_address', 'receive_message',
  'dbms_pipe', 'utl_inaddr', 'utl_http', 'lo_import', 'lo_export', 'lo_get', 'lo_put', 'pg_read_file', 'pg_read_binary_file', 'pg_ls_dir',
  'name_const', 'gtid_subset',
  'fn_varbintohexstr', 'openrowset', 'opendatasource', 'dbms_xmlgen', 'xmltype', 'ctxsys', 'sp_executesql',
]);

/** Qualifiers that make `x.f(…)` a database call: MSSQL's master..dbo, PostgreSQL's pg_catalog, … */
const sqlSchemas = new Set(['master', 'dbo', 'sys', 'pg_catalog', 'mysql', 'information_schema', 'public', 'sysibm', 'ctxsys', 'dbms_lock', 'dbms_pipe', 'utl_inaddr', 'utl_http']);

/** Words SQL uses as functions although they are keywords (`if(`, `left(`, `replace(`, …). */
const keywordFunctions = new Set(['glob', 'similar', 'if', 'left', 'right', 'replace', 'insert', 'database', 'user', 'schema', 'mod', 'binary', 'values', 'char', 'time', 'exists', 'default', 'interval', 'collate']);

const comparisonOperators = new Set(['=', '==', '<>', '!=', '<', '>', '<=', '>=', '<=>', '!<', '!>', '<@', '@>', '?', '?|', '?&']);
const comparisonKeywords = new Set(['like', 'rlike', 'regexp', 'is', 'in', 'between', 'sounds', 'glob', 'ilike', 'similar']);
/** Keywords tables use as column names (`data`, `user`, `time`): read as names where an operand is due. */
const columnKeywords = new Set(['data', 'user', 'time', 'schema', 'rows', 'lines']);
/** Postfix tests (SQLite, PostgreSQL): `email notnull`. */
const postfixComparisons = new Set(['notnull', 'isnull']);
export const logicalKeywords = new Set(['and', 'or', 'xor']);
/** Oracle packages whose calls wait, or reach the network (blind and out-of-band injections). */
const oraclePackages = new Set(['dbms_pipe', 'utl_inaddr', 'utl_http', 'dbms_lock']);
const maxDepth = 24;

export class SqlReader {
  readonly tokens: readonly Token[];
  /** The tokenized text, when the caller has it: for checks on a word's original case. */
  readonly source: string;
  constructor(tokens: readonly Token[], source = '') {
    this.tokens = tokens;
    this.source = source;
  }

  /** The token's text as written (words and keywords are lower-cased in `text`). */
  raw(i: number): string {
    const t = this.tokens[i];
    return t === undefined ? '' : this.source ? this.source.slice(t.start, t.start + t.text.length) : t.text;
  }

  at(i: number): Token | undefined {
    return this.tokens[i];
  }

  is(i: number, type: Token['type'], text?: string): boolean {
    const t = this.tokens[i];
    return t !== undefined && t.type === type && (text === undefined || t.text === text);
  }

  isKeyword(i: number, ...words: string[]): boolean {
    const t = this.tokens[i];
    return t !== undefined && t.type === 'keyword' && words.includes(t.text);
  }

  /** End of input, a comment running to the end, or a statement separator. */
  isTerminator(i: number): boolean {
    const t = this.tokens[i];
    return t === undefined || t.type === 'comment' || t.type === 'semicolon';
  }

  isLogical(i: number): boolean {
    const t = this.tokens[i];
    return t !== undefined && ((t.type === 'keyword' && logicalKeywords.has(t.text)) || (t.type === 'operator' && (t.text === '||' || t.text === '&&')));
  }

  /** An expression (with binary operators, logic and comparisons), or null when none starts at `i`. */
  expression(i: number, depth = 0): ExprInfo | null {
    const info: ExprInfo = { end: i, comparison: false, call: false, subquery: false, dangerous: null, literal: false };
    let operands = 0;
    let pos = i;
    for (;;) {
      const operand = this.operand(pos, depth, info);
      if (operand < 0) return operands === 0 ? null : info;
      operands++;
      pos = operand;
      // PostgreSQL casts: `'{}'::jsonb`, `x::double precision`.
      while (this.is(pos, 'operator', '::') && (this.is(pos + 1, 'word') || this.is(pos + 1, 'keyword'))) pos += this.is(pos + 2, 'word', 'precision') ? 3 : 2;
      while (this.isKeyword(pos, ...postfixComparisons)) {
        info.comparison = true;
        pos++;
      }
      info.end = pos;
      const op = this.binaryOperator(pos, info);
      if (op < 0) break;
      pos = op;
    }
    info.literal = info.literal && operands === 1;
    return info;
  }

  /** After an operand: the index past a binary operator, or -1. */
  private binaryOperator(i: number, info: ExprInfo): number {
    const t = this.tokens[i];
    if (!t) return -1;
    if (t.type === 'operator') {
      if (comparisonOperators.has(t.text)) info.comparison = true;
      // `~` and `!` are unary, except before a quantified sub-select: PostgreSQL's `email ~ all(array[…])`,
      // a regular-expression match against every element — a comparison.
      if (t.text === '~' || t.text === '!') {
        if (!(this.isKeyword(i + 1, 'all', 'any', 'some') && this.is(i + 2, 'lparen'))) return -1;
        if (t.text === '~') info.comparison = true;
        return i + 1;
      }
      return i + 1;
    }
    if (t.type !== 'keyword') return -1;
    if (logicalKeywords.has(t.text) || t.text === 'div' || t.text === 'mod' || t.text === 'collate' || t.text === 'escape') return i + 1;
    let j = i;
    if (t.text === 'not' && this.at(i + 1)?.type === 'keyword' && comparisonKeywords.has(this.at(i + 1)!.text)) j++;
    const k = this.tokens[j]!;
    if (!comparisonKeywords.has(k.text)) return -1;
    info.comparison = true;
    if ((k.text === 'sounds' && this.isKeyword(j + 1, 'like')) || (k.text === 'similar' && this.is(j + 1, 'word', 'to'))) return j + 2;
    if (k.text === 'is' && this.isKeyword(j + 1, 'not')) return j + 2;
    return j + 1;
  }

  /** One operand with its unary prefixes; returns the index after it or -1. */
  private operand(i: number, depth: number, info: ExprInfo): number {
    if (depth > maxDepth) return -1;
    let pos = i;
    while (this.is(pos, 'operator', '-') || this.is(pos, 'operator', '+') || this.is(pos, 'operator', '~') || this.is(pos, 'operator', '!') || this.isKeyword(pos, 'not', 'binary', 'distinct')) pos++;
    const t = this.tokens[pos];
    if (!t) return -1;
    // `?`, a bind placeholder, where an operand is due (`id is not ?`, `or ?`).
    if (t.type === 'operator' && t.text === '?' && pos === i) {
      info.literal = true;
      return pos + 1;
    }
    switch (t.type) {
      case 'number':
      case 'string':
      case 'variable': {
        info.literal = pos === i || info.literal;
        let end = pos + 1;
        while (t.type === 'string' && this.is(end, 'string')) end++; // 'a' 'b' concatenates
        return end;
      }
      case 'lparen': {
        if (this.isKeyword(pos + 1, 'select')) {
          const sel = this.select(pos + 1, depth + 1);
          if (!sel) return -1;
          info.subquery = true;
          info.call ||= sel.call;
          info.dangerous ??= sel.dangerous;
          return this.is(sel.end, 'rparen') ? sel.end + 1 : this.isTerminator(sel.end) ? sel.end : -1;
        }
        const inner = this.expressionList(pos + 1, depth + 1, info);
        if (inner < 0) return -1;
        return this.is(inner, 'rparen') ? inner + 1 : this.isTerminator(inner) ? inner : -1;
      }
      case 'keyword':
        return this.keywordOperand(pos, depth, info);
      case 'word':
        return this.nameOrCall(pos, depth, info);
      default:
        return -1;
    }
  }

  private keywordOperand(pos: number, depth: number, info: ExprInfo): number {
    const t = this.tokens[pos]!;
    if (t.text === 'null' || t.text === 'true' || t.text === 'false' || t.text === 'unknown' || t.text === 'default') {
      info.literal = true;
      return pos + 1;
    }
    if (t.text === 'case') {
      // CASE … END: read through to the matching END, bounded.
      let level = 0;
      for (let j = pos; j < this.tokens.length && j < pos + 512; j++) {
        if (this.isKeyword(j, 'case')) level++;
        else if (this.isKeyword(j, 'end') && --level === 0) {
          info.call = true;
          return j + 1;
        }
      }
      return -1;
    }
    if ((t.text === 'exists' || t.text === 'all' || t.text === 'any' || t.text === 'some') && this.is(pos + 1, 'lparen')) return this.operand(pos + 1, depth + 1, info);
    if (t.text === 'interval') {
      const inner = this.expression(pos + 1, depth + 1);
      return inner && this.is(inner.end, 'word') ? inner.end + 1 : -1;
    }
    if (t.text === 'select' && depth > 0) return -1;
    if (keywordFunctions.has(t.text) && this.is(pos + 1, 'lparen')) return this.nameOrCall(pos, depth, info);
    // `json_extract(data, '$.a')`, `where user = 'x'`: keywords that are column names as often.
    if (columnKeywords.has(t.text) && !this.is(pos + 1, 'lparen')) return pos + 1;
    return -1;
  }

  /** `name`, `a.b.c`, `f(args)`, `schema.f(args)`. */
  private nameOrCall(pos: number, depth: number, info: ExprInfo): number {
    let end = pos + 1;
    const first = this.tokens[pos]!.text;
    // (An array only for a dotted name: `a(a(a(…` reaches here once per parenthesis.)
    let dotted: string[] | null = null;
    while (this.is(end, 'dot') && (this.is(end + 1, 'word') || this.is(end + 1, 'keyword') || this.is(end + 1, 'operator', '*'))) {
      (dotted ??= [first]).push(this.tokens[end + 1]!.text);
      end += 2;
    }
    // PostgreSQL's subscript glued to the name: `array[id]`, `tags[1]` (a `[x]` after a blank is an alias).
    const last = this.tokens[end - 1]!;
    if (this.source && this.is(end, 'word') && this.source[this.tokens[end]!.start] === '[' && this.tokens[end]!.start === last.start + last.text.length) end++;
    if (!this.is(end, 'lparen')) return end;
    info.call = true;
    if (this.is(end + 1, 'rparen')) return end + 2; // `sleep()` without an argument does nothing
    const name = dotted ? dotted[dotted.length - 1]! : first;
    // `readelf.exp(…)` in a changelog is not SQL: a qualified name counts only with a database schema.
    const sqlQualifier = dotted === null || dotted.slice(0, -1).every((p) => sqlSchemas.has(p));
    const oraclePackage = dotted ? dotted.some((p) => oraclePackages.has(p)) : oraclePackages.has(first);
    if ((dangerousFunctions.has(name) && sqlQualifier) || oraclePackage) info.dangerous ??= dotted ? dotted.join('.') : first;
    if (this.is(end + 1, 'operator', '*') && (this.is(end + 2, 'rparen') || this.at(end + 2) === undefined)) return end + 3; // count(*)
    const args = this.expressionList(end + 1, depth + 1, info);
    if (args < 0) return -1;
    // `convert(x USING utf8)`, `cast(x AS char)`, `extract(year FROM d)`: one more word or two.
    let close = args;
    for (let k = 0; k < 3 && !this.is(close, 'rparen') && !this.isTerminator(close); k++) {
      if (!(this.is(close, 'keyword') || this.is(close, 'word') || this.is(close, 'number'))) return -1;
      close++;
    }
    return this.is(close, 'rparen') ? close + 1 : this.isTerminator(close) ? close : -1;
  }

  /** `e, e, e` (also `select` inside parentheses); returns the index after the list or -1. */
  private expressionList(i: number, depth: number, info: ExprInfo): number {
    let pos = i;
    for (;;) {
      let e: ExprInfo | null;
      if (this.isKeyword(pos, 'select')) {
        e = this.select(pos, depth + 1);
        if (e) info.subquery = true;
      } else e = this.expression(pos, depth + 1);
      if (!e) return -1;
      info.comparison ||= e.comparison;
      info.call ||= e.call;
      info.subquery ||= e.subquery;
      info.dangerous ??= e.dangerous;
      pos = e.end;
      if (!this.is(pos, 'comma')) return pos;
      pos++;
    }
  }

  /** An optional alias: `AS x`, `x`, `'x'`. */
  private alias(i: number): number {
    if (this.isKeyword(i, 'as')) return this.is(i + 1, 'word') || this.is(i + 1, 'string') ? i + 2 : -1;
    return this.is(i, 'word') ? i + 1 : i;
  }

  /**
   * `SELECT [ALL|DISTINCT|TOP n] list [FROM refs] [WHERE e] [GROUP BY l] [HAVING e] [ORDER BY l]
   * [LIMIT n] [INTO OUTFILE s]`, starting at the SELECT token.
   */
  select(i: number, depth = 0): ExprInfo | null {
    if (!this.isKeyword(i, 'select') || depth > maxDepth) return null;
    const info: ExprInfo = { end: i, comparison: false, call: false, subquery: false, dangerous: null, literal: false };
    let pos = i + 1;
    while (this.isKeyword(pos, 'all', 'distinct')) pos++;
    if (this.isKeyword(pos, 'top') && this.is(pos + 1, 'number')) pos += 2;
    // The select list.
    for (;;) {
      if (this.is(pos, 'operator', '*')) pos++;
      else {
        const e = this.expression(pos, depth + 1);
        if (!e) return null;
        merge(info, e);
        pos = this.alias(e.end);
        if (pos < 0) return null;
      }
      if (!this.is(pos, 'comma')) break;
      pos++;
    }
    if (this.isKeyword(pos, 'from')) {
      pos = this.tableRefs(pos + 1, depth, info);
      if (pos < 0) return null;
    }
    pos = this.clauses(pos, depth, info);
    if (pos < 0) return null;
    info.end = pos;
    return info;
  }

  private tableRefs(i: number, depth: number, info: ExprInfo): number {
    let pos = i;
    // A value cut right after FROM (`union select col from`) is still the start of a query.
    if (this.at(pos) === undefined) return pos;
    for (;;) {
      if (this.is(pos, 'lparen') && this.isKeyword(pos + 1, 'select')) {
        const sub = this.select(pos + 1, depth + 1);
        if (!sub || !this.is(sub.end, 'rparen')) return -1;
        merge(info, sub);
        info.subquery = true;
        pos = sub.end + 1;
      } else if (this.is(pos, 'word') || this.isKeyword(pos, 'user', 'database', 'schema', 'data')) {
        pos++;
        while (this.is(pos, 'dot') && (this.is(pos + 1, 'word') || this.is(pos + 1, 'keyword'))) pos += 2;
        if (this.is(pos, 'lparen')) return -1;
      } else return -1;
      pos = this.alias(pos);
      if (pos < 0) return -1;
      if (this.is(pos, 'comma')) {
        pos++;
        continue;
      }
      let join = pos;
      while (this.isKeyword(join, 'inner', 'outer', 'left', 'right', 'cross', 'natural')) join++;
      if (!this.isKeyword(join, 'join')) return pos;
      pos = join + 1;
      const next = this.tableRefs(pos, depth + 1, info);
      if (next < 0) return -1;
      pos = next;
      if (this.isKeyword(pos, 'on')) {
        const cond = this.expression(pos + 1, depth + 1);
        if (!cond) return -1;
        pos = cond.end;
      }
      return pos;
    }
  }

  /** WHERE / GROUP BY / HAVING / ORDER BY / LIMIT / INTO OUTFILE / PROCEDURE after a select. */
  clauses(i: number, depth: number, info: ExprInfo): number {
    let pos = i;
    for (let guard = 0; guard < 8; guard++) {
      if (this.isKeyword(pos, 'where', 'having')) {
        const e = this.expression(pos + 1, depth + 1);
        if (!e) return -1;
        merge(info, e);
        pos = e.end;
      } else if (this.isKeyword(pos, 'group', 'order') && this.isKeyword(pos + 1, 'by')) {
        const end = this.expressionList(pos + 2, depth + 1, info);
        if (end < 0) return -1;
        pos = end;
        while (this.isKeyword(pos, 'asc', 'desc')) pos++;
      } else if (this.isKeyword(pos, 'limit', 'offset') && (this.is(pos + 1, 'number') || this.is(pos + 1, 'variable'))) {
        pos += 2;
        if (this.is(pos, 'comma') && this.is(pos + 1, 'number')) pos += 2;
      } else if (this.isKeyword(pos, 'into') && this.isKeyword(pos + 1, 'outfile', 'dumpfile') && this.is(pos + 2, 'string')) {
        info.dangerous ??= 'into ' + this.tokens[pos + 1]!.text;
        pos += 3;
      } else if (this.isKeyword(pos, 'into') && this.is(pos + 1, 'variable')) {
        // MySQL's `INTO @a, @b`: the row kept in session variables (an error-free probe of the column count).
        pos += 2;
        while (this.is(pos, 'comma') && this.is(pos + 1, 'variable')) pos += 2;
      } else if (this.isKeyword(pos, 'procedure') && this.is(pos + 1, 'word')) {
        const e = this.expression(pos + 1, depth + 1);
        if (!e) return -1;
        pos = e.end;
      } else if (this.isKeyword(pos, 'union')) {
        let s = pos + 1;
        if (this.isKeyword(s, 'all', 'distinct')) s++;
        const next = this.select(s, depth + 1);
        if (!next) return -1;
        merge(info, next);
        pos = next.end;
      } else return pos;
    }
    return pos;
  }
}

function merge(into: ExprInfo, from: ExprInfo): void {
  into.comparison ||= from.comparison;
  into.call ||= from.call;
  into.subquery ||= from.subquery;
  into.dangerous ??= from.dangerous;
}
