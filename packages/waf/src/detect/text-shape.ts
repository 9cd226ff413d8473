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

function countWords(text: string): number {
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
