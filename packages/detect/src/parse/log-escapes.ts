/**
 * Undoes the escaping web servers apply inside quoted log fields: Apache writes `\"`, `\\` and
 * `\xhh`; nginx writes `\x22` for a quote and `\xHH` for other unsafe bytes. Escaped bytes are
 * reassembled and read as UTF-8, so a UTF-8 path logged byte by byte reads as it was sent.
 */
export function unescapeLogField(text: string): string {
  if (!text.includes('\\')) return text;
  const bytes: number[] = [];
  const push = (s: string) => {
    for (const b of Buffer.from(s, 'utf8')) bytes.push(b);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '\\' || i + 1 >= text.length) {
      push(c);
      continue;
    }
    const next = text[i + 1]!;
    const hex = next === 'x' ? /^[0-9a-fA-F]{2}/.exec(text.slice(i + 2, i + 4)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 3;
    } else if (next === '"' || next === '\\') {
      push(next);
      i += 1;
    } else if (next === 'n' || next === 't' || next === 'r') {
      push(next === 'n' ? '\n' : next === 't' ? '\t' : '\r');
      i += 1;
    } else {
      push(c);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
