/**
 * Files carried inside form or JSON fields as base64 (an application that decodes
 * `{"file":"<base64>","name":"x.php"}` or a `data:` URL and writes it): found here so the upload
 * scan (upload-scan.ts) reads them as uploaded files.
 *
 * A field value counts when it is long (>= 64 characters), strictly base64 (standard or URL-safe
 * alphabet, line breaks allowed) or a `data:<type>;base64,` URL, and decodes to bytes that look like
 * script: text with a script opening (`<?`, `<%`, `<script`, `System.`: what the engine's classify
 * needs before it calls anything script) or an image with `<?` / `<%` inside. The scan thread then
 * lets the engine classify the bytes and scans only script and polyglot images (ScanJob.scriptOnly).
 * Images, PDFs, compressed or random bytes (SDK beacons carry base64 payloads) stop at that cheap
 * look here and never reach the engine.
 *
 * Named by a sibling name field (`name`, `filename`, `file_name`, `fileName`: the same JSON object,
 * or the same form), else by the field's own name. Bounded: only the first `maxEmbeddedFiles`
 * such files, only values that decode to at most the upload cap, only bodies up to `maxBodyBytes`.
 */
import type { UploadedFile } from './upload-scan.ts';

/** Decoded fields scanned per request; later ones pass (an attacker gains nothing by repeating one). */
export const maxEmbeddedFiles = 4;
/** Candidate values decoded per request (most long base64 values are no script and cost a decode only). */
const maxDecodes = 16;
const minValueChars = 64;
/** JSON bodies parsed for fields: larger ones are not read for files (a 2 MiB file is ~2.7 MiB of base64). */
export const maxBodyBytes = 8 * 1024 * 1024;
const maxJsonDepth = 32;
const maxJsonStrings = 20_000;

const nameKeys = ['name', 'filename', 'file_name', 'fileName'];
const standard = /^[A-Za-z0-9+/]+={0,2}$/;
const urlSafe = /^[A-Za-z0-9_-]+={0,2}$/;
const dataUrl = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w.+-]+=[^;,]*)*;base64,/i;

/** A field as the application sees it: its name, its value, and the name a sibling field gives it (or null). */
export interface CarriedField {
  field: string;
  value: string;
  siblingName: string | null;
}

/** The bytes a value carries, or null when it is not a long, strict base64 value or base64 `data:` URL (or over the cap). */
export function decodeCarried(value: string, maxFileBytes: number): Buffer | null {
  if (value.length < minValueChars) return null;
  const data = dataUrl.exec(value);
  const payload = (data ? value.slice(data[0].length) : value).replace(/\r?\n/g, '');
  if (payload.length < minValueChars || payload.length > Math.ceil(maxFileBytes / 3) * 4 + 4) return null;
  const safe = urlSafe.test(payload);
  if (!standard.test(payload) && !safe) return null;
  // Padded base64 comes in whole quads; unpadded (URL-safe mostly) may not, but never leaves one spare character.
  if (payload.includes('=') ? payload.length % 4 !== 0 : payload.length % 4 === 1) return null;
  const bytes = Buffer.from(payload, safe && /[-_]/.test(payload) ? 'base64url' : 'base64');
  return bytes.length > 0 && bytes.length <= maxFileBytes ? bytes : null;
}

// The engine's own isImageMagic is not imported: @rampart/webshell loads yara-x, kept to the scan thread.
const isImage = (b: Buffer) =>
  (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) ||
  (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47) ||
  (b.length >= 6 && b.toString('latin1', 0, 4) === 'GIF8');

/** Share of control bytes (not tab, CR, LF) in the head: text has none, compressed or random bytes ~10 %. */
function mostlyText(b: Buffer): boolean {
  const n = Math.min(b.length, 4096);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const c = b[i]!;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) control++;
  }
  return control <= n / 100;
}

/**
 * The cheap look before the engine: could these bytes be script, or script in an image? (The engine's
 * classify decides in the scan thread; this only keeps bytes that cannot be from costing a job.)
 */
export function mayBeScript(bytes: Buffer): boolean {
  if (isImage(bytes)) {
    const text = bytes.toString('latin1');
    return text.includes('<?') || text.includes('<%');
  }
  if (!mostlyText(bytes)) return false;
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, 64 * 1024));
  return head.includes('<?') || head.includes('<%') || head.includes('System.') || /<script/i.test(head);
}

