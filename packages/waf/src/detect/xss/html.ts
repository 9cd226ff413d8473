/**
 * HTML as a browser's tokenizer reads it, reduced to what XSS needs: start tags with their
 * attributes (names lower-cased, values as written). Every `<` followed by a letter (or by `:` and a
 * letter, old IE's prefixed elements) opens a tag (we do not know the context the value lands in, so
 * a tag inside what would be a comment still counts). Attribute-list reading follows the HTML spec:
 * `/` separates like a space, a value is quoted or runs to whitespace or `>`, an unterminated tag
 * still has its attributes.
 */
export interface HtmlAttribute {
  name: string;
  value: string;
}

export interface HtmlTag {
  name: string;
  attributes: HtmlAttribute[];
  /** Offset of `<` in the text. */
  start: number;
  /** Offset after the tag (after `>`, or the end of the text). */
  end: number;
}

const maxAttributes = 64;
const maxTagLength = 8192;

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isHtmlSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
}

/** Reads attributes from `from` until `>` or the end; returns them and the index after. */
export function readAttributes(text: string, from: number): { attributes: HtmlAttribute[]; end: number } {
  const attributes: HtmlAttribute[] = [];
  const limit = Math.min(text.length, from + maxTagLength);
  let i = from;
  while (i < limit && attributes.length < maxAttributes) {
    const c = text[i];
    if (isHtmlSpace(c) || c === '/') {
      i++;
      continue;
    }
    if (c === '>') return { attributes, end: i + 1 };
    const nameStart = i;
    i++; // the first character may be `=` (the spec allows it as part of the name)
    while (i < limit && !isHtmlSpace(text[i]) && text[i] !== '/' && text[i] !== '>' && text[i] !== '=') i++;
    const name = text.slice(nameStart, i).toLowerCase();
    let j = i;
    while (j < limit && isHtmlSpace(text[j])) j++;
    if (text[j] !== '=') {
      attributes.push({ name, value: '' });
      continue;
    }
    j++;
    while (j < limit && isHtmlSpace(text[j])) j++;
    const quote = text[j];
    let value: string;
    if (quote === '"' || quote === "'") {
      const close = text.indexOf(quote, j + 1);
      value = text.slice(j + 1, close < 0 ? limit : close);
      i = close < 0 ? limit : close + 1;
    } else {
      const start = j;
      while (j < limit && !isHtmlSpace(text[j]) && text[j] !== '>') j++;
      value = text.slice(start, j);
      i = j;
    }
    attributes.push({ name, value });
  }
  return { attributes, end: i };
}

/** Every start tag in the text, at most `maxTags`. */
export function startTags(text: string, maxTags = 256): HtmlTag[] {
  const tags: HtmlTag[] = [];
  let at = text.indexOf('<');
  while (at >= 0 && tags.length < maxTags) {
    // `<:vmlframe`: old IE read a tag with an empty namespace prefix as the prefixed element.
    if (isAsciiLetter(text.charCodeAt(at + 1)) || (text[at + 1] === ':' && isAsciiLetter(text.charCodeAt(at + 2)))) {
      let i = at + 1;
      while (i < text.length && !isHtmlSpace(text[i]) && text[i] !== '/' && text[i] !== '>' && text[i] !== '<') i++;
      const name = text.slice(at + 1, i).toLowerCase();
      const { attributes, end } = readAttributes(text, i);
      tags.push({ name, attributes, start: at, end });
    }
    at = text.indexOf('<', at + 1);
  }
  return tags;
}
