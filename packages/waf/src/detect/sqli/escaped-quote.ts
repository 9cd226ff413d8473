/**
 * `\' and 1`, `\'and`, `` \`or`1 ``: a line that opens with a backslash before the quote, then AND or
 * OR. An application that escapes quotes by adding a backslash (`addslashes`, magic quotes) turns the
 * value's `\'` into `\\'`: the backslash escapes the backslash, and the quote closes the literal —
 * the escape-eating breakout. Only the opening of the value or of one of its lines counts, and only a
 * bare literal (or nothing) may follow the operator: `it\'s` inside a quoted string in code, or a
 * longer sentence after the word, is something else.
 */
const escapedQuoteBreakout = /(?:^|\n)[ \t]*\\(['"`])[ \t]*(?:and|x?or|&&|\|\|)(?![\w$])[ \t]*(?:\1?(?:\d{1,10}|true|false)\1?)?[ \t]*\r?(?:$|\n)/i;

export function escapedQuoteProbe(value: string): boolean {
  return value.includes('\\') && escapedQuoteBreakout.test(value);
}
