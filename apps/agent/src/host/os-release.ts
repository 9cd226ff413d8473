/** Parses os-release(5) text into its KEY=value pairs; quotes and backslash escapes are undone. */
export function parseOsRelease(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq);
    if (!/^[A-Za-z0-9_]+$/.test(key)) continue;
    fields[key] = unquote(line.slice(eq + 1));
  }
  return fields;
}

function unquote(value: string): string {
  const quote = value[0];
  if ((quote === '"' || quote === "'") && value.endsWith(quote) && value.length >= 2) {
    const inner = value.slice(1, -1);
    // Single quotes are literal in shell; double quotes allow \" \\ \$ \` escapes.
    return quote === '"' ? inner.replace(/\\([\\"$`])/g, '$1') : inner;
  }
  return value;
}

/** The human-readable OS name: PRETTY_NAME, else NAME VERSION, else a fallback. */
export function prettyOsName(fields: Record<string, string>, fallback: string): string {
  if (fields.PRETTY_NAME) return fields.PRETTY_NAME;
  const joined = [fields.NAME, fields.VERSION].filter(Boolean).join(' ');
  return joined || fallback;
}
