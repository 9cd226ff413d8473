import { describe, expect, it } from 'vitest';
import { inspect } from '../../src/inspect.ts';
import { getRequest, postRequest, strongestSqli } from '../support/sqli-probe.ts';

/**
 * Whole-value SQL probes (detect/sqli/operators.ts, probes.ts): an operator with no operand, mixed
 * quote characters, a SELECT cut after the closing quote, `div()` on two numbers (an integer one
 * past a type's limit passes: it is also a size in bytes). Each is severity 1 — strict mode blocks
 * it, loose mode passes it — and each is paired with the near-misses a filter form, a search box,
 * a JSON API or a post sends.
 */

const detect = strongestSqli;
const post = postRequest;
const get = getRequest;

const form = 'application/x-www-form-urlencoded';

describe('an operator with no operand', () => {
  it.each([
    ['>>', '>>'],
    ['%3C%3C', '<<'],
    ['%7C%7C', '||'],
    ['XOR', 'XOR'],
    ['IS NULL', 'IS NULL'],
    ['RLIKE', 'RLIKE'],
    ['%3C%3E', '<>'],
    ['->', '->'],
    // Comparisons as a name only when they came percent-encoded (a form or query string, no JSON key).
    ['%21%3D', '!='],
    ['>%3D', '>='],
    ['%3D%3D', '=='],
  ])('as a parameter name (%s) is suspicious: strict blocks it', (raw, name) => {
    expect(detect(raw, 'body_name', name)).toMatchObject({ rule: 'sqli.operator_probe', severity: 1 });
  });

  it.each(['&&', '<=>', 'LIKE NULL', 'rlike  null', 'not like null'])('as a value (%s) is suspicious: strict blocks it', (value) => {
    expect(detect(value, 'query', 'x')).toMatchObject({ rule: 'sqli.operator_probe', severity: 1 });
    expect(detect(value, 'xml', 'probe')).toMatchObject({ severity: 1 });
  });

  it.each([
    // Filter forms send the chosen comparison as a value (Redmine, phpMyAdmin's search form).
    ['<=', 'query'], ['>=', 'body'], ['!=', 'query'], ['<>', 'body'], ['IS NULL', 'body'], ['LIKE', 'body'], ['REGEXP', 'body'],
    // JavaScript's class, a separator setting, a button label, a search with words around the operator.
    ['RegExp', 'body'], ['||', 'body'], ['>>', 'body'], ['->', 'query'], ['node.js >= 18', 'query'], ['a <=> b in php', 'query'],
    ['rock and roll', 'query'], ['x && y', 'body'], ['is null or empty', 'query'], ['like', 'query'],
  ] as const)('passes the value %s (%s)', (value, location) => {
    expect(detect(value, location, 'op')).toBeNull();
  });

  it.each([
    // JSON Logic keys its rules by comparisons: a top-level JSON key is a name that was never percent-encoded.
    ['!=', '!='], ['>=', '>='], ['==', '=='], ['<=', '<='],
    // An Elasticsearch query nests `regexp` as a key: its name is the path.
    ['regexp', 'query.regexp'], ['xor', 'cipher.xor'],
    // Flags and ordinary names.
    ['like', 'like'], ['glob', 'glob'], ['regexp', 'regexp'], ['q', 'q'], ['price%3E%3D', 'price>='], ['sort', 'sort'],
  ])('passes the name %s (input name %s)', (raw, name) => {
    expect(detect(raw, 'body_name', name)).toBeNull();
  });

  it('blocks a form body that is only an operator in strict mode, passes it in loose mode; JSON Logic passes both', () => {
    for (const body of ['>>', '%3E%3D', 'IS+NULL', 'pay=%26%26']) {
      expect(inspect(post(form, body), { mode: 'strict', kinds: ['sqli'] })).toMatchObject({ action: 'block', rule: 'sqli.operator_probe' });
      expect(inspect(post(form, body), { mode: 'loose', kinds: ['sqli'] }).action).not.toBe('block');
    }
    const rule = '{"and":[{"<=":[{"var":"age"},65]},{">=":[{"var":"age"},18]},{"!=":[{"var":"role"},"guest"]}]}';
    expect(inspect(post('application/json', rule), { mode: 'strict', kinds: ['sqli'] }).action).not.toBe('block');
    expect(inspect(post('application/json', '{"==":[1,1]}'), { mode: 'strict', kinds: ['sqli'] }).action).not.toBe('block');
    expect(inspect(get('/issues?op%5Bdue_date%5D=%3E%3D&v%5Bdue_date%5D=2026-01-01'), { mode: 'strict', kinds: ['sqli'] }).action).not.toBe('block');
  });
});

