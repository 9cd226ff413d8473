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
  /** A text field's value, or the head of a file's content (latin1-preserving for binary). */
  value: string;
}

export interface MultipartLimits {
  maxParts: number;
  maxFileHead: number;
}

function dispositionParam(header: string, param: string): string | null {
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

function latin1ToUtf8(text: string): string {
  return Buffer.from(text, 'latin1').toString('utf8');
}

export function parseMultipart(body: string, boundary: string, limits: MultipartLimits): MultipartPart[] {
  const parts: MultipartPart[] = [];
  if (!boundary || boundary.length > 200) return parts;
  const delimiter = '--' + boundary;
  let cursor = body.indexOf(delimiter);
  while (cursor >= 0 && parts.length < limits.maxParts) {
    let start = cursor + delimiter.length;
    if (body.startsWith('--', start)) break; // closing delimiter
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
    const fileName = dispositionParam(disposition, 'filename');
    parts.push({
      name: latin1ToUtf8(dispositionParam(disposition, 'name') ?? ''),
      fileName: fileName === null ? null : latin1ToUtf8(fileName),
      contentType,
      disposition: disposition.trim(),
      transferEncoding,
      value: fileName === null ? latin1ToUtf8(content) : latin1ToUtf8(content.slice(0, limits.maxFileHead)),
    });
    cursor = next;
  }
  return parts;
}
