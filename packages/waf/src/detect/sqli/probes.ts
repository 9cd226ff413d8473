import type { DetectorHit, InputLocation } from '../../types.ts';
import type { FragmentFinding } from './fragments.ts';
import type { SqlReader } from './grammar.ts';
import { operatorAlone } from './operators.ts';

/**
 * Probes a scanner sends before an injection: values that are no query yet but ask how the
 * application reads its input. Each is the whole value, found severity 1 (strict mode blocks it,
 * loose mode lets it through): a person could, rarely, type one.
 */

/*
 * An integer one past a type's limit (`2147483648`, `4294967296`) is the overflow probe CRS 942220
 * looks for — and also a size of exactly 2 or 4 GiB written in bytes, a value forms and APIs carry
 * every day. Strict mode is the default for new sites, so it passes in both modes.
 */

/**
 * `'!\``, `` "` ``: two different quote characters (with at most a `!` between), nothing else —
 * which one closes the application's literal, or its quoted name, is told by the error it raises.
 * A unit (`5'`), a quoted word or one kind of quote alone (`"!"`) is no such probe.
 */
export function mixedQuoteProbe(value: string): DetectorHit | null {
  if (value.length < 2 || value.length > 6 || !/^[\s'"`!]+$/.test(value)) return null;
  const kinds = Number(value.includes("'")) + Number(value.includes('"')) + Number(value.includes('`'));
  const bangs = value.split('!').length - 1;
  return kinds >= 2 && bangs <= 1 ? { kind: 'sqli', rule: 'sqli.quote_probe', severity: 1, evidence: value } : null;
}

/**
 * `'.'.'.'.'…'or`, `!!!!!'..."!!'.".\`…\`or`: a long value that is nothing but punctuation — a
 * quarter of it or more quote characters — perhaps ending in a boolean operator: a fuzzer's string
 * of literal breaks, one of which closes whatever literal or quoted name the value lands in, and
 * the OR that follows it. No text is made of punctuation alone this long; passwords and separators
 * are shorter, or have letters or blanks, or few quotes.
 */
const quoteFuzzMin = 32;
const quoteFuzzMax = 4096;
const closingOperator = /^(?:x?or|and)$/i;

export function quoteFuzzProbe(value: string): DetectorHit | null {
  if (value.length < quoteFuzzMin || value.length > quoteFuzzMax) return null;
  let quotes = 0;
  let end = value.length;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // Punctuation only (no blank, control byte, letter, digit or non-ASCII character) up to the
    // operator that may close the run; most values end here at their first character.
    if (c <= 0x20 || c >= 0x7f || (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)) {
      if (i < value.length - 3 || !closingOperator.test(value.slice(i))) return null;
      end = i;
      break;
    }
    if (c === 0x27 || c === 0x22 || c === 0x60) quotes++;
  }
  return quotes * 4 >= end ? { kind: 'sqli', rule: 'sqli.quote_probe', severity: 1, evidence: value.slice(-64) } : null;
}

/**
 * `` "` * 123 ``, `` '`-5 ``: a quote and a backtick together (the literal and the quoted name both
 * closed, whichever the value lands in) and then arithmetic on a number — whether the database
 * evaluates it shows in the answer. The two quote characters side by side are what no text writes;
 * `"*" 5` or `` `x` * 2 `` (Markdown code) put letters or a closing quote between them.
 */
const quoteArithmetic = /^\s*(?:["']\s*`|`\s*["'])\s*[*/%+-]\s*\d{1,12}\s*$/;

export function quoteArithmeticProbe(value: string): DetectorHit | null {
  return value.includes('`') && quoteArithmetic.test(value) ? { kind: 'sqli', rule: 'sqli.quote_probe', severity: 1, evidence: value } : null;
}

/**
 * `'select H`, `'SELECT *`: the value closes the application's literal at once (the quoted reading's
 * first token is the empty `''`) and starts a second SELECT — MSSQL runs it without a `;` — cut after
 * one letter, a star or a number: the probe of a statement, not its body. `'select all` and
 * `'Select one option` have words.
 */
export function selectAfterQuote(r: SqlReader): FragmentFinding | null {
  if (!r.is(0, 'string', "''") || !r.isKeyword(1, 'select') || r.tokens.length !== 3) return null;
  const cut = r.at(2)!;
  const short = (cut.type === 'word' && /^[a-z]$/.test(cut.text)) || cut.type === 'number' || (cut.type === 'operator' && cut.text === '*');
  return short ? { rule: 'sqli.stacked_query', severity: 1, at: 1 } : null;
}

/**
 * The characters a probe can open with: a blank, a quote or `!`, an operator, `%` (a name still
 * percent-encoded), a digit or `-` (an integer), and the first letters of the operator words (`xor`,
 * `rlike`, `ilike`, `is null`, `not rlike`, `like null`). Most values end at this table.
 */
const probeStarts = new Uint8Array(128);
for (const c of ' \t\n\r\'"`!%&<>|=-0123456789ilnrxILNRX') probeStarts[c.charCodeAt(0)] = 1;

/**
 * The whole-value probes the token readings do not see (an operator, a number or quotes alone pass
 * their cheap gates untokenized): an operator with no operand, mixed quote
 * characters, a long run of quote-laden punctuation.
 */
export function wholeValueProbe(value: string, location: InputLocation, name?: string): DetectorHit | null {
  // A long value ends at its first letter, digit or blank here.
  if (value.length > 24) return quoteFuzzProbe(value);
  if (value.length < 2) return null;
  const first = value.charCodeAt(0);
  if (first >= 128 || probeStarts[first] === 0) return null;
  return operatorAlone(value, location, name) ?? mixedQuoteProbe(value) ?? quoteArithmeticProbe(value);
}
