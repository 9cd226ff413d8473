import { describe, expect, it } from 'vitest';
import { decodedVariants } from '../src/decode/variants.ts';
import { detectSqliAt, detectSqliValue } from '../src/detect/sqli/index.ts';
import { tokenizeSql } from '../src/detect/sqli/tokenize.ts';
import { sqliAttacks, sqliBenign } from './fixtures/sqli.ts';

const types = (text: string, backslash = true): string[] => tokenizeSql(text, 100, backslash).tokens.map((t) => `${t.type}:${t.text}`);

describe('SQL tokenizer', () => {
  it('reads strings in every quote style with their escapes', () => {
    expect(types("'it''s' \"a\\\"b\" `col` [x y]")).toEqual(["string:'it''s'", 'string:"a\\"b"', 'word:col', 'word:x y']);
    expect(tokenizeSql("'open").tokens[0]).toMatchObject({ type: 'string', closed: false });
  });
  it('treats backslash as a plain character in standard SQL mode', () => {
    expect(tokenizeSql("'a\\' or 1=1", 100, false).tokens.map((t) => t.type)).toEqual(['string', 'keyword', 'number', 'operator', 'number']);
  });
  it('reads numbers including hex, binary and exponents; digits glued to letters are names', () => {
    expect(types("1 1.5 .5 1e5 0x1F 0b101 x'ff' 1st")).toEqual(['number:1', 'number:1.5', 'number:.5', 'number:1e5', 'number:0x1F', 'number:0b101', "number:x'ff'", 'word:1st']);
  });
  it('handles comments: --, #, /* */ and MySQL executable /*! */', () => {
    expect(types('1 -- rest')).toEqual(['number:1', 'comment:--']);
    expect(types('1 # rest')).toEqual(['number:1', 'comment:#']);
    const stream = tokenizeSql('UNION/**/SELECT');
    expect(stream.tokens.map((t) => t.text)).toEqual(['union', 'select']);
    expect(stream.inlineComments).toBe(true);
    const exec = tokenizeSql('/*!50000UNION*/ /*!SELECT*/ 1');
    expect(exec.tokens.map((t) => t.text)).toEqual(['union', 'select', '1']);
    expect(exec.executableComments).toBe(true);
  });
  it('reads operators, variables and punctuation', () => {
    expect(types('@@version <=> :x || a.b;')).toEqual(['variable:@@version', 'operator:<=>', 'variable::x', 'operator:||', 'word:a', 'dot:.', 'word:b', 'semicolon:;']);
  });
});

