/**
 * Collects newline-terminated lines from a byte stream, refusing (returning `overflow`) once an
 * unfinished line passes `maxLineBytes`, so a misbehaving peer cannot make the client buffer
 * without bound.
 */
export class ResponseLines {
  readonly #maxLineBytes: number;
  #pending: Buffer = Buffer.alloc(0);

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  push(chunk: Buffer): { lines: string[]; overflow: boolean } {
    const data = this.#pending.length ? Buffer.concat([this.#pending, chunk]) : chunk;
    const lines: string[] = [];
    let start = 0;
    for (let newline = data.indexOf(0x0a); newline >= 0; newline = data.indexOf(0x0a, start)) {
      if (newline - start > this.#maxLineBytes) return { lines, overflow: true };
      lines.push(data.subarray(start, newline).toString('utf8'));
      start = newline + 1;
    }
    if (data.length - start > this.#maxLineBytes) return { lines, overflow: true };
    this.#pending = Buffer.from(data.subarray(start));
    return { lines, overflow: false };
  }
}
