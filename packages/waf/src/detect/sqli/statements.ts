import type { SqlReader } from './grammar.ts';

/**
 * Statements an attacker stacks after `;`: each must look like the real thing (`DROP TABLE x`,
 * `EXEC xp_cmdshell …`, `WAITFOR DELAY '0:0:5'`, a `SELECT` with a FROM or a call), so that prose
 * with a semicolon (`drop me a line; or 1 more`) does not read as a second statement.
 * Returns the statement's name, or null.
 */
const droppable = ['table', 'database', 'view', 'function', 'procedure', 'user', 'index', 'trigger', 'schema'];

export function stackedStatement(r: SqlReader, i: number): string | null {
  const t = r.at(i);
  if (!t) return null;
  const name = (j: number): boolean => r.is(j, 'word') || r.is(j, 'variable');
  switch (t.type === 'keyword' || t.type === 'word' ? t.text : '') {
    case 'select': {
      const s = r.select(i);
      return s && (s.call || s.subquery || hasFrom(r, i, s.end)) && r.isTerminator(s.end) ? 'select' : null;
    }
    case 'insert':
      return r.isKeyword(i + 1, 'into') && name(i + 2) ? 'insert' : null;
    case 'update':
      return name(i + 1) && r.isKeyword(i + 2, 'set') ? 'update' : null;
    case 'delete':
      return r.isKeyword(i + 1, 'from') && name(i + 2) ? 'delete' : null;
    case 'drop':
    case 'create':
    case 'alter':
      return r.isKeyword(i + 1, ...droppable) && (name(i + 2) || r.is(i + 2, 'keyword', 'if')) ? t.text : null;
    case 'truncate':
      return name(i + 1) || (r.isKeyword(i + 1, 'table') && name(i + 2)) ? 'truncate' : null;
    case 'exec':
    case 'execute':
      // A stored procedure (xp_cmdshell, sp_executesql, master.dbo.x) or a dynamic string: `exec noun` is prose.
      // (`EXEC(@q)`: T-SQL runs the string in a variable; PHP's `exec($cmd)` names no `@` variable.)
      if (r.is(i + 1, 'lparen') && r.is(i + 2, 'variable') && r.at(i + 2)!.text.startsWith('@') && r.is(i + 3, 'rparen')) return 'exec';
      return r.is(i + 1, 'variable') || (name(i + 1) && (/^(xp|sp)_/.test(r.at(i + 1)!.text) || r.is(i + 2, 'dot'))) ? 'exec' : null;
    case 'copy':
      return copyStatement(r, i) ? 'copy' : null;
    case 'bulk':
      // MSSQL's `BULK INSERT t FROM 'file'`: a table loaded from a file on the server.
      return r.isKeyword(i + 1, 'insert') && name(i + 2) && r.isKeyword(i + 3, 'from') && r.is(i + 4, 'string') ? 'bulk insert' : null;
    case 'declare':
      return r.is(i + 1, 'variable') && (r.is(i + 2, 'word') || r.is(i + 2, 'keyword')) ? 'declare' : null;
    case 'waitfor':
      return r.isKeyword(i + 1, 'delay', 'time') && r.is(i + 2, 'string') ? 'waitfor' : null;
    case 'shutdown':
      return r.isTerminator(i + 1) || (r.isKeyword(i + 1, 'with') && r.is(i + 2, 'word', 'nowait')) ? 'shutdown' : null;
    case 'grant':
    case 'revoke':
      return r.is(i + 1, 'word') || r.isKeyword(i + 1, 'all') ? t.text : null;
    case 'set':
      return r.is(i + 1, 'variable') && r.is(i + 2, 'operator') ? 'set' : null;
    case 'call':
      return name(i + 1) && r.is(i + 2, 'lparen') ? 'call' : null;
    case 'load':
      return r.isKeyword(i + 1, 'data') && r.isKeyword(i + 2, 'infile') ? 'load data' : null;
    default:
      return null;
  }
}

/**
 * PostgreSQL's `COPY t TO '/path'`, `COPY (SELECT …) TO PROGRAM 'cmd'`: a table or query written to a
 * server file or piped to a shell command. The target is one table name (a column list allowed) or
 * a parenthesized SELECT, then TO/FROM and PROGRAM or a path — `copy the file to 'x'` is a sentence.
 */
function copyStatement(r: SqlReader, i: number): boolean {
  let j = i + 1;
  if (r.is(j, 'lparen') && r.isKeyword(j + 1, 'select')) {
    const sel = r.select(j + 1);
    if (!sel || !r.is(sel.end, 'rparen')) return false;
    j = sel.end + 1;
  } else if (r.is(j, 'word')) {
    j++;
    while (r.is(j, 'dot') && r.is(j + 1, 'word')) j += 2;
    if (r.is(j, 'lparen')) {
      j++;
      while (r.is(j, 'word') && r.is(j + 1, 'comma')) j += 2;
      if (!r.is(j, 'word') || !r.is(j + 1, 'rparen')) return false;
      j += 2;
    }
  } else return false;
  if (!(r.is(j, 'word', 'to') || r.isKeyword(j, 'from'))) return false;
  if (r.is(j + 1, 'word', 'program') && r.is(j + 2, 'string')) return true;
  const target = r.at(j + 1);
  return target !== undefined && target.type === 'string' && /^['"](?:\/|[a-z]:\\|\\\\)/i.test(target.text);
}

function hasFrom(r: SqlReader, from: number, to: number): boolean {
  for (let j = from; j < to; j++) if (r.isKeyword(j, 'from')) return true;
  return false;
}
