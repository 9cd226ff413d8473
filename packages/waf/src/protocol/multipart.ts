/**
 * multipart/form-data as parsers disagree on it (CRS 920120/920121, 922100-922120): quotes and
 * semicolons inside names that one parser ends the name at and another does not, two `filename`
 * parameters, a charset on a text field (`utf-7`, `utf-16`: the application decodes what the WAF
 * read as bytes), the `_charset_` field that switches a whole form's charset, and
 * Content-Transfer-Encoding (RFC 7578 §4.7 deprecates it; base64 hides the value from filters).
 *
 * Severities: two filenames, base64/quoted-printable transfer encodings, UTF-7/EBCDIC/UTF-16/32 on
 * text fields or `_charset_`: 2 (browsers never send them). Odd characters in names (a real user's
 * "John's CV.pdf" has an apostrophe), other charsets, `binary`/`8bit` (old Java clients): 1.
 */
import { decodeContentEncoding } from '../parse/body-encoding.ts';
import { parseMultipart, type MultipartPart } from '../parse/multipart.ts';
import { parseContentType } from '../parse/content-type.ts';
import { dangerousCharset } from './headers.ts';
import { protocolHit, strongest, type ProtocolHit } from './hit.ts';
import { header, type RequestView } from './view.ts';

const maxBytes = 1 << 20;

/** Charsets that a text field must not be re-decoded from: filters read bytes, the application reads these. */
function evasiveCharset(charset: string): boolean {
  return dangerousCharset(charset) || /^(?:utf-?(?:16|32)(?:[lb]e)?|ucs-?[24])$/i.test(charset.trim().replace(/^"|"$/g, ''));
}

const commonCharset = /^"?(?:utf-?8|us-ascii|iso-?8859-15?|windows-1252)"?$/i;

function partCharset(contentType: string): string | null {
  return /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType)?.[2] ?? null;
}

function checkPart(part: MultipartPart): ProtocolHit | null {
  const where = { location: part.fileName === null ? ('body_name' as const) : ('file_name' as const), name: part.name };
  if ((part.disposition.toLowerCase().match(/(?:^|[;\s])filename\s*=/g) ?? []).length > 1) return protocolHit('protocol.multipart_filename_repeated', 2, where, part.disposition);
  const encoding = part.transferEncoding.toLowerCase();
  if (encoding === 'base64' || encoding === 'quoted-printable') return protocolHit('protocol.multipart_transfer_encoding', 2, where, part.transferEncoding);
  const charset = partCharset(part.contentType);
  if (charset !== null) {
    if (part.fileName === null && evasiveCharset(charset)) return protocolHit('protocol.multipart_charset', 2, where, part.contentType);
    if (dangerousCharset(charset)) return protocolHit('protocol.multipart_charset', 2, where, part.contentType);
    // Browsers never label a text field's charset; a multi-byte one (Shift_JIS, EUC) can swallow the
    // quote or backslash a filter saw, so on a text field it is evasion, on a file merely odd.
    if (!commonCharset.test(charset)) return protocolHit('protocol.multipart_charset', part.fileName === null ? 2 : 1, where, part.contentType);
  }
  if (part.name === '_charset_' && part.fileName === null) {
    const value = part.value.trim();
    if (evasiveCharset(value)) return protocolHit('protocol.multipart_charset', 2, where, value);
    if (!commonCharset.test(value)) return protocolHit('protocol.multipart_charset', 1, where, value);
  }
  if (encoding !== '') return protocolHit('protocol.multipart_transfer_encoding', 1, where, part.transferEncoding);
  // A quote, '=' or ';' inside a name: where one parser ends the name another does not (CRS 920120).
  // Entities (`&auml;`, `&amp;`) end in ';' legitimately. A field name comes from the site's own
  // form, so such a name is forged (2); a file name is the user's ("John's CV.pdf"), so only odd (1).
  const odd = (text: string) => /["';=]/.test(text.replace(/&[a-z]{2,8};/gi, ''));
  if (odd(part.name)) return protocolHit('protocol.multipart_name_chars', 2, where, part.name);
  // A backslash in a field name (`cv.p\d\f`): parsers that unescape it read another name than the
  // WAF did (CRS 920120/920121). In a file name it is how old IE sent the client's path
  // (`C:\Users\me\cv.pdf`); one that is no such path is odd. Inside the extension (`1.j\s\p`) it
  // changes the file's type by reader: a quoted-string parser (RFC 9110 §5.6.4: Go, Python's email
  // package) unescapes it to `1.jsp` while an extension filter saw `.j\s\p`. No system writes one
  // there (Windows forbids the character, Go and curl double their own): 2.
  if (part.name.includes('\\')) return protocolHit('protocol.multipart_name_chars', 2, where, part.name);
  if (part.fileName !== null && part.fileName.includes('\\') && !/^(?:[a-z]:\\|\\\\)/i.test(part.fileName)) {
    const extension = /\.([^.]*)$/.exec(part.fileName)?.[1] ?? '';
    const hidesExtension = /\\[a-z0-9]/i.test(extension) && !extension.includes('\\\\');
    return protocolHit('protocol.multipart_name_chars', hidesExtension ? 2 : 1, where, part.fileName);
  }
  if (part.fileName !== null && odd(part.fileName)) return protocolHit('protocol.multipart_name_chars', 1, where, part.fileName);
  return null;
}

export function checkMultipart(view: RequestView): ProtocolHit | null {
  if (view.body === null || view.body.length === 0) return null;
  const type = parseContentType(header(view, 'content-type'));
  if (!type.mediaType.startsWith('multipart/')) return null;
  const boundary = type.params.boundary;
  if (!boundary) return protocolHit('protocol.multipart_no_boundary', 1, { location: 'header', name: 'Content-Type' }, header(view, 'content-type') ?? '');
  // A compressed form is checked inflated, as it is read (parse/body-encoding.ts).
  const bytes = decodeContentEncoding(view.body, view.headers.get('content-encoding')?.join(', '), maxBytes).bytes.subarray(0, maxBytes);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const parts = parseMultipart(text, boundary, { maxParts: 512, maxFileHead: 256 });
  if (parts.length === 0 && !text.includes('--' + boundary)) return protocolHit('protocol.multipart_malformed', 1, { location: 'raw_body' }, text.slice(0, 80));
  return strongest(parts.map(checkPart));
}
