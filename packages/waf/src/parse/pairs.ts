/**
 * `a=1&b=2&a=3` as sent, without decoding: the name/value split happens on the raw text so that
 * an encoded `%26` or `%3D` inside a value cannot forge a new parameter. Repeated keys are kept
 * (HTTP parameter pollution is an evasion: each copy is inspected). Bounded by `maxPairs`.
 */
export interface RawPair {
  name: string;
  value: string;
  /** There was no `=`: `?debug` is a name without a value. */
  bare: boolean;
}

export function splitPairs(text: string, separator: string, maxPairs: number): RawPair[] {
  const pairs: RawPair[] = [];
  let start = 0;
  while (start <= text.length && pairs.length < maxPairs) {
    let end = text.indexOf(separator, start);
    if (end < 0) end = text.length;
    const part = text.slice(start, end);
    if (part.length > 0) {
      const eq = part.indexOf('=');
      pairs.push(eq < 0 ? { name: part, value: '', bare: true } : { name: part.slice(0, eq), value: part.slice(eq + 1), bare: false });
    }
    start = end + separator.length;
  }
  return pairs;
}

/** The query string or an application/x-www-form-urlencoded body. */
export function parseUrlencoded(text: string, maxPairs: number): RawPair[] {
  return splitPairs(text, '&', maxPairs);
}

/** A Cookie header: `a=1; b=2` (RFC 6265), names and values trimmed. */
export function parseCookies(header: string, maxPairs: number): RawPair[] {
  return splitPairs(header, ';', maxPairs).map((p) => ({ name: p.name.trim(), value: p.value.trim(), bare: p.bare }));
}
