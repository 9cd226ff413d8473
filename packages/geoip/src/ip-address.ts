/**
 * IP address text ⇄ numbers. IPv4 is one unsigned 32-bit number; IPv6 is four 32-bit words,
 * most significant first, so the tables can hold both in Uint32Arrays without BigInt.
 */

/** Dotted quad → uint32, or null. Leading zeros are refused (some tools read them as octal). */
export function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

export function formatIPv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

export type Words128 = [number, number, number, number];

/** Any RFC 4291 text form (`::` compression, IPv4 tail) → four words, or null. No zone ids. */
export function parseIPv6(text: string): Words128 | null {
  if (text.length < 2 || text.length > 45) return null;
  let head = text;
  const tail: number[] = [];
  if (text.includes('.')) {
    const lastColon = text.lastIndexOf(':');
    if (lastColon < 0) return null;
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (v4 === null) return null;
    tail.push(v4 >>> 16, v4 & 0xffff);
    head = text.slice(0, lastColon + 1);
    // `::1.2.3.4` keeps its `::`; `64:ff9b:…:1.2.3.4` drops the separator colon.
    if (!head.endsWith('::')) head = head.slice(0, -1);
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (!/^[0-9A-Fa-f]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const left = groups(halves[0] ?? '');
  const right = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (!left || !right) return null;
  const given = left.length + right.length + tail.length;
  let all: number[];
  if (halves.length === 2) {
    if (given > 7) return null;
    all = [...left, ...new Array<number>(8 - given).fill(0), ...right, ...tail];
  } else {
    if (given !== 8) return null;
    all = [...left, ...tail];
  }
  const w = (i: number) => ((all[i]! << 16) | all[i + 1]!) >>> 0;
  return [w(0), w(2), w(4), w(6)];
}

/** `::ffff:a.b.c.d` (IPv4-mapped) carries an IPv4 address: its uint32, else null. */
export function mappedIPv4(words: Words128): number | null {
  return words[0] === 0 && words[1] === 0 && words[2] === 0xffff ? words[3] : null;
}

/** RFC 5952 text: lower case, the longest run of two or more zero groups as `::`. */
export function formatIPv6(words: ArrayLike<number>): string {
  const groups: number[] = [];
  for (let i = 0; i < 4; i++) groups.push(words[i]! >>> 16, words[i]! & 0xffff);
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (list: number[]) => list.map((g) => g.toString(16)).join(':');
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLength))}`;
}

export function wordsToBigInt(words: ArrayLike<number>, at = 0): bigint {
  let value = 0n;
  for (let i = 0; i < 4; i++) value = (value << 32n) | BigInt(words[at + i]! >>> 0);
  return value;
}

export function compareWords(a: ArrayLike<number>, b: ArrayLike<number>): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}