describe('SQL injection detector', () => {
  // The strongest finding over all readings, as the pipeline would block on it.
  const detect = (value: string) =>
    decodedVariants(value, 'query')
      .map(detectSqliValue)
      .reduce((best, h) => (h && (!best || h.severity > best.severity) ? h : best), null as ReturnType<typeof detectSqliValue>);

  it.each(sqliAttacks)('blocks %s', (attack) => {
    expect(detect(attack)).toMatchObject({ kind: 'sqli', severity: 2 });
  });

  it.each(sqliBenign)('passes %s', (text) => {
    expect(detect(text)).toBeNull();
  });

  it('names the technique', () => {
    expect(detectSqliValue("' or 1=1--")?.rule).toBe('sqli.boolean');
    expect(detectSqliValue('1 union select 1,2')?.rule).toBe('sqli.union_select');
    expect(detectSqliValue("1; drop table users")?.rule).toBe('sqli.stacked_query');
    expect(detectSqliValue('1 and sleep(5)')?.rule).toBe('sqli.blind_function');
    expect(detectSqliValue("admin'--")?.rule).toBe('sqli.comment_truncation');
  });

  it('blocks a whole statement as a parameter; a post that shows one in its prose or code passes', () => {
    expect(detectSqliValue('SELECT name FROM users WHERE id = 1')).toMatchObject({ rule: 'sqli.statement', severity: 2 });
    expect(detectSqliAt('DELETE FROM users;--', 'header')).toMatchObject({ severity: 2 });
    const post = 'I keep hitting the same slow query on our reporting box every morning and cannot see why it takes so long.\n\nSELECT name FROM users WHERE id = 1\n\nThe table has an index on id, and the plan shows a full scan anyway. Any ideas what to look at next?';
    expect(detectSqliAt(post, 'body')).toBeNull();
    expect(detectSqliAt(post.replace('SELECT name FROM users WHERE id = 1', '```sql\nSELECT name FROM users WHERE id = 1\n```'), 'body')).toBeNull();
  });

  it('blocks a statement whose only Markdown look is MySQL backtick-quoted names; a sentence around it stays a post', () => {
    const ddl = "ALTER TABLE `mass_mails` CHANGE `receivers` `receivers` ENUM('A','B') CHARACTER SET utf8";
    expect(detectSqliAt(ddl, 'body')).toMatchObject({ rule: 'sqli.statement', severity: 2 });
    const post = 'I keep seeing a lock wait timeout on our reporting box every night when the migration runs this:\n\n' + ddl + '\n\nThe table has two million rows. Is there a way to run it online?';
    expect(detectSqliAt(post, 'body')).not.toMatchObject({ severity: 2 });
  });

  it('reads a catalog or procedure name alone as suspicious, written in alternating case as an attack', () => {
    expect(detectSqliValue('information_schema')).toMatchObject({ rule: 'sqli.catalog', severity: 1 });
    expect(detectSqliValue('Information_Schema')).toMatchObject({ rule: 'sqli.catalog', severity: 1 });
    expect(detectSqliValue('xp_cmdshell')).toMatchObject({ rule: 'sqli.stored_procedure', severity: 1 });
    expect(detectSqliValue('InFoRmaTioN_ScHemA')).toMatchObject({ rule: 'sqli.catalog', severity: 2 });
  });

  it('keeps a bare ORDER BY tail after FROM suspicious only', () => {
    expect(detectSqliValue('FROM termine GROUP BY tag1')).toMatchObject({ rule: 'sqli.clause_breakout', severity: 1 });
  });

  it('keeps literals compared by `=`, `!=` or IS suspicious only (strict blocks them, loose does not)', () => {
    expect(detectSqliValue('1=1')).toMatchObject({ rule: 'sqli.boolean', severity: 1 });
    expect(detectSqliValue('11!=1')).toMatchObject({ rule: 'sqli.boolean', severity: 1 });
    expect(detectSqliValue('1 is not 2')).toMatchObject({ rule: 'sqli.boolean', severity: 1 });
    expect(detectSqliValue('2+2=4')).toBeNull();
    expect(detectSqliValue('in (0,1)')).toMatchObject({ rule: 'sqli.fragment', severity: 1 });
    // Always false, not a tautology: a value or a typo.
    expect(detectSqliValue('11=1')).toBeNull();
    expect(detectSqliValue('1 is not 1')).toBeNull();
    expect(detectSqliValue("'1' not regexp '1'")).toBeNull();
  });

  it('blocks a MySQL executable comment that opens on a keyword in a parameter; in a post it is suspicious', () => {
    expect(detectSqliAt('1 /*!50000union*/ 2', 'query')).toMatchObject({ rule: 'sqli.executable_comment', severity: 2 });
    const dump = 'Here is the top of my dump file, the import stops right after these lines:\n\n/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;\n/*!40101 SET NAMES utf8mb4 */;\n\nWhat am I missing?';
    expect(detectSqliAt(dump, 'body')).toMatchObject({ severity: 1 });
  });

  it('keeps a SQL function name opened with punctuation between suspicious only; other words pass', () => {
    expect(detectSqliValue('length||(')).toMatchObject({ rule: 'sqli.function_probe', severity: 1 });
    expect(detectSqliValue('version=(')).toMatchObject({ rule: 'sqli.function_probe', severity: 1 });
    expect(detectSqliValue('md5\\(')).toMatchObject({ rule: 'sqli.function_probe', severity: 1 });
    expect(detectSqliValue('hello :(')).toBeNull();
    expect(detectSqliValue('see (')).toBeNull();
  });

  it('keeps a bare name then LIKE and an opened quote suspicious only; RLIKE or a closed parenthesis is an attack', () => {
    expect(detectSqliValue("something LIKE '")).toMatchObject({ rule: 'sqli.boolean', severity: 1 });
    expect(detectSqliValue("name not like '")).toMatchObject({ rule: 'sqli.boolean', severity: 1 });
    expect(detectSqliValue("name regexp '")).toMatchObject({ rule: 'sqli.boolean', severity: 2 });
    expect(detectSqliValue(") like '")).toMatchObject({ rule: 'sqli.boolean', severity: 2 });
  });

  it("keeps `' or name` alone suspicious only; a longer reply after the quote passes", () => {
    expect(detectSqliValue("' or abc!")).toMatchObject({ rule: 'sqli.boolean', severity: 1 });
    expect(detectSqliValue("'  xor  abcdefg!")).toMatchObject({ rule: 'sqli.boolean', severity: 1 });
    expect(detectSqliValue("' or maybe not")).toBeNull();
    expect(detectSqliValue("'or else'")).toBeNull();
    expect(detectSqliValue("it's or that")).toBeNull();
  });

  it('reads items appended after the closed literal: a row cut by a comment is a fragment, a self-comparison a tautology', () => {
    expect(detectSqliValue("x', 'admin', 1)-- ")).toMatchObject({ rule: 'sqli.fragment', severity: 2 });
    expect(detectSqliValue("x', is_admin=1, name='x")).toMatchObject({ rule: 'sqli.fragment', severity: 2 });
    expect(detectSqliValue("admin', '1'='1")).toMatchObject({ rule: 'sqli.boolean', severity: 2 });
    // Without the closing parenthesis and comment, or with a name not a literal assigned, it is a list in a sentence.
    expect(detectSqliValue("x', 'admin', 1")).toBeNull();
    expect(detectSqliValue("x', role=admin")).toBeNull();
    // A bare tautology after a list stays suspicious unless every item is quoted.
    expect(detectSqliValue("'a', 1=1")).toMatchObject({ severity: 1 });
    expect(detectSqliValue("'admin', '1'='1'")).toMatchObject({ severity: 2 });
  });

  it('reads a JSON document compared with a JSON path as a condition, and nothing less', () => {
    expect(detectSqliValue(`'{"a":2,"c":[4,5,{"f":7}]}' > '$.c[2].f' = 7`)).toMatchObject({ rule: 'sqli.boolean', severity: 2 });
    expect(detectSqliValue(`'{"a":1}' < 7`)).toBeNull();
    expect(detectSqliValue(`'$.a' = '$.a'`)).toMatchObject({ severity: 1 });
  });

  it('reads the escape-eating backslash only where it opens a line and AND/OR follows', () => {
    expect(detectSqliAt("first line\n\\' or 1", 'body')).toMatchObject({ rule: 'sqli.boolean', severity: 2 });
    expect(detectSqliAt("first line \\' or 1", 'body')).toBeNull();
  });

  it('blocks a timing call alone in `${…}` with a number; a variable argument or a spaced brace is only suspicious', () => {
    expect(detectSqliValue('test{${sleep(12)}}')).toMatchObject({ rule: 'sqli.blind_function', severity: 2 });
    expect(detectSqliValue('`${sleep(ms)}`')).toBeNull();
    expect(detectSqliValue('price ${ sleep(5) }')).toMatchObject({ severity: 1 });
  });

  it('keeps a value of both quote characters alone suspicious only; one kind with a number passes', () => {
    expect(detectSqliValue(`"'`)).toMatchObject({ rule: 'sqli.quote_probe', severity: 1 });
    expect(detectSqliValue(`5' 11"`)).toBeNull();
    expect(detectSqliValue(`''`)).toBeNull();
  });

  // Strict-only shapes (strict-shapes.ts): severity 1 means strict mode blocks them and loose mode
  // lets them through; each is paired with the near-miss a search box, a form or a post sends.
  it.each([
    ["'x'!='y", 'sqli.boolean'],
    ["'1001'='10", 'sqli.boolean'],
    ['b,1=1', 'sqli.boolean'],
    ["' ', 10", 'sqli.union_select'],
    ["'', '', '', 13", 'sqli.union_select'],
    ["', 2, 1", 'sqli.union_select'],
    ['or 88', 'sqli.boolean'],
    ["and '5'orig_var_datavarname", 'sqli.boolean'],
    ['ORder by', 'sqli.clause_breakout'],
    ['`>65', 'sqli.boolean'],
    ['`>6fbdec2', 'sqli.boolean'],
    ['SET @OLD_SQL_NOTES', 'sqli.stacked_query'],
    ['>SET @OLD_SQL_NOTES', 'sqli.stacked_query'],
    ['&&(l=!0)', 'sqli.boolean'],
    ['||(c=!1)', 'sqli.boolean'],
    ['&&(b=0)', 'sqli.boolean'],
    ['/3 or ', 'sqli.boolean'],
    ['/Cm7 AND ', 'sqli.boolean'],
    ['/3 and(', 'sqli.boolean'],
    ["hash = 'abc', 0x1a", 'sqli.fragment'],
    ["product = 'item', (5)", 'sqli.fragment'],
    ['2 union all', 'sqli.union_select'],
    ["'msdasql'", 'sqli.catalog'],
    ['Northwind', 'sqli.catalog'],
    ["'or(glob 1)--", 'sqli.boolean'],
  ])('keeps %s suspicious only: strict blocks it, loose passes it', (value, rule) => {
    expect(detectSqliValue(value)).toEqual(expect.objectContaining({ rule, severity: 1 }));
    expect(detect(value)?.severity).toBe(1);
  });

  it.each([
    "'x'='y'", "'hello world'='y", "'a', 10", "'a','b'", "' '", 'or', 'and/or', 'or 2 more', 'and 5 more', 'Order by', 'ORDER BY', 'order by',
    '`code` > 5', 'set @bob as admin', '&&(a || b)', '&&(foo)', '&&(d!==', '||(e===', '&&(x=y)', '/docs/api or', 'cats or ', "name = 'Bob', 42", "x = 'a', (b)",
    'Northwind traders sample', 'credit union all', '2 union station', "' or (maybe 1)--", 'price >= 10, size = 2', 'a=1,b=2',
    'Hello @team, order by friday', '{"sort":"name","order":"asc"}',
  ])('passes the near-miss %s in strict mode too', (value) => {
    expect(detect(value)).toBeNull();
  });

  it('finds the payload after long padding', () => {
    expect(detectSqliValue('A'.repeat(100_000) + "' UNION SELECT username FROM users")).toMatchObject({ severity: 2 });
  });
});
