/**
 * A small tolerant XML tokenizer: no DTD processing and never any entity resolution (that is
 * what XXE abuses). It surfaces what detectors need: text content and CDATA, attribute values,
 * processing instructions, and the DOCTYPE / ENTITY declarations verbatim (so the XXE detector
 * sees `<!ENTITY x SYSTEM "file:///etc/passwd">`). Malformed input yields what could be read.
 */
export interface XmlItem {
  kind: 'text' | 'attribute' | 'doctype' | 'entity' | 'pi';
  /** The element name (text), `element@attribute`, `!DOCTYPE`, `!ENTITY` or `?target`. */
  name: string;
  value: string;
}

function isNameChar(c: string | undefined): boolean {
  return c !== undefined && !' \t\r\n/>=<"\''.includes(c);
}

function endOfDoctype(text: string, from: number): number {
  // The internal subset `[ ... ]` may contain `>`; quoted strings may contain anything.
  let depth = 0;
  let quote = '';
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if (c === '>' && depth === 0) return i;
  }
  return text.length - 1;
}

function entityDeclarations(doctype: string, out: XmlItem[], max: number): void {
  let at = doctype.indexOf('<!');
  while (at >= 0 && out.length < max) {
    const end = doctype.indexOf('>', at);
    const decl = doctype.slice(at, end < 0 ? undefined : end + 1);
    if (/^<!ENTITY/i.test(decl)) out.push({ kind: 'entity', name: '!ENTITY', value: decl });
    at = end < 0 ? -1 : doctype.indexOf('<!', end);
  }
}

export function tokenizeXml(text: string, maxItems: number): XmlItem[] {
  const items: XmlItem[] = [];
  const open: string[] = [];
  let i = 0;
  while (i < text.length && items.length < maxItems) {
    const lt = text.indexOf('<', i);
    const textEnd = lt < 0 ? text.length : lt;
    const chunk = text.slice(i, textEnd).trim();
    if (chunk) items.push({ kind: 'text', name: open[open.length - 1] ?? '', value: chunk });
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      i = end < 0 ? text.length : end + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      const value = text.slice(lt + 9, end < 0 ? undefined : end).trim();
      if (value) items.push({ kind: 'text', name: open[open.length - 1] ?? '', value });
      i = end < 0 ? text.length : end + 3;
    } else if (text.startsWith('<!', lt)) {
      const end = endOfDoctype(text, lt + 2);
      const decl = text.slice(lt, end + 1);
      if (/^<!DOCTYPE/i.test(decl)) {
        items.push({ kind: 'doctype', name: '!DOCTYPE', value: decl });
        entityDeclarations(decl.slice(9), items, maxItems);
      } else if (/^<!ENTITY/i.test(decl)) items.push({ kind: 'entity', name: '!ENTITY', value: decl });
      i = end + 1;
    } else if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2);
      const body = text.slice(lt + 2, end < 0 ? undefined : end);
      const target = body.split(/[\s]/, 1)[0] ?? '';
      items.push({ kind: 'pi', name: '?' + target, value: body });
      i = end < 0 ? text.length : end + 2;
    } else {
      i = readTag(text, lt, items, open, maxItems);
    }
  }
  return items;
}

/** Reads `<name attr="v" …>` or `</name>` at `lt`; returns the index after it. */
function readTag(text: string, lt: number, items: XmlItem[], open: string[], maxItems: number): number {
  let i = lt + 1;
  const closing = text[i] === '/';
  if (closing) i++;
  const nameStart = i;
  while (i < text.length && isNameChar(text[i])) i++;
  const name = text.slice(nameStart, i);
  if (!name) return lt + 1;
  if (closing) {
    const at = open.lastIndexOf(name);
    if (at >= 0) open.length = at;
    const end = text.indexOf('>', i);
    return end < 0 ? text.length : end + 1;
  }
  for (;;) {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
    if (i >= text.length) return i;
    if (text[i] === '>') {
      open.push(name);
      return i + 1;
    }
    if (text[i] === '/' && text[i + 1] === '>') return i + 2;
    const attrStart = i;
    while (i < text.length && isNameChar(text[i])) i++;
    const attr = text.slice(attrStart, i);
    if (!attr) {
      i++; // stray character: skip it, stay tolerant
      continue;
    }
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
    if (text[i] !== '=') continue;
    i++;
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
    let value: string;
    const quote = text[i];
    if (quote === '"' || quote === "'") {
      const end = text.indexOf(quote, i + 1);
      value = text.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? text.length : end + 1;
    } else {
      const start = i;
      while (i < text.length && isNameChar(text[i])) i++;
      value = text.slice(start, i);
    }
    if (items.length < maxItems) items.push({ kind: 'attribute', name: `${name}@${attr}`, value });
  }
}
