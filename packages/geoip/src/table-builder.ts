import type { RangeTable } from './range-table.ts';

/**
 * Collects rows into growing typed arrays, then hands out a sorted RangeTable. Adjacent rows with
 * the same label are joined as they come, which roughly halves the ip2region province table.
 */
export class TableBuilder {
  readonly width: 1 | 4;
  private starts: Uint32Array;
  private ends: Uint32Array;
  private labelIndex: Uint16Array;
  private rows = 0;
  private readonly labels: string[] = [];
  private readonly labelIds = new Map<string, number>();

  constructor(width: 1 | 4, expectedRows = 1024) {
    this.width = width;
    this.starts = new Uint32Array(expectedRows * width);
    this.ends = new Uint32Array(expectedRows * width);
    this.labelIndex = new Uint16Array(expectedRows);
  }

  add(start: ArrayLike<number>, end: ArrayLike<number>, label: string): void {
    const { width } = this;
    let id = this.labelIds.get(label);
    if (id === undefined) {
      id = this.labels.length;
      if (id > 0xffff) throw new Error('geoip: too many distinct labels in one table');
      this.labels.push(label);
      this.labelIds.set(label, id);
    }
    if (this.rows > 0 && this.labelIndex[this.rows - 1] === id && this.followsLast(start)) {
      this.ends.set(toWords(end, width), (this.rows - 1) * width);
      return;
    }
    if (this.rows === this.labelIndex.length) this.grow();
    this.starts.set(toWords(start, width), this.rows * width);
    this.ends.set(toWords(end, width), this.rows * width);
    this.labelIndex[this.rows] = id;
    this.rows++;
  }

  /** True when `start` is the address right after the last row's end. */
  private followsLast(start: ArrayLike<number>): boolean {
    const { width } = this;
    const at = (this.rows - 1) * width;
    // end + 1 == start, word by word from the least significant, carrying while a word overflows.
    let carry = 1;
    for (let i = width - 1; i >= 0; i--) {
      const sum = this.ends[at + i]! + carry;
      const word = sum >>> 0;
      carry = sum > 0xffffffff ? 1 : 0;
      if (word !== start[i]) return false;
    }
    return carry === 0;
  }

  private grow(): void {
    const size = this.labelIndex.length * 2;
    const grow32 = (old: Uint32Array) => {
      const next = new Uint32Array(size * this.width);
      next.set(old);
      return next;
    };
    this.starts = grow32(this.starts);
    this.ends = grow32(this.ends);
    const labelIndex = new Uint16Array(size);
    labelIndex.set(this.labelIndex);
    this.labelIndex = labelIndex;
  }

  /** The finished table, sorted by start (sources are normally sorted already; checked, not trusted). */
  build(): RangeTable {
    const { width, rows } = this;
    const table: RangeTable = {
      width,
      rows,
      starts: this.starts.slice(0, rows * width),
      ends: this.ends.slice(0, rows * width),
      labelIndex: this.labelIndex.slice(0, rows),
      labels: [...this.labels],
    };
    return isSorted(table) ? table : sortTable(table);
  }
}

function toWords(value: ArrayLike<number>, width: number): ArrayLike<number> {
  if (value.length !== width) throw new Error(`geoip: address has ${value.length} words, table wants ${width}`);
  return value;
}

function compareRows(t: RangeTable, a: number, b: number): number {
  for (let i = 0; i < t.width; i++) {
    const x = t.starts[a * t.width + i]!;
    const y = t.starts[b * t.width + i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function isSorted(t: RangeTable): boolean {
  for (let i = 1; i < t.rows; i++) if (compareRows(t, i - 1, i) > 0) return false;
  return true;
}

function sortTable(t: RangeTable): RangeTable {
  const order = Array.from({ length: t.rows }, (_, i) => i).sort((a, b) => compareRows(t, a, b));
  const starts = new Uint32Array(t.starts.length);
  const ends = new Uint32Array(t.ends.length);
  const labelIndex = new Uint16Array(t.rows);
  order.forEach((from, to) => {
    starts.set(t.starts.subarray(from * t.width, (from + 1) * t.width), to * t.width);
    ends.set(t.ends.subarray(from * t.width, (from + 1) * t.width), to * t.width);
    labelIndex[to] = t.labelIndex[from]!;
  });
  return { ...t, starts, ends, labelIndex };
}
