/**
 * Gadget class names inside base64 — the way serialized Java objects travel in cookies, hidden
 * fields and headers. A name inside a base64 stream is encoded differently depending on where
 * its first byte falls in a 3-byte group, so each name is encoded once at all three alignments
 * (keeping the characters the name alone determines) and the value is searched for those needles:
 * no decoding of the haystack, which keeps benign tokens (session ids, CSRF tokens) cheap. The
 * decoder of decode/base64.ts reads whole values only, and only when they decode to readable text;
 * a serialized stream is binary, and a fragment of one is not even aligned.
 */

/** Names only a serialized gadget chain carries, as Java writes them (the lower-case form is searched too). */
const gadgetNames = [
  'ProcessBuilder', 'Runtime', 'InvokerTransformer', 'InstantiateTransformer', 'CloneTransformer', 'ChainedTransformer',
  'ForClosure', 'WhileClosure', 'InstantiateFactory', 'PrototypeCloneFactory', 'PrototypeSerializationFactory',
  'TemplatesImpl', 'AnnotationInvocationHandler', 'JdbcRowSetImpl', 'ysoserial',
];

interface Needle {
  needle: string;
  name: string;
}

/** The base64 characters fully determined by `word` when it starts at byte `offset` (0-2) of a group. */
export function alignedBase64(word: string, offset: number): string {
  const bytes = Buffer.concat([Buffer.alloc(offset), Buffer.from(word, 'latin1'), Buffer.alloc(3)]);
  const encoded = bytes.toString('base64');
  const first = Math.ceil((8 * offset) / 6);
  const last = Math.floor((8 * offset + 8 * word.length) / 6); // exclusive
  return encoded.slice(first, last);
}

const needles: readonly Needle[] = gadgetNames.flatMap((name) => {
  const forms = new Set([name, name.toLowerCase()]);
  return [...forms].flatMap((form) => [0, 1, 2].map((offset) => ({ needle: alignedBase64(form, offset), name: name.toLowerCase() })));
});

const minRun = 8;
const maxRun = 1 << 20;
const searchWindow = 8192;

export interface Base64Finding {
  name: string;
  run: string;
  /** The run decodes to readable text with words or syntax around the name: base64 of a document or a config. */
  readable: boolean;
}

function isBase64Char(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 45 || c === 95;
}

/**
 * Only a value that is one base64 token (a cookie, a hidden field, a header or a key holding a
 * blob; `=` padding allowed) is searched: serialized objects travel whole, and prose, markup and
 * URLs — most of the traffic — have spaces and punctuation that base64 never has.
 */
export function findBase64Gadget(value: string): Base64Finding | null {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 32) start++;
  while (end > start && (value.charCodeAt(end - 1) <= 32 || value.charCodeAt(end - 1) === 61)) end--;
  if (end - start < minRun || end - start > maxRun) return null;
  let digitOrUpperInside = false;
  for (let i = start; i < end; i++) {
    const c = value.charCodeAt(i);
    if (!isBase64Char(c)) return null;
    if ((c >= 48 && c <= 57) || (i > start && c >= 65 && c <= 90)) digitOrUpperInside = true;
  }
  // A lower-case or capitalized word is not base64 output; base64 of text mixes cases and digits.
  if (!digitOrUpperInside) return null;
  // Class descriptors come first in a stream: the head of a long blob is where the names are.
  const run = value.slice(start, Math.min(end, start + searchWindow));
  for (const { needle, name } of needles) {
    if (run.includes(needle)) return { name, run, readable: readable(run) };
  }
  return null;
}

/**
 * The whole run decodes to a JSON document (UTF-8, any language): analytics SDKs send their batches
 * base64-encoded (PostHog's `compression=base64`, replay chunks in multipart fields), and a key such
 * as `"runtime"` encodes to the same characters as the class name. A serialized Java object starts
 * with its stream header (rO0AB, aced0005) and carries length bytes before every class name; JSON
 * has neither. (A gadget named inside the JSON, `"@type":"…JdbcRowSetImpl"`, is read by the other
 * Java checks on the decoded value.)
 */
export function decodesToJson(run: string): boolean {
  const bytes = Buffer.from(run.length % 4 === 1 ? run.slice(0, -1) : run, run.includes('-') || run.includes('_') ? 'base64url' : 'base64');
  const first = bytes[0];
  if (first !== 0x7b && first !== 0x5b) return false;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.includes('\ufffd')) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A control character other than tab, line feed and carriage return. */
function hasControlChar(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return true;
  }
  return false;
}

function readable(run: string): boolean {
  const bytes = Buffer.from(run, 'base64');
  if (bytes.length < 12) return false;
  // UTF-8 text (accents, CJK) is as readable as ASCII: a stream's class names sit among control bytes.
  const utf8 = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (!utf8.includes('\ufffd') && !hasControlChar(utf8)) return /[ ":,{=]/.test(utf8);
  let separators = 0;
  for (const b of bytes) {
    if ((b < 32 && b !== 9 && b !== 10 && b !== 13) || b >= 127) return false;
    if (b === 32 || b === 34 || b === 58 || b === 44 || b === 123 || b === 61) separators++;
  }
  // The name alone, encoded, is a fragment of a stream; text has spaces, quotes, colons, commas.
  return separators > 0;
}
