/**
 * Login and literal probes (detect/sqli/login-probes.ts): the admin account and a closing quote,
 * adjacent literals joined around a blank, and an escaped quote before a numeric tautology. Each is
 * severity 1 — strict mode blocks, loose mode records — and each is paired with the near-misses a
 * login form, a search box, a JSON API or a post sends.
 */
import { describe, expect, it } from 'vitest';
import { detectSqli } from '../../src/detect/sqli/index.ts';
import { inspect } from '../../src/inspect.ts';
import type { InputLocation, WafRequest } from '../../src/types.ts';

describe('login and literal probes: suspicious, so strict blocks and loose passes', () => {
  it.each<[string, InputLocation]>([
    // the account every login bypass targets, then the quote closing the literal
    ["admin'", 'body'],
    ["admin '", 'body_name'],
    ['Administrator"', 'body'],
    ["root' ", 'query'],
    ["admin')", 'body'],
    // adjacent literals: `'3' ' 1'` is `'3 1'` to SQL
    ["3' ' 1", 'query'],
    ["1' '1", 'body'],
    // an escaped quote (eaten by an addslashes-style escape), a number, a tautology
    ['\\"1 or 1-', 'body'],
    ["\\'1 or 1=1", 'query'],
    ["\\'2 and 1 --", 'body'],
    ['\\`1 || true', 'body'],
  ])('finds %s at severity 1', (value, location) => {
    expect(detectSqli(value, location)).toEqual(expect.objectContaining({ kind: 'sqli', rule: 'sqli.boolean', severity: 1 }));
  });

  it.each<[string, InputLocation]>([
    // user names and phrases around the account word
    ['admin', 'body'],
    ["admin's", 'body'],
    ["admins'", 'body'],
    ["'admin'", 'body'],
    ['"root"', 'query'],
    ["the admin' page", 'query'],
    ['admin (primary)', 'body'],
    ["admin')s", 'body'],
    ["administrator's guide", 'query'],
    // measurements and quoted blanks
    ["5' 3\"", 'body'],
    ["12\" \"14", 'body'],
    ["' '", 'query'],
    ["3' '", 'query'],
    ["rock' 'n roll", 'query'],
    // escaped JSON strings and text after the escaped quote
    ['\\"1 or 2\\"', 'body'],
    ['\\"1 or 2 days', 'body'],
    ['{\\"q\\":\\"1 or 2\\"}', 'body'],
    ['\\"red or blue\\"', 'body'],
  ])('passes %s in strict mode too', (value, location) => {
    expect(detectSqli(value, location)).toBeNull();
  });
});

describe('a login probe through the engine', () => {
  const login = (body: string, contentType = 'application/x-www-form-urlencoded'): WafRequest => ({
    method: 'POST',
    target: '/login',
    headers: [['Host', 'shop.example'], ['Content-Type', contentType]],
    clientIp: '203.0.113.5',
    body: new TextEncoder().encode(body),
    bodyTruncated: false,
    now: 0,
  });

  it('is blocked in strict mode and only recorded in loose mode', () => {
    expect(inspect(login("user=admin'&pass=x"), { mode: 'strict' })).toMatchObject({ action: 'block', rule: 'sqli.boolean', kind: 'sqli' });
    expect(inspect(login("user=admin'&pass=x"), { mode: 'loose' })).toMatchObject({ action: 'record', rule: 'sqli.boolean' });
    expect(inspect(login('{ "admin \'":"foo" }', 'application/json'), { mode: 'strict' })).toMatchObject({ action: 'block', rule: 'sqli.boolean' });
  });

  it('leaves an ordinary login alone in strict mode', () => {
    expect(inspect(login('user=admin&pass=hunter2'), { mode: 'strict' })).toEqual({ action: 'pass' });
    expect(inspect(login("user=o'brien&pass=x"), { mode: 'strict' })).toEqual({ action: 'pass' });
  });
});
