import type { SqlReader } from './grammar.ts';
import type { FragmentFinding } from './fragments.ts';

/**
 * Whole-value probes a scanner sends at a login form or an id parameter, each read on the value as
 * sent (the bare reading: a quoted reading starts with the quote we prepended and fails the `^`
 * anchors). None is a working query, so each is severity 1: strict mode blocks, loose mode passes.
 * Every pattern is anchored at both ends, and a length test (24-48 characters) runs before it.
 */

/**
 * `admin'`, `admin '`, `root"`, `admin')`: the account every login bypass targets, then the quote
 * that closes the application's literal (and the parenthesis around the condition) and nothing
 * more — the first step of `admin'--` / `admin' or '1'='1`, sent to see whether the login answers
 * with an error. A user name is typed without a trailing quote; the possessive (`admin's`,
 * `admins'`), the name quoted whole (`'admin'`) and a phrase (`the admin' page`) pass.
 */
const accountThenQuote = /^\s*(?:admin|administrator|root)\s*['"]\)?\s*$/i;

function accountBreakout(r: SqlReader): FragmentFinding | null {
  const s = r.source;
  if (s.length > 24 || !accountThenQuote.test(s)) return null;
  return { rule: 'sqli.boolean', severity: 1, at: 0 };
}

/**
 * `3' ' 1`: a number, the quote closing the application's literal, a new literal holding only a
 * blank, then a number — SQL joins adjacent literals (`'3' ' 1'` is `'3 1'`), so a changed answer
 * tells the scanner the value lands in a literal. Only the single quote (`12" "14` could be a size
 * list) and only numbers on both sides; a measurement (`5' 3"`) or a quoted blank alone passes.
 */
const adjacentLiteralProbe = /^\s*\d{1,10}'[ \t]+'[ \t]*\d{1,10}\s*$/;

function adjacentLiteral(r: SqlReader): FragmentFinding | null {
  const s = r.source;
  if (s.length > 32 || !adjacentLiteralProbe.test(s)) return null;
  return { rule: 'sqli.boolean', severity: 1, at: 0 };
}

/**
 * `\"1 or 1-`, `\'1 or 1=1`: a backslash before the quote (an application that escapes quotes by
 * adding a backslash turns it into `\\'`, the backslash is eaten and the quote closes the literal),
 * a number, then OR/AND and a literal, maybe a comparison with another number, ending at once or on
 * one dangling operator or comment. escaped-quote.ts takes the form without the leading number in
 * both modes. An escaped JSON string (`\"1 or 2\"`) closes its quote again, and one with words
 * (`\"1 or 2 days`) goes on: both pass.
 */
const escapedQuoteTautology = /^\s*\\(['"`])\s*\d{1,10}\s*(?:x?or|and|\|\||&&)\s*(?:\d{1,10}|true|false)(?:\s*(?:=|<>|!=)\s*\d{1,10})?\s*(?:--|#|[-+*/=])?\s*$/i;

function escapedQuoteCondition(r: SqlReader): FragmentFinding | null {
  const s = r.source;
  if (s.length > 48 || !s.trimStart().startsWith('\\') || !escapedQuoteTautology.test(s)) return null;
  return { rule: 'sqli.boolean', severity: 1, at: 0 };
}

/** The first login or literal probe the value matches. */
export function loginProbe(r: SqlReader): FragmentFinding | null {
  return accountBreakout(r) ?? adjacentLiteral(r) ?? escapedQuoteCondition(r);
}
