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
  // An element's text as the application reads it: the text, CDATA sections and the text around
  // comments joined (DOM textContent, ElementTree's `.text`). `1' union sel<![CDATA[ect …]]>` or a
  // comment inside a keyword splits a payload the pieces alone do not show; the joined text is one
  // more item when it was read in more than one piece.
  let run: string[] = [];
  const flush = () => {
    if (run.length > 1) {
      const joined = run.join('').trim();
      if (joined && items.length < maxItems) items.push({ kind: 'text', name: open[open.length - 1] ?? '', value: joined });
    }
    run = [];
  };
  let i = 0;
  while (i < text.length && items.length < maxItems) {
    const lt = text.indexOf('<', i);
    const textEnd = lt < 0 ? text.length : lt;
    const raw = text.slice(i, textEnd);
    const chunk = raw.trim();
    if (chunk) {
      items.push({ kind: 'text', name: open[open.length - 1] ?? '', value: chunk });
      run.push(raw);
    }
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      i = end < 0 ? text.length : end + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      const content = text.slice(lt + 9, end < 0 ? undefined : end);
      const value = content.trim();
      if (value) {
        items.push({ kind: 'text', name: open[open.length - 1] ?? '', value });
        run.push(content);
      }
      i = end < 0 ? text.length : end + 3;
    } else if (text.startsWith('<!', lt)) {
      flush();
      const end = endOfDoctype(text, lt + 2);
      const decl = text.slice(lt, end + 1);
      if (/^<!DOCTYPE/i.test(decl)) {
        items.push({ kind: 'doctype', name: '!DOCTYPE', value: decl });
        entityDeclarations(decl.slice(9), items, maxItems);
      } else if (/^<!ENTITY/i.test(decl)) items.push({ kind: 'entity', name: '!ENTITY', value: decl });
      i = end + 1;
    } else if (text.startsWith('<?', lt)) {
      flush();
      const end = text.indexOf('?>', lt + 2);
      const body = text.slice(lt + 2, end < 0 ? undefined : end);
      const target = body.split(/[\s]/, 1)[0] ?? '';
      items.push({ kind: 'pi', name: '?' + target, value: body });
      i = end < 0 ? text.length : end + 2;
    } else {
      flush();
      i = readTag(text, lt, items, open, maxItems);
    }
  }
  flush();
  expandInternalEntities(items, maxItems);
  return items;
}

/** Expanded text is bounded: a billion-laughs document stops growing here. */
const maxExpansion = 64 * 1024;

/**
 * Internal entities (`<!ENTITY a "1' union sel">` … `&a;&b;`): libxml2, .NET's XmlDocument and Java's
 * DOM parsers expand them by default, so the application reads the joined text while the pieces,
 * each in its declaration, show nothing. Text and attribute values that use one are read once more
 * expanded (declared entities only, nested ones too, bounded in depth and length; external ones,
 * SYSTEM and PUBLIC, are never fetched: the XXE detector judges their declarations).
 */
function expandInternalEntities(items: XmlItem[], maxItems: number): void {
  const entities = new Map<string, string>();
  for (const item of items) {
    if (item.kind !== 'entity') continue;
    const m = /^<!ENTITY\s+([^\s%"']+)\s+(?:"([^"]*)"|'([^']*)')\s*>$/i.exec(item.value.trim());
    if (m && !entities.has(m[1]!)) entities.set(m[1]!, m[2] ?? m[3] ?? '');
  }
  if (entities.size === 0) return;
  // One budget per value, shared by every nested expansion: output length and references replaced.
  let budget = 0;
  let references = 0;
  const expand = (text: string, depth: number): string =>
    text.replace(/&([^\s&;#]{1,64});/g, (whole, name: string) => {
      const value = entities.get(name);
      if (value === undefined || depth >= 4 || budget <= 0 || ++references > 4096) return whole;
      const expanded = expand(value, depth + 1).slice(0, Math.max(0, budget));
      budget -= expanded.length;
      return expanded;
    });
  const count = items.length;
  for (let k = 0; k < count && items.length < maxItems; k++) {
    const item = items[k]!;
    if ((item.kind !== 'text' && item.kind !== 'attribute') || !item.value.includes('&')) continue;
    budget = maxExpansion;
    references = 0;
    const expanded = expand(item.value, 0).slice(0, maxExpansion);
    if (expanded !== item.value) items.push({ kind: item.kind, name: item.name, value: expanded });
  }
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
