/**
 * The body's media type from its Content-Type header, and a sniff of the body itself: the header
 * is the client's claim, and an attacker who labels JSON as text/plain (or sends no header) must
 * not get the body past the parsers unread.
 */
export type BodyKind = 'urlencoded' | 'multipart' | 'json' | 'xml' | 'text';

export interface ContentType {
  mediaType: string;
  params: Record<string, string>;
}

export function parseContentType(header: string | undefined): ContentType {
  if (!header) return { mediaType: '', params: {} };
  const parts = header.split(';');
  const params: Record<string, string> = {};
  for (const part of parts.slice(1, 16)) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    params[part.slice(0, eq).trim().toLowerCase()] = value;
  }
  return { mediaType: (parts[0] ?? '').trim().toLowerCase(), params };
}

export function declaredBodyKind(type: ContentType): BodyKind | null {
  const m = type.mediaType;
  if (m === 'application/x-www-form-urlencoded') return 'urlencoded';
  if (m.startsWith('multipart/') && type.params.boundary) return 'multipart';
  if (m === 'application/json' || m.endsWith('+json') || m === 'text/json' || m === 'application/graphql-response+json') return 'json';
  if (m === 'application/xml' || m === 'text/xml' || m.endsWith('+xml')) return 'xml';
  return null;
}

/** What the body looks like, whatever the header said. */
export function sniffBodyKind(text: string): BodyKind {
  let i = 0;
  while (i < text.length && i < 64 && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t' || text[i] === '\ufeff')) i++;
  const first = text[i];
  if (first === '{' || first === '[') return 'json';
  if (first === '<') return 'xml';
  if (text.startsWith('--') && /^--[^\r\n]{1,200}\r?\n[Cc]ontent-[Dd]isposition/.test(text.slice(i, i + 512))) return 'multipart';
  // name=value&name=value with no spaces before the first `=`: a form posted without its header.
  const eq = text.indexOf('=');
  if (eq > 0 && eq < 256 && !/[\s<>{}"]/.test(text.slice(0, eq))) return 'urlencoded';
  return 'text';
}