describe('an integer one past a type limit', () => {
  // A size of 2 or 4 GiB in bytes is the same number as the overflow probe: it passes in both modes.
  it.each(['4294967296', '2147483648', '-2147483649', '9223372036854775808', '2147483647'])('passes %s', (value) => {
    expect(detect(value)).toBeNull();
  });
});

describe('quote characters of two kinds alone', () => {
  it.each(["'!`", "`'", "'\"", '" `'])('%s is suspicious', (value) => {
    expect(detect(value)).toMatchObject({ rule: 'sqli.quote_probe', severity: 1 });
  });

  it.each(['"!"', "''", '`!1', '"! Y', "5'", '12"', "it's `x`", "'!!`"])('passes %s', (value) => {
    expect(detect(value)).toBeNull();
  });
});

describe('a long run of quote-laden punctuation', () => {
  it.each([
    ["'.".repeat(40)],
    ["'.".repeat(40) + "'or"],
    ['"!'.repeat(20) + 'XOR'],
    ['!!!!!\'..."!!\'.".`...\'.....\'@`!!!!!`...."@@@@@`!!!!!\'@`@@@@@\'..."\'@@@@@\'"...\'!!!`!!`@@"\'@@`..\'!!\'@@'],
  ])('%s is suspicious', (value) => {
    expect(detect(value)).toMatchObject({ rule: 'sqli.quote_probe', severity: 1 });
  });

  it.each([
    ['a separator line', '-'.repeat(60)],
    ['a Markdown fence run', '`'.repeat(12)],
    ['a punctuation password', '!@#$%^&*()_+{}|:"<>?~!@#$%^&*()_+'],
    ['quotes with words', "'a' 'b' 'c' 'd' 'e' 'f' 'g' 'h' 'i' 'j' 'k'"],
    ['an emoticon row', '^_^ '.repeat(10)],
    ['a word after the run', "'.".repeat(40) + 'order'],
    ['a name after the run', "'.".repeat(40) + 'Al'],
  ])('passes %s', (_label, value) => {
    expect(detect(value)).toBeNull();
  });

  it('blocks it in a form in strict mode, passes it in loose mode', () => {
    const body = `var=${encodeURIComponent("'.".repeat(40))}`;
    expect(inspect(post(form, body), { mode: 'strict', kinds: ['sqli'] })).toMatchObject({ action: 'block', rule: 'sqli.quote_probe' });
    expect(inspect(post(form, body), { mode: 'loose', kinds: ['sqli'] }).action).not.toBe('block');
  });
});

describe('a SELECT cut right after the closing quote', () => {
  it.each(["'select H", "'SELECT *", "'select 1"])('%s is suspicious', (value) => {
    expect(detect(value)).toMatchObject({ rule: 'sqli.stacked_query', severity: 1 });
  });

  it.each(["'select all", "'Select one option", "select H", "a'select H", "'select' H", "'selected x"])('passes %s', (value) => {
    expect(detect(value)).toBeNull();
  });
});

describe('div() on two numbers', () => {
  it.each(['div(23,-2)', 'div (23.23 , 2)', 'DIV(10, 3)'])('%s is suspicious', (value) => {
    expect(detect(value)).toMatchObject({ rule: 'sqli.function_probe', severity: 1 });
  });

  it.each(['mod(5,2)', 'div(a, b)', 'div(23,-2) + 1', '<div>(23, 2)</div>', 'div(23)', 'the div (23 px, 2 px)'])('passes %s', (value) => {
    expect(detect(value)).toBeNull();
  });
});

describe('a SQL function opened and cut', () => {
  it.each(['cOnCaT(', 'uNhEx(', 'SuBsTr('])('%s in alternating case is clear: loose blocks it too', (value) => {
    expect(detect(value, 'body')).toMatchObject({ rule: 'sqli.function_probe', severity: 2 });
  });

  it.each(['concat(', 'CONCAT(', 'Concat(', 'isNull(', 'ifNull(', 'hEx('])('%s stays suspicious only', (value) => {
    expect(detect(value, 'body')).toMatchObject({ rule: 'sqli.function_probe', severity: 1 });
  });

  it.each(['isNaN(x)', 'getElementById(', 'McDonald('])('passes %s', (value) => {
    expect(detect(value, 'body')).toBeNull();
  });
});
