/**
 * HTML character references as a browser reads them in attribute values and text: named (the
 * punctuation and whitespace names attackers use, HTML5's `&colon;`, `&lpar;`, `&Tab;`…),
 * decimal and hex, with or without the closing semicolon and with any number of leading zeros
 * (`&#0000000040`). The named table is deliberately the useful subset, not all 2,231 names:
 * letters hidden as `&eacute;` do not build attack syntax.
 */
const named: Record<string, string> = {
  lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0', Tab: '\t', NewLine: '\n',
  colon: ':', semi: ';', comma: ',', period: '.', excl: '!', quest: '?', num: '#', dollar: '$',
  percnt: '%', lpar: '(', rpar: ')', lsqb: '[', rsqb: ']', lbrack: '[', rbrack: ']', lcub: '{',
  rcub: '}', lbrace: '{', rbrace: '}', sol: '/', bsol: '\\', equals: '=', plus: '+', ast: '*',
  midast: '*', commat: '@', lowbar: '_', grave: '`', verbar: '|', vert: '|', hyphen: '-', dash: '-',
  Hat: '^', tilde: '~', DiacriticalGrave: '`', LT: '<', GT: '>', AMP: '&', QUOT: '"', quest2: '?',
  lsquo: '\u2018', rsquo: '\u2019', ldquo: '\u201c', rdquo: '\u201d', NoBreak: '\u2060', ZeroWidthSpace: '\u200b',
};
const longestName = 16;

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function codePointText(code: number): string {
  // Browsers map NUL and out-of-range references to U+FFFD; keep that so nothing throws.
  if (code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(code);
}

export function decodeHtmlEntities(text: string): string {
  if (text.indexOf('&') < 0) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const amp = text.indexOf('&', i);
    if (amp < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, amp);
    i = amp + 1;
    if (text[i] === '#') {
      const hex = text[i + 1] === 'x' || text[i + 1] === 'X';
      let j = hex ? i + 2 : i + 1;
      let code = 0;
      let digits = 0;
      for (; j < text.length; j++) {
        const c = text.charCodeAt(j);
        const d = c >= 48 && c <= 57 ? c - 48 : hex && c >= 65 && c <= 70 ? c - 55 : hex && c >= 97 && c <= 102 ? c - 87 : -1;
        if (d < 0) break;
        if (code <= 0x10ffff) code = code * (hex ? 16 : 10) + d;
        digits++;
      }
      if (digits > 0) {
        out += codePointText(code);
        i = text[j] === ';' ? j + 1 : j;
        continue;
      }
      out += '&';
      continue;
    }
    let end = i;
    while (end < text.length && end - i < longestName && isAlnum(text.charCodeAt(end))) end++;
    // Longest known name that is a prefix of the run (browsers match `&ltfoo` as `<foo`).
    let matched = '';
    for (let k = end; k > i; k--) {
      const candidate = text.slice(i, k);
      if (named[candidate] !== undefined) {
        matched = candidate;
        break;
      }
    }
    if (matched) {
      out += named[matched];
      i += matched.length;
      if (text[i] === ';') i++;
      continue;
    }
    out += '&';
  }
  return out;
}
