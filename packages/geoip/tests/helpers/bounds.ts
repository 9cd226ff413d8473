/**
 * Independent of the package's own parser: reads range text back into numbers so tests can
 * check what the package produced.
 */
export function addressValue(text: string): bigint {
  if (!text.includes(':')) return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  if (groups.length !== 8) throw new Error(`not an IPv6 address: ${text}`);
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

export function addressText(value: bigint, family: 4 | 6): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 255n)).join('.');
  // Full, uncompressed form: every lookup path must accept it too.
  return [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((s) => ((value >> s) & 0xffffn).toString(16)).join(':');
}

/** `a/n` or `a-b` → inclusive bounds. */
export function rangeBounds(text: string): { start: bigint; end: bigint; family: 4 | 6 } {
  const family = text.includes(':') ? 6 : 4;
  const bits = family === 4 ? 32 : 128;
  if (text.includes('/')) {
    const [address = '', prefix = ''] = text.split('/');
    const start = addressValue(address);
    return { start, end: start + (1n << BigInt(bits - Number(prefix))) - 1n, family };
  }
  const [from = '', to = ''] = text.split('-');
  return { start: addressValue(from), end: addressValue(to), family };
}
