/**
 * NoSQL shapes added after the first detector (small-detectors.test.ts holds the first fixtures):
 * an operator in query-string key syntax inside a value, and a `$where` break-out to `this.field`.
 */
import { describe } from 'vitest';
import { detectNosql } from '../../src/detect/nosql/index.ts';
import { checkAttacks, checkBenign } from './fixture-check.ts';

describe('NoSQL operator written as a key path inside a value', () => {
  checkAttacks(detectNosql, 'nosql', [
    { value: '[$lte]asdfsd', rule: 'nosql.bracket_operator' },
    { value: 'u_id[$ne]', location: 'xml', rule: 'nosql.bracket_operator' },
    { value: 'user[name][$regex]', location: 'body' },
    { value: '/login?user=admin&pass[$ne]=x', location: 'query' },
    { value: 'password[$gt]', location: 'cookie' },
    { value: 'filters[title][$in]', severity: 1 },
  ]);
  checkBenign(detectNosql, [
    // PHP and Perl code indexing an array with a variable that happens to be called like an operator
    { value: '$row[$lt] = $value;', location: 'body' },
    { value: 'echo $this->map[$not];', location: 'body' },
    { value: 'foo.bar[$ne]' },
    // Angular/Vue templates and jQuery selectors use `$` names that are not operators
    { value: 'items[$index]' },
    { value: 'onClick(items[$event])' },
    { value: 'costs [$5] each' },
    // a post explaining the attack stays suspicious (strict mode blocks it)
    {
      value: 'Express parses ?user[$ne]=x into an object.\nSanitize the query before it reaches Mongo.\nUse express-mongo-sanitize.',
      location: 'body',
      below: 2,
    },
    { value: 'plain text', location: 'xml' },
  ]);
});

describe('NoSQL $where break-out to this.field', () => {
  checkAttacks(detectNosql, 'nosql', [
    { value: '/post/catalogue/rest/products/2499999||this.product/reviews', location: 'path', rule: 'nosql.where_breakout' },
    { value: "admin' && this.password.match(/^a.*$/)//", rule: 'nosql.where_breakout' },
    { value: "'||this.isAdmin=='x" },
    { value: '1 || this.role != "user"', location: 'body' },
    { value: "x' || !this.disabled//", location: 'header' },
    { value: 'foo||this.secret', severity: 1 },
  ]);
  checkBenign(detectNosql, [
    // JavaScript in a code post or a JSON body: the join is inside code, not after a closed literal
    { value: 'const x = options || this.defaults;', location: 'body' },
    { value: '{"code":"a||this.b"}', location: 'raw_body' },
    { value: 'return a && this.ready;', location: 'query' },
    { value: 'this.value || 0' },
    { value: 'cats || dogs' },
    { value: '/api/this.is/fine', location: 'path' },
    {
      value: "I tried name' || this.x == 'y in my form\nand the query returned everything.\nHow do I escape it?",
      location: 'body',
      below: 2,
    },
  ]);
});
