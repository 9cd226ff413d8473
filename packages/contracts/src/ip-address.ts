import { isIPv4, isIPv6 } from './validators.ts';

/**
 * Address entries as administrators type them in rules and lists, one per line:
 * a single address, a CIDR block, a range `a-b` of one family, or `*` for every address.
 */
export type AddressEntry =
  | { kind: 'any' }
  | { kind: 'host'; family: 4 | 6; address: string }
  | { kind: 'cidr'; family: 4 | 6; address: string; prefix: number }
  | { kind: 'range'; family: 4 | 6; from: string; to: string };

/** The address as a number: 32 bits for IPv4, 128 for IPv6. Null when it is not an address. */
export function addressToBigInt(address: string): bigint | null {
  if (isIPv4(address)) return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(part), 0n);
  if (!isIPv6(address)) return null;
  let text = address;
  if (text.includes('.')) {
    const lastColon = text.lastIndexOf(':');
    const v4 = addressToBigInt(text.slice(lastColon + 1)) ?? 0n;
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

export function addressFamily(address: string): 4 | 6 | null {
  if (isIPv4(address)) return 4;
  if (isIPv6(address)) return 6;
  return null;
}

/** Parses one entry; null when it is not valid. Host bits set in a CIDR (`10.0.0.1/8`) are refused: they hide typos. */
export function parseAddressEntry(raw: string): AddressEntry | null {
  const text = raw.trim();
  if (text === '*') return { kind: 'any' };
  const slash = text.indexOf('/');
  if (slash >= 0) {
    const address = text.slice(0, slash);
    const family = addressFamily(address);
    const bits = text.slice(slash + 1);
    if (!family || !/^\d{1,3}$/.test(bits)) return null;
    const prefix = Number(bits);
    const width = family === 4 ? 32 : 128;
    if (prefix > width) return null;
    const value = addressToBigInt(address) ?? 0n;
    const hostMask = (1n << BigInt(width - prefix)) - 1n;
    if ((value & hostMask) !== 0n) return null;
    return prefix === width ? { kind: 'host', family, address } : { kind: 'cidr', family, address, prefix };
  }
  const dash = text.indexOf('-');
  if (dash >= 0) {
    const from = text.slice(0, dash).trim();
    const to = text.slice(dash + 1).trim();
    const family = addressFamily(from);
    if (!family || addressFamily(to) !== family) return null;
    const start = addressToBigInt(from) ?? 0n;
    const end = addressToBigInt(to) ?? 0n;
    if (start > end) return null;
    return start === end ? { kind: 'host', family, address: from } : { kind: 'range', family, from, to };
  }
  const family = addressFamily(text);
  return family ? { kind: 'host', family, address: text } : null;
}

/** The first and last address an entry covers, as numbers; null for `*`. */
export function entryBounds(entry: AddressEntry): { family: 4 | 6; start: bigint; end: bigint } | null {
  switch (entry.kind) {
    case 'any':
      return null;
    case 'host': {
      const value = addressToBigInt(entry.address) ?? 0n;
      return { family: entry.family, start: value, end: value };
    }
    case 'cidr': {
      const width = entry.family === 4 ? 32 : 128;
      const start = addressToBigInt(entry.address) ?? 0n;
      return { family: entry.family, start, end: start + (1n << BigInt(width - entry.prefix)) - 1n };
    }
    case 'range':
      return { family: entry.family, start: addressToBigInt(entry.from) ?? 0n, end: addressToBigInt(entry.to) ?? 0n };
  }
}

/** Does the entry cover this address? */
export function entryCovers(entry: AddressEntry, address: string): boolean {
  if (entry.kind === 'any') return addressFamily(address) !== null;
  const bounds = entryBounds(entry);
  const value = addressToBigInt(address);
  if (!bounds || value === null || addressFamily(address) !== bounds.family) return false;
  return value >= bounds.start && value <= bounds.end;
}
