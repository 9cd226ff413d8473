/**
 * Cuts a byte stream into text lines. Bytes are kept until their newline arrives, so a line written
 * in two pieces (or a UTF-8 character split across reads) comes out whole. A line longer than
 * `maxLineBytes` is dropped rather than held: memory stays bounded whatever a log contains.
 */
export class LineSplitter {
  readonly #maxLineBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #discarding = false;
  /** Lines dropped for being too long. */
  overlong = 0;

  constructor(maxLineBytes = 64 * 1024) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Bytes received but not yet handed out as a line (or being discarded). */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline < 0) break;
      const piece = chunk.subarray(start, newline);
      if (this.#discarding || this.#pendingBytes + piece.length > this.#maxLineBytes) {
        if (!this.#discarding) this.overlong++;
        this.#discarding = false;
      } else {
        lines.push(decode(this.#pendingBytes ? Buffer.concat([...this.#pending, piece]) : piece));
      }
      this.#pending = [];
      this.#pendingBytes = 0;
      start = newline + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0) return lines;
    if (!this.#discarding && this.#pendingBytes + rest.length > this.#maxLineBytes) {
      this.overlong++;
      this.#discarding = true;
      this.#pending = [];
    }
    // Copied: the reader may reuse the chunk's memory. While discarding, only the count is kept.
    if (!this.#discarding) this.#pending.push(Buffer.from(rest));
    this.#pendingBytes += rest.length;
    return lines;
  }

  /** Hands out an unfinished last line (its stream has ended), if there is one. */
  flush(): string | undefined {
    const line = this.#pendingBytes && !this.#discarding ? decode(Buffer.concat(this.#pending)) : undefined;
    this.reset();
    return line;
  }

  reset(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#discarding = false;
  }
}

function decode(bytes: Buffer): string {
  const end = bytes.length && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
  return bytes.toString('utf8', 0, end);
}
