/**
 * Header fields of both protocols are ASCII by grammar. Each character outside what a field
 * allows becomes `_` (so the field stays recognisable rather than silently shrinking), then the
 * field is cut to its RFC length. An empty field is the NILVALUE `-`.
 */
function asciiField(value: string | undefined, maxLength: number, allowed: (code: number) => boolean): string {
  let out = '';
  for (const ch of value ?? '') {
    if (out.length >= maxLength) break;
    out += allowed(ch.codePointAt(0) ?? 0) ? ch : '_';
  }
  return out === '' ? '-' : out;
}

/** PRINTUSASCII, %d33-126: no space, no control, nothing beyond ASCII. */
const printable = (code: number): boolean => code >= 33 && code <= 126;

/** SD-NAME: PRINTUSASCII except `=`, SP, `]` and `"` (RFC 5424 §6.3.2). */
const sdNameChar = (code: number): boolean => printable(code) && code !== 0x3d && code !== 0x5d && code !== 0x22;

/** RFC 5424 limits: HOSTNAME 255, APP-NAME 48, PROCID 128, MSGID 32. */
export const headerField = (value: string | undefined, maxLength: number): string => asciiField(value, maxLength, printable);

/** RFC 3164 TAG: at most 32 alphanumeric characters; others are left out, `-` if none remain. */
export function tag(appName: string): string {
  const kept = appName.replace(/[^A-Za-z0-9]/g, '').slice(0, 32);
  return kept === '' ? '-' : kept;
}

/** The PID between the TAG's brackets: printable, without the brackets and colon that delimit it. */
export const pid = (procId: string): string => asciiField(procId, 128, (c) => printable(c) && c !== 0x5b && c !== 0x5d && c !== 0x3a);

/** One message is one line: receivers and their files split on line breaks. */
export const oneLine = (text: string): string => text.replace(/\r\n|[\r\n]/g, ' ');

/** PARAM-VALUE escapes `"`, `\` and `]` with a backslash (RFC 5424 §6.3.3). */
const paramValue = (value: string): string => oneLine(value).replace(/["\\\]]/g, '\\$&');

/**
 * STRUCTURED-DATA: `[SD-ID PARAM="value" ...]...`, `-` when there is none. SD-IDs are written as
 * given (callers pass their own `name@enterprise`), only made grammatical. PARAM-VALUE is UTF-8
 * whatever the MSG charset: RFC 5424 §6.3.3 says so.
 */
export function structuredData(data: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined): string {
  let out = '';
  for (const [id, params] of Object.entries(data ?? {})) {
    if (id === '') continue;
    out += `[${asciiField(id, 32, sdNameChar)}`;
    for (const [name, value] of Object.entries(params)) {
      if (name !== '') out += ` ${asciiField(name, 32, sdNameChar)}="${paramValue(value)}"`;
    }
    out += ']';
  }
  return out === '' ? '-' : out;
}