/** The files the fields carry, in order, bounded (maxEmbeddedFiles, maxDecodes). */
export function carriedFiles(fields: Iterable<CarriedField>, maxFileBytes: number): UploadedFile[] {
  const files: UploadedFile[] = [];
  let decodes = 0;
  for (const { field, value, siblingName } of fields) {
    if (value.length < minValueChars) continue;
    if (decodes >= maxDecodes || files.length >= maxEmbeddedFiles) break;
    const bytes = decodeCarried(value, maxFileBytes);
    if (!bytes) continue;
    decodes++;
    if (!mayBeScript(bytes)) continue;
    files.push({ field, fileName: (siblingName || field || 'field').slice(0, 255), size: bytes.length, bytes, embedded: true });
  }
  return files;
}

/** The string values of a JSON document, each with its key and its object's name field. */
export function* jsonFields(text: string): Generator<CarriedField> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return;
  }
  let seen = 0;
  const walk = function* (node: unknown, key: string, depth: number): Generator<CarriedField> {
    if (depth > maxJsonDepth || seen > maxJsonStrings) return;
    if (typeof node === 'string') {
      seen++;
      yield { field: key, value: node, siblingName: null };
    } else if (Array.isArray(node)) {
      for (const item of node) yield* walk(item, key, depth + 1);
    } else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      const named = nameKeys.map((k) => record[k]).find((v): v is string => typeof v === 'string' && v.length > 0) ?? null;
      for (const [k, v] of Object.entries(record)) {
        if (typeof v === 'string') {
          seen++;
          yield { field: k, value: v, siblingName: named };
        } else yield* walk(v, k, depth + 1);
      }
    }
  };
  yield* walk(doc, '', 0);
}

/**
 * The name a form gives a field's file: a bracketed field (`upload[data]`) looks first among its own
 * brackets (`upload[name]`), then at the form's top-level name fields.
 */
function formNamer(pairs: readonly (readonly [string, string])[]): (field: string) => string | null {
  const byName = new Map<string, string>();
  for (const [k, v] of pairs) if (!byName.has(k) && v.length > 0) byName.set(k, v);
  return (field) => {
    const bracket = field.lastIndexOf('[');
    const prefix = bracket > 0 ? field.slice(0, bracket) : null;
    for (const key of nameKeys) {
      const near = prefix !== null ? byName.get(`${prefix}[${key}]`) : undefined;
      if (near) return near;
    }
    for (const key of nameKeys) {
      const top = byName.get(key);
      if (top) return top;
    }
    return null;
  };
}

/** Form fields (urlencoded pairs or multipart text parts) with the form's name field. */
export function formFields(pairs: readonly (readonly [string, string])[]): CarriedField[] {
  const sibling = formNamer(pairs);
  return pairs.filter(([, v]) => v.length >= minValueChars).map(([field, value]) => ({ field, value, siblingName: sibling(field) }));
}

/** A multipart text part is kept up to this (a 2 MiB file in base64 with line breaks, and a data: prefix). */
export const maxTextPartBytes = (maxFileBytes: number) => Math.ceil((maxFileBytes / 3) * 4 * 1.03) + 1024;
/** Short text parts kept for their names (a name field is short). */
const maxNameFields = 64;
const maxNameChars = 255;

/**
 * The text parts of a multipart form as they end (UploadFiles): a long one is decoded at once and
 * kept only as a candidate file's bytes; short ones only as possible names, since the name field may
 * come after the file's. Memory: at most `maxEmbeddedFiles` decoded files and the short names.
 */
export class CarriedFormFields {
  private readonly names: [string, string][] = [];
  private readonly found: { field: string; bytes: Buffer }[] = [];
  private decodes = 0;
  private readonly maxFileBytes: number;

  constructor(maxFileBytes: number) {
    this.maxFileBytes = maxFileBytes;
  }

  /** A text part that ended (null bytes: it was over the cap, not kept). */
  add(field: string, bytes: Buffer | null): void {
    if (!bytes) return;
    if (bytes.length < minValueChars) {
      if (bytes.length <= maxNameChars && this.names.length < maxNameFields) this.names.push([field, bytes.toString('utf8')]);
      return;
    }
    if (this.decodes >= maxDecodes || this.found.length >= maxEmbeddedFiles) return;
    const decoded = decodeCarried(bytes.toString('latin1'), this.maxFileBytes);
    if (!decoded) return;
    this.decodes++;
    if (mayBeScript(decoded)) this.found.push({ field, bytes: decoded });
  }

  /** The form ended: the candidate files, named by the form's name fields. */
  files(): UploadedFile[] {
    const sibling = formNamer(this.names);
    return this.found.map(({ field, bytes }) => ({ field, fileName: (sibling(field) || field || 'field').slice(0, 255), size: bytes.length, bytes, embedded: true as const }));
  }
}

/** The urlencoded pairs of a body (`+` as space, percent escapes decoded as UTF-8). */
export function urlencodedFields(text: string): CarriedField[] {
  return formFields([...new URLSearchParams(text)]);
}
