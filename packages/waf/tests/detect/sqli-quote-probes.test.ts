/**
 * Quote probes (detect/sqli/quote-probes.ts): a value that opens by closing the application's
 * literal and goes on only with what neutralises or completes its closing quote — a comment after
 * symbols, one dangling operator, or a condition ending on a reopened literal. Each is suspicious
 * (severity 1): strict mode blocks, loose mode records. Values that open with a word, quote a
 * symbol whole, or carry text after the quote pass in both modes.
 */
import { describe, expect, it } from 'vitest';
import { detectSqliAt } from '../../src/detect/sqli/index.ts';
import { inspect } from '../../src/inspect.ts';
import type { InputLocation } from '../../src/types.ts';

describe('quote probes: suspicious, so strict blocks and loose passes', () => {
  it.each<[string, string, InputLocation]>([
    // the quote, symbols only, a comment marker: the application's closing quote commented out
    ["' #-", 'sqli.comment_truncation', 'cookie'],
    ['\u2019 #-', 'sqli.comment_truncation', 'cookie'],
    ["';@@#--", 'sqli.comment_truncation', 'body'],
    ["' = # '", 'sqli.comment_truncation', 'body'],
    ["'? # = --", 'sqli.comment_truncation', 'query'],
    ["' ? # = #", 'sqli.comment_truncation', 'query'],
    ["'!@#$%^&*", 'sqli.comment_truncation', 'cookie_name'],
    // the quote and one operator: the application's quote is the right operand (`'' - ''` is 0)
    ["' -", 'sqli.boolean', 'body'],
    ['\u2018 -', 'sqli.boolean', 'body'],
    ["'=", 'sqli.boolean', 'query'],
    // the quote, an operator, a comparison, then OR and a literal the application's quote completes
    ["' * from = 1 or '9", 'sqli.boolean', 'body'],
    ["' * 3 = 6 or 'six", 'sqli.boolean', 'query'],
  ])('finds %s (%s) at severity 1', (value, rule, location) => {
    expect(detectSqliAt(value, location)).toEqual(expect.objectContaining({ kind: 'sqli', rule, severity: 1 }));
  });

  it.each<[string, InputLocation]>([
    // a quoted symbol, closed again: a setting, a search for the character, a post naming it
    ["'#'", 'query'],
    ['"--"', 'query'],
    ["'-'", 'query'],
    ['"="', 'query'],
    ["'!!!'", 'body'],
    // the quote followed by words: prose, a search, a reply
    ["'--' starts a comment in SQL", 'body'],
    ["'#' symbol meaning", 'query'],
    ["' #1 fan", 'body'],
    ["' * note: see below or 'x", 'body'],
    ["' - I'd say 1 or 'two", 'body'],
    ['\u2019Tis the season', 'body'],
    ['\u2018quoted\u2019 text', 'body'],
    // a word before the quote (a contraction, a password with symbols)
    ["it's -", 'body'],
    ["ab'!#$%", 'body'],
    // emoticons after a quote
    ["' :-)", 'body'],
    ["' ;-)", 'body'],
    ["' -_-", 'body'],
    // JSON with a symbol value
    ['{"tag":"#","sep":"-"}', 'body'],
    // blank or empty literals
    ["''", 'query'],
    ["' '", 'query'],
  ])('passes %s in strict mode too', (value, location) => {
    expect(detectSqliAt(value, location)).toBeNull();
  });
});

describe('a quote probe through the engine', () => {
  const request = (cookie: string) => ({ method: 'GET', target: '/account', headers: [['Host', 'shop.example'], ['Cookie', cookie]] as [string, string][], clientIp: '203.0.113.5', body: null, bodyTruncated: false, now: 0 });

  it('is blocked in strict mode and only recorded in loose mode', () => {
    expect(inspect(request('id=\u2019 #-'), { mode: 'strict' })).toMatchObject({ action: 'block', rule: 'sqli.comment_truncation', kind: 'sqli' });
    expect(inspect(request('id=\u2019 #-'), { mode: 'loose' })).toMatchObject({ action: 'record', rule: 'sqli.comment_truncation' });
  });

  it('leaves a cookie holding a quoted symbol alone in strict mode', () => {
    expect(inspect(request("sep='#'"), { mode: 'strict' })).toEqual({ action: 'pass' });
  });
});
