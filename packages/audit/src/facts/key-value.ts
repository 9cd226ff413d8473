/**
 * The small config formats the checks read: `KEY value` (login.defs), `key = value` (pwquality,
 * sysctl) and INI sections (journald.conf). Each setting keeps its file and line for the evidence.
 */
export interface Setting {
  value: string;
  file: string;
  line: number;
}

/** login.defs: `KEY value`, `#` comments; the last occurrence wins, as shadow-utils' getdef reads it. */
export function parseSpaceSeparated(text: string, file: string): Map<string, Setting> {
  const settings = new Map<string, Setting>();
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = /^(\S+)\s+(.*?)\s*$/.exec(line);
    if (match) settings.set(match[1] as string, { value: (match[2] as string).replace(/^"(.*)"$/, '$1'), file, line: index + 1 });
  });
  return settings;
}

/** `key = value` files (pwquality.conf); later lines win. */
export function parseEquals(text: string, file: string, into = new Map<string, Setting>()): Map<string, Setting> {
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    const eq = line.indexOf('=');
    if (eq > 0) into.set(line.slice(0, eq).trim(), { value: line.slice(eq + 1).trim(), file, line: index + 1 });
    else into.set(line, { value: '', file, line: index + 1 });
  });
  return into;
}

/** systemd unit-style files: `[Section]` then `Key=Value`; returns `Section.Key` → setting, later wins. */
export function parseIni(text: string, file: string, into = new Map<string, Setting>()): Map<string, Setting> {
  let section = '';
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1] as string;
      return;
    }
    const eq = line.indexOf('=');
    if (eq > 0) into.set(`${section}.${line.slice(0, eq).trim()}`, { value: line.slice(eq + 1).trim(), file, line: index + 1 });
  });
  return into;
}
