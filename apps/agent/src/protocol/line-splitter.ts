/**
 * Splits a byte stream into newline-terminated lines without ever holding more than
 * `maxLineBytes` of an unfinished line. Lines are handed over as raw bytes; decoding and
 * parsing is the caller's business.
 */
export class LineSplitter {
  readonly #maxLineBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /**
   * Feeds a chunk; returns the complete lines in it, and `overflow: true` as soon as a line
   * exceeds the limit (the splitter then holds nothing and should not be fed again).
   */
  push(chunk: Buffer): { lines: Buffer[]; overflow: boolean } {
    const lines: Buffer[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline < 0) break;
      const piece = chunk.subarray(start, newline);
      if (this.#pendingBytes + piece.length > this.#maxLineBytes) return this.#overflow(lines);
      lines.push(this.#pendingBytes ? Buffer.concat([...this.#pending, piece]) : piece);
      this.#pending = [];
      this.#pendingBytes = 0;
      start = newline + 1;
    }
    const rest = chunk.subarray(start);
    if (this.#pendingBytes + rest.length > this.#maxLineBytes) return this.#overflow(lines);
    if (rest.length) {
      // Copy: the socket may reuse the chunk's memory.
      this.#pending.push(Buffer.from(rest));
      this.#pendingBytes += rest.length;
    }
    return { lines, overflow: false };
  }

  #overflow(lines: Buffer[]): { lines: Buffer[]; overflow: boolean } {
    this.#pending = [];
    this.#pendingBytes = 0;
    return { lines, overflow: true };
  }
}
