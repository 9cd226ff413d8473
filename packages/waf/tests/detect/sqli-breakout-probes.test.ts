import { describe, expect, it } from 'vitest';
import { inspect } from '../../src/inspect.ts';
import type { InputLocation, WafRequest } from '../../src/types.ts';
import { browserHeaders, getRequest, postRequest, strongestSqli } from '../support/sqli-probe.ts';

/**
 * Short probes that close the application's literal and trail a scrap of SQL (breakout-probes.ts),
 * a quote and a backtick before arithmetic (probes.ts), and PostgreSQL dollar quoting written with
 * escaped dollars (index.ts readings). Each paired with the near-misses a form or a post sends.
 */

/** Each value read as a named query parameter's, as a query string carries it. */
const detect = (raw: string, location: InputLocation = 'query', name = 'var') => strongestSqli(raw, location, name);
const get = getRequest;

describe('OR and one operand after the closed literal, then debris', () => {
  it.each(["' or homer 9", "'  or 3,4,2@!", "' xor abc 12", "\" or 7,8"])('%s is suspicious', (value) => {
    expect(detect(value)).toMatchObject({ rule: 'sqli.boolean', severity: 1 });
  });

  it.each(["' or else maybe", "' or page 2 of 3", "it's or 3, 4", "'quoted' or 9", "' and then 3", "or homer 9"])('passes %s', (value) => {
    expect(detect(value)).toBeNull();
  });

  it('blocks in strict mode only', () => {
    const target = '/get?var=%27%20%20or%203%2C4%2C2%40%21';
    expect(inspect(get(target), { mode: 'strict', kinds: ['sqli'] }).action).toBe('block');
    expect(inspect(get(target), { mode: 'loose', kinds: ['sqli'] }).action).not.toBe('block');
  });
});

describe('a star and FROM after the closed literal', () => {
  it.each(["' * from = 1 id '9", "'* FROM x", '"* from 9 to 5'])('%s is suspicious', (value) => {
    expect(detect(value)).toMatchObject({ rule: 'sqli.fragment', severity: 1 });
  });

  it.each(['"* from 9 to 5"', "'*' from x", '* from the list', "it's * from me", "'a * from"])('passes %s', (value) => {
    expect(detect(value)).toBeNull();
  });
});

describe('a quote and a backtick, then arithmetic', () => {
  it.each(['"` * 12344', '"` * 123', "'`-5", '` " / 2'])('%s is suspicious', (value) => {
    expect(detect(value)).toMatchObject({ rule: 'sqli.quote_probe', severity: 1 });
  });

  it.each(['"*" 5', '`x` * 2', '"` * abc', '`code` - 1', '"a` * 3'])('passes %s', (value) => {
    expect(detect(value)).toBeNull();
  });

  it('blocks it in an XML attribute in strict mode only', () => {
    const xml = '<?xml version="1.0"?><root><a probe="&quot;` * 123"></a></root>';
    const request: WafRequest = postRequest('application/xml', xml, '/post');
    expect(inspect(request, { mode: 'strict', kinds: ['sqli'] }).action).toBe('block');
    expect(inspect(request, { mode: 'loose', kinds: ['sqli'] }).action).not.toBe('block');
  });
});

describe('PostgreSQL dollar quoting with escaped dollars', () => {
  it('reads the unescaped value: a condition on the password column after the closed literal', () => {
    expect(detect("1' and starts_with(password,\\$\\$t\\$\\$) and 'true")).toMatchObject({ rule: 'sqli.boolean', severity: 2 });
    const headers: [string, string][] = [...browserHeaders.filter(([n]) => n !== 'User-Agent'), ['User-Agent', '1%27%20and%20starts_with%28password%2C%5C%24%5C%24t%5C%24%5C%24%29%20and%20%27true']];
    expect(inspect(get('/get', headers), { mode: 'loose', kinds: ['sqli'] }).action).toBe('block');
  });

  it.each(['echo "\\$HOME" and it\'s \\$5', 'costs \\$5 or \\$6', "price: \\$\\$ (it's cheap)", 'awk \'{print \\$1}\' file'])('passes %s', (value) => {
    expect(detect(value, 'body')).toBeNull();
  });
});
