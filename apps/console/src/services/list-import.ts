import { parseAddressEntry } from '@rampart/contracts';

/**
 * An uploaded list: one address per line (single, CIDR or range); `#` starts a comment; blank
 * lines are skipped. The first bad line is reported with its number, and nothing is added.
 */
export function parseImportText(content: string): { addresses: string[]; invalid: { line: number; text: string } | null } {
  const addresses: string[] = [];
  const lines = content.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const text = (lines[i] ?? '').replace(/#.*$/, '').trim();
    if (text === '') continue;
    const entry = parseAddressEntry(text);
    if (!entry || entry.kind === 'any') return { addresses: [], invalid: { line: i + 1, text: text.slice(0, 60) } };
    addresses.push(text);
  }
  return { addresses, invalid: null };
}
