/**
 * Shapes of a value that change how the text-oriented detectors (command, template, traversal,
 * LDAP, NoSQL…) read it. Shared by W2's detectors; pure and cheap (they look at a bounded head).
 */

/**
 * Binary data (images, PDFs, archives) read as text: NUL bytes, or many control characters or
 * U+FFFD replacement characters in the first 1 KiB. Shell or template syntax found in it is chance.
 */
export function looksBinary(value: string): boolean {
  const n = Math.min(value.length, 1024);
  let odd = 0;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c === 0) return true;
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 0xfffd || (c >= 0x7f && c < 0xa0)) odd++;
  }
  return odd > 4 && odd * 50 > n;
}

/**
 * A document someone wrote (a post, a comment with markup, a multi-line message) rather than a
 * single form value: HTML block markup, Markdown code, three or more lines, or thirty or more words
 * ('+' separates words too: form encoding may not have been undone in the variant at hand). Code and
 * commands quoted in such text are what forums and blogs are about, so detectors that would call
 * them attacks report them as suspicious only (strict mode still blocks). The trade-off: an attack
 * padded into a long document passes loose mode.
 */
export function looksLikeDocument(value: string): boolean {
  const head = value.slice(0, 8192);
  if (/<(?:p|pre|code|div|br|li|ul|ol|h[1-6]|blockquote|table)\b|<!-- \/?wp:|```/i.test(head)) return true;
  // Markdown inline code inside a sentence: "Try `ls -la /var/log` first" (words outside the code count).
  const markdown = /(?:^|[\s+])`[^`\n]+`(?:$|[\s+.,;:!?)])/.test(head);
  if (markdown) return countWords(head.replace(/`[^`\n]*`/g, ' ')) >= 3;
  let lines = 1;
  for (let i = head.indexOf('\n'); i >= 0 && lines < 3; i = head.indexOf('\n', i + 1)) lines++;
  return lines >= 3 || countWords(head) >= 30;
}

/** Runs of letters (any script); `+` and punctuation separate them. */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c > 127;
    if (letter && !inWord) words++;
    inWord = letter;
  }
  return words;
}

/** A region of a document that holds code: [start, end) offsets into the value. */
export interface CodeSpan {
  start: number;
  end: number;
  /** Markdown renders its code escaped; HTML `<code>`/`<pre>` does not (a raw tag inside still runs). */
  markdown: boolean;
}

const maxSpans = 256;

/**
 * The code regions of a document: Markdown fences (```…```, an unclosed fence runs to the end, as
 * CommonMark reads it), Markdown inline code (`…` on one line), HTML `<code>`/`<pre>` elements and
 * MediaWiki's closed `<syntaxhighlight>`/`<source>` elements.
 * A linear scan with indexOf, no backtracking; at most `maxSpans` regions.
 */
export function codeSpans(value: string): CodeSpan[] {
  const spans: CodeSpan[] = [];
  // Fences first: the backticks inside a fence are not inline code.
  for (let at = value.indexOf('```'); at >= 0 && spans.length < maxSpans; ) {
    // A fence opens a line (CommonMark); ``` glued to a word is not one. Any whitespace counts as
    // the line break: the canonical reading of a value folds newlines into spaces.
    const before = value[at - 1];
    if (at > 0 && before !== '\n' && before !== ' ' && before !== '\t' && before !== '\r') {
      at = value.indexOf('```', at + 3);
      continue;
    }
    const close = value.indexOf('```', at + 3);
    const end = close < 0 ? value.length : close + 3;
    spans.push({ start: at, end, markdown: true });
    at = close < 0 ? -1 : value.indexOf('```', end);
  }
  // Inline code: backticks scanned left to right, fences (sorted, disjoint) walked with a pointer
  // and the next newline remembered, so a hostile value of backticks stays linear.
  const fences = spans.slice();
  let fence = 0;
  let newline = -1;
  for (let at = value.indexOf('`'); at >= 0 && spans.length < maxSpans; ) {
    while (fence < fences.length && fences[fence]!.end <= at) fence++;
    const current = fences[fence];
    if (current && at >= current.start) {
      at = value.indexOf('`', current.end);
      continue;
    }
    if (value[at + 1] === '`') {
      at = value.indexOf('`', at + 1);
      continue;
    }
    const close = value.indexOf('`', at + 1);
    if (close < 0) break;
    if (newline < at) newline = value.indexOf('\n', at);
    if (newline < 0) newline = value.length;
    if (newline < close) {
      at = close;
      continue;
    }
    spans.push({ start: at, end: close + 1, markdown: true });
    at = value.indexOf('`', close + 1);
  }
  const lower = value.length > 0 && value.indexOf('<') >= 0 ? value.toLowerCase() : '';
  // MediaWiki's code elements (SyntaxHighlight: `<syntaxhighlight lang="sql">`, and its older name
  // `<source>`) count only when closed: `<source src=…>` is also HTML's media element, which has no end tag.
  for (const tag of ['<code', '<pre', '<syntaxhighlight', '<source']) {
    const mustClose = tag === '<syntaxhighlight' || tag === '<source';
    for (let at = lower.indexOf(tag); at >= 0 && spans.length < maxSpans; ) {
      const after = lower[at + tag.length];
      if (after !== '>' && after !== ' ' && after !== '\t' && after !== '\n') {
        at = lower.indexOf(tag, at + 1);
        continue;
      }
      const close = lower.indexOf('</' + tag.slice(1), at);
      if (close < 0 && mustClose) break;
      const end = close < 0 ? value.length : close;
      spans.push({ start: at, end, markdown: false });
      at = close < 0 ? -1 : lower.indexOf(tag, close);
    }
  }
  return spans;
}

/** The span holding offset `at`, or null. */
export function spanAt(spans: readonly CodeSpan[], at: number): CodeSpan | null {
  for (const s of spans) if (at >= s.start && at < s.end) return s;
  return null;
}
