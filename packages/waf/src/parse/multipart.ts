/**
 * multipart/form-data (RFC 7578), tolerant: the body is read as latin1 so any byte survives,
 * parts are cut at `--boundary`, part headers are read up to the blank line, and field values are
 * turned back into UTF-8. A file part gives its file name and the head of its content (the
 * web-shell detector reads code from there); a truncated last part is still reported.
 */
export interface MultipartPart {
  name: string;
  fileName: string | null;
  contentType: string;
  /** The raw Content-Disposition value (the protocol checks read its quoting). */
  disposition: string;
  /** Content-Transfer-Encoding, '' when absent (RFC 7578 §4.7: deprecated, a filter-evasion trick). */
  transferEncoding: string;
  /** `filename*` when it names another file than `filename` (parsers differ on which wins). */
  otherFileName?: string;
  /** A text field's value, or the head of a file's content (latin1-preserving for binary). */
  value: string;
}

export interface MultipartLimits {
  maxParts: number;
  maxFileHead: number;
}

export function dispositionParam(header: string, param: string): string | null {
  // name="x" / filename="x" / filename*=UTF-8''x; scan by hand (quotes may hold ';').
  const lower = header.toLowerCase();
  let from = 0;
  for (;;) {
    const at = lower.indexOf(param + '=', from);
    if (at < 0) return null;
    const before = lower[at - 1];
    from = at + param.length + 1;
    if (before !== undefined && before !== ';' && before !== ' ' && before !== '\t') continue;
    if (header[from] === '"') {
      let value = '';
      for (let i = from + 1; i < header.length; i++) {
        // Browsers send backslashes raw (a UNC path stays \\host\share); only \" is read as an escaped quote.
        if (header[i] === '\\' && header[i + 1] === '"') value += header[++i];
        else if (header[i] === '"') return value;
        else value += header[i];
      }
      return value;
    }
    const end = header.indexOf(';', from);
    return header.slice(from, end < 0 ? undefined : end).trim();
  }
}

/**
 * An RFC 2231 / RFC 5987 extended parameter: `filename*=UTF-8''%E2%82%AC.txt`, or continued
 * (`filename*0*=UTF-8''a; filename*1=b`). RFC 7578 forbids it in forms, but urllib3 before 1.25 wrote
 * it for non-ASCII file names and parsers that follow RFC 6266 prefer it over `filename`, so what it
 * names must be read too. Null when absent. Returned as latin1 bytes, like the plain parameters.
 */
export function extendedParam(header: string, param: string): string | null {
  const pattern = new RegExp(`(?:^|[;\\s])${param}\\*(?:(\\d{1,3})(\\*)?|)\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"|[^;]*)`, 'gi');
  const pieces: { index: number; encoded: boolean; value: string }[] = [];
  for (const m of header.matchAll(pattern)) {
    const continued = m[1] !== undefined;
    // `name*=` (no index) is encoded; `name*0=` is plain unless written `name*0*=`.
    const encoded = continued ? m[2] === '*' : true;
    let value = m[3]!.trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    pieces.push({ index: continued ? Number(m[1]) : 0, encoded, value });
    if (pieces.length >= 64) break;
  }
  if (pieces.length === 0) return null;
  pieces.sort((a, b) => a.index - b.index);
  let charset = 'utf-8';
  let out = '';
  pieces.forEach((piece, i) => {
    let value = piece.value;
    if (piece.encoded && i === 0) {
      // charset'language'value
      const parts = /^([^']*)'[^']*'(.*)$/s.exec(value);
      if (parts) {
        charset = parts[1]!.toLowerCase() || 'utf-8';
        value = parts[2]!;
      }
    }
    if (piece.encoded) value = value.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    out += value;
  });
  // Latin-1 names are turned into UTF-8 bytes, so the caller's latin1 → UTF-8 step reads them right.
  return /^(?:iso-8859-1|latin-?1)$/.test(charset) ? Buffer.from(out, 'utf8').toString('latin1') : out;
}

function latin1ToUtf8(text: string): string {
  return Buffer.from(text, 'latin1').toString('utf8');
}

/** A boundary the readers use: RFC 2046 allows 70 characters; past 200 it is no client's (nothing is read). */
export function usableBoundary(boundary: string): boolean {
  return boundary.length > 0 && boundary.length <= 200;
}

export function parseMultipart(body: string, boundary: string, limits: MultipartLimits): MultipartPart[] {
  const parts: MultipartPart[] = [];
  if (!usableBoundary(boundary)) return parts;
  const delimiter = '--' + boundary;
  let cursor = body.indexOf(delimiter);
  while (cursor >= 0 && parts.length < limits.maxParts) {
    let start = cursor + delimiter.length;
    if (body.startsWith('--', start)) {
      // The closing delimiter. Parts after it (an epilogue laid out as parts) are read too: parsers
      // that do not stop there (ModSecurity flags such data as MULTIPART_DATA_AFTER) hand them on.
      cursor = body.indexOf(delimiter, start + 2);
      continue;
    }
    if (body[start] === '\r') start++;
    if (body[start] === '\n') start++;
    const next = body.indexOf(delimiter, start);
    const end = next < 0 ? body.length : next;
    let headEnd = body.indexOf('\r\n\r\n', start);
    let sepLength = 4;
    const lfHead = body.indexOf('\n\n', start);
    if (headEnd < 0 || (lfHead >= 0 && lfHead < headEnd)) {
      headEnd = lfHead;
      sepLength = 2;
    }
    if (headEnd < 0 || headEnd > end) {
      cursor = next;
      continue;
    }
    let disposition = '';
    let contentType = '';
    let transferEncoding = '';
    for (const line of body.slice(start, headEnd).split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      if (name === 'content-disposition') disposition = line.slice(colon + 1);
      else if (name === 'content-type') contentType = line.slice(colon + 1).trim();
      else if (name === 'content-transfer-encoding') transferEncoding = line.slice(colon + 1).trim();
    }
    let content = body.slice(headEnd + sepLength, end);
    if (next >= 0) content = content.replace(/\r?\n$/, '');
    const plainFileName = dispositionParam(disposition, 'filename');
    const extendedFileName = extendedParam(disposition, 'filename');
    const fileName = plainFileName ?? extendedFileName;
    parts.push({
      name: latin1ToUtf8(dispositionParam(disposition, 'name') ?? extendedParam(disposition, 'name') ?? ''),
      fileName: fileName === null ? null : latin1ToUtf8(fileName),
      contentType,
      disposition: disposition.trim(),
      transferEncoding,
      value: fileName === null ? latin1ToUtf8(content) : latin1ToUtf8(content.slice(0, limits.maxFileHead)),
      ...(plainFileName !== null && extendedFileName !== null && extendedFileName !== plainFileName ? { otherFileName: latin1ToUtf8(extendedFileName) } : {}),
    });
    cursor = next;
  }
  return parts;
}
