import { z } from 'zod';

/*
 * Keyword libraries of the website protection's injection tab (spec: "Keyword rules use ++ and --
 * for block libraries and == for replacement"). One rule per line. The spec names the operators and
 * nothing more; Rampart defines them so:
 *
 * Block and record libraries (a request that matches a block rule is refused; one that matches a
 * record rule passes and is logged):
 *   `a`          the request contains a
 *   `a++b++c`    it contains a AND b AND c, anywhere, in any order
 *   `a--b`       it contains a and does NOT contain b (`--b` is an exception: "casino--casino royale
 *                review" blocks casino spam but not a film review)
 *   `a++b--c--d` operators combine: a and b present, neither c nor d
 *   The first term is always a positive one; every term is trimmed and must not be empty.
 * Filter library (rewrites text, does not block):
 *   `x==y`       every x is replaced by y (y may be empty: x is deleted)
 *   `x`          every x is replaced by as many `*` as x has characters
 *   `++` and `--` have no meaning there; a filter line holds at most one `==`.
 * Matching is case-insensitive (both sides lower-cased) and literal: no wildcards, no regular
 * expressions, so a rule can't be slow. There is no escape: a keyword can't contain `++`, `--` or
 * `==`. What "the request" means (the decoded URL and body text) is the engine's business.
 */

export const keywordLibraries = ['block', 'filter', 'record'] as const;
export type KeywordLibrary = (typeof keywordLibraries)[number];

/** Longest keyword (one term), in characters; the message `keyword_too_long` says 100. */
export const maxKeywordLength = 100;
/** Most rules in one library. */
export const maxKeywordRules = 5000;

/** A block or record rule: every `all` keyword present, no `none` keyword present. Lower case. */
export interface KeywordMatchRule {
  all: string[];
  none: string[];
}
/** A filter rule: replace `from` (lower case, matched case-insensitively) by `to`. */
export interface KeywordReplaceRule {
  from: string;
  to: string;
}

export type KeywordParseError = 'web_keyword_empty' | 'web_keyword_too_long' | 'web_keyword_syntax';

/** Parses a block or record rule line; a message key when it is not valid. */
export function parseKeywordMatchRule(line: string): KeywordMatchRule | KeywordParseError {
  if (line.includes('==')) return 'web_keyword_syntax';
  const all: string[] = [];
  const none: string[] = [];
  let rest = line;
  let sign: '+' | '-' = '+';
  for (;;) {
    const plus = rest.indexOf('++');
    const minus = rest.indexOf('--');
    const cut = plus < 0 ? minus : minus < 0 ? plus : Math.min(plus, minus);
    const term = (cut < 0 ? rest : rest.slice(0, cut)).trim().toLowerCase();
    if (term === '') return all.length === 0 && none.length === 0 && cut < 0 ? 'web_keyword_empty' : 'web_keyword_syntax';
    if (term.length > maxKeywordLength) return 'web_keyword_too_long';
    (sign === '+' ? all : none).push(term);
    if (cut < 0) break;
    sign = cut === plus ? '+' : '-';
    rest = rest.slice(cut + 2);
  }
  return { all, none };
}

/** Parses a filter rule line; a message key when it is not valid. */
export function parseKeywordReplaceRule(line: string): KeywordReplaceRule | KeywordParseError {
  const parts = line.split('==');
  if (parts.length > 2) return 'web_keyword_syntax';
  const from = (parts[0] ?? '').trim().toLowerCase();
  if (from === '') return parts.length === 1 ? 'web_keyword_empty' : 'web_keyword_syntax';
  const to = parts.length === 2 ? (parts[1] ?? '').trim() : '*'.repeat([...from].length);
  if (from.length > maxKeywordLength || to.length > maxKeywordLength) return 'web_keyword_too_long';
  return { from, to };
}

function ruleLineSchema(parse: (line: string) => object | KeywordParseError) {
  return z
    .string({ message: 'web_keyword_syntax' })
    .trim()
    .max(maxKeywordLength * 8, 'web_keyword_too_long')
    .superRefine((line, ctx) => {
      const result = parse(line);
      if (typeof result === 'string') ctx.addIssue({ code: 'custom', message: result });
    });
}

export const keywordMatchLineSchema = ruleLineSchema(parseKeywordMatchRule);
export const keywordReplaceLineSchema = ruleLineSchema(parseKeywordReplaceRule);

const rules = (line: z.ZodType<string>) => z.array(line).max(maxKeywordRules, 'web_keyword_too_many');

/** The three libraries; each on or off on its own. */
export const keywordLibrariesSchema = z
  .object({
    block: z.object({ enabled: z.boolean(), rules: rules(keywordMatchLineSchema) }).strict(),
    filter: z.object({ enabled: z.boolean(), rules: rules(keywordReplaceLineSchema) }).strict(),
    record: z.object({ enabled: z.boolean(), rules: rules(keywordMatchLineSchema) }).strict(),
  })
  .strict();
export type KeywordLibrariesSettings = z.infer<typeof keywordLibrariesSchema>;
