/** An inclusive address range as integers (IPv4 or IPv6 alike). */
export type BigRange = [start: bigint, end: bigint];

/** Sorts ranges and joins those that overlap or touch (end + 1 == next start). */
export function mergeRanges(ranges: BigRange[]): BigRange[] {
  const sorted = [...ranges].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const merged: BigRange[] = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last && start <= last[1] + 1n) {
      if (end > last[1]) last[1] = end;
    } else {
      merged.push([start, end]);
    }
  }
  return merged;
}
