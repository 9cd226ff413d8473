import { parseMultipart, usableBoundary } from './multipart.ts';

/**
 * The parts of a multipart body past a window, read as the bytes come (a buffer, or a stream the
 * gateway forwards chunk by chunk), so that a text field sent after a large file is read without
 * holding the file: every part's headers and text fields are kept whole, a file only by its head.
 * The kept bytes are multipart again (each kept part from its delimiter on), to be appended to the
 * window and parsed as one body.
 *
 * Bounds: text (headers and text fields) up to `textBudget` bytes, file heads up to `fileBudget`
 * (past it a file keeps its headers only), `maxParts` parts. Running out of the text budget or of
 * parts stops the reading: what follows is unread, and `stopped` says so.
 */
export interface MultipartTailLimits {
  maxParts: number;
  /** Bytes of a file's content kept (the web-shell detector reads code from there). */
  fileHead: number;
  textBudget: number;
  fileBudget: number;
}

export interface MultipartTail {
  /** The kept parts, latin1, each from its delimiter; '' when none. */
  text: string;
  /** Something past the budgets was not read (a text field, a part's headers, parts past `maxParts`). */
  stopped: boolean;
  /** The bytes ended inside a text field or a part's headers: when the body was cut there, its rest is unread. */
  endsInText: boolean;
  /** Text fields and files seen (a part whose headers did not end is neither). */
  textParts: number;
  fileParts: number;
}

type State = 'preamble' | 'head' | 'text' | 'file' | 'epilogue' | 'stopped';

const crlf = Buffer.from('\r\n', 'latin1');
/** A part's headers are read up to this many bytes (browsers send a few hundred). */
const maxHeadBytes = 16 * 1024;

export class MultipartTailReader {
  private readonly delimiter: Buffer;
  private readonly kept: Buffer[] = [];
  /** The last bytes of a chunk that may begin a delimiter finished by the next chunk. */
  private carry: Buffer = Buffer.alloc(0);
  private state: State = 'preamble';
  private head: Buffer[] = [];
  private headSize = 0;
  /** The head's last bytes, where the blank line ending it may have begun. */
  private headTail: Buffer = Buffer.alloc(0);
  private textLeft: number;
  private fileLeft: number;
  private partLeft = 0;
  private fileCut = false;
  private parts = 0;
  private textParts = 0;
  private fileParts = 0;
  private stopped = false;

  private readonly boundary: string;
  private readonly limits: MultipartTailLimits;

  constructor(boundary: string, limits: MultipartTailLimits) {
    this.boundary = boundary;
    this.limits = limits;
    this.delimiter = Buffer.from('--' + boundary, 'latin1');
    this.textLeft = limits.textBudget;
    this.fileLeft = limits.fileBudget;
  }

  /** Reads the next bytes of the body. */
  push(chunk: Uint8Array): void {
    if (this.state === 'stopped' || chunk.length === 0) return;
    let bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let at = 0;
    if (this.carry.length > 0 && bytes.length < this.delimiter.length) {
      // A chunk shorter than a delimiter: read with what was carried, as one.
      bytes = Buffer.concat([this.carry, bytes]);
      this.carry = Buffer.alloc(0);
    } else if (this.carry.length > 0) {
      // A delimiter that began in the last chunk ends within the first bytes of this one.
      const seam = Buffer.concat([this.carry, bytes.subarray(0, this.delimiter.length - 1)]);
      const found = seam.indexOf(this.delimiter);
      const carried = this.carry;
      this.carry = Buffer.alloc(0);
      if (found < 0) this.partBytes(carried);
      else {
        this.partBytes(seam.subarray(0, found));
        this.startPart();
        if (this.stopped) return;
        at = found + this.delimiter.length - carried.length;
      }
    }
    for (;;) {
      const next = bytes.indexOf(this.delimiter, at);
      // Without a delimiter here, its first bytes may still end this chunk: they wait for the next one.
      const end = next < 0 ? Math.max(at, bytes.length - this.delimiter.length + 1) : next;
      this.partBytes(bytes.subarray(at, end));
      if (this.stopped) return;
      if (next < 0) {
        this.carry = Buffer.from(bytes.subarray(end));
        return;
      }
      this.startPart();
      if (this.stopped) return;
      at = next + this.delimiter.length;
    }
  }

  /** What was kept, once every byte was pushed (the bytes held back for a delimiter are read as they are). */
  result(): MultipartTail {
    if (this.carry.length > 0 && this.state !== 'stopped') {
      this.partBytes(this.carry);
      this.carry = Buffer.alloc(0);
    }
    const pending = this.state === 'head' ? Buffer.concat(this.head) : null;
    const text = this.kept.length === 0 && !pending ? '' : Buffer.concat(pending ? [...this.kept, pending] : this.kept).toString('latin1');
    return { text, stopped: this.stopped, endsInText: this.state === 'text' || this.state === 'head', textParts: this.textParts, fileParts: this.fileParts };
  }

  private stop(): void {
    // Headers cut short are kept: the reading ends inside them, which the caller counts as unread.
    if (this.state === 'head') this.keepHead();
    this.state = 'stopped';
    this.stopped = true;
  }

  private startPart(): void {
    if (this.stopped) return;
    this.endPart();
    if (this.parts >= this.limits.maxParts) return this.stop();
    this.parts++;
    this.state = 'head';
    this.head = [this.delimiter];
    this.headSize = 0;
    this.headTail = Buffer.alloc(0);
  }

  /** A file cut at its head gets a line break, so the next delimiter starts a line as it did. */
  private endPart(): void {
    if (this.state === 'head') this.keepHead();
    if (this.state === 'file' && this.fileCut) this.kept.push(crlf);
  }

  private keepHead(): void {
    this.kept.push(...this.head);
    this.head = [];
  }

  private partBytes(bytes: Buffer): void {
    if (bytes.length === 0) return;
    switch (this.state) {
      case 'head':
        return this.headBytes(bytes);
      case 'text':
        return this.textBytes(bytes);
      case 'file': {
        const take = Math.min(bytes.length, this.partLeft);
        if (take > 0) this.kept.push(Buffer.from(bytes.subarray(0, take)));
        this.partLeft -= take;
        this.fileLeft -= take;
        if (take < bytes.length) this.fileCut = true;
        return;
      }
      default:
        return; // the preamble and an epilogue are not read
    }
  }

  private headBytes(bytes: Buffer): void {
    // Headers longer than any form sends, or past the text budget: the part cannot be read.
    const room = Math.min(maxHeadBytes, this.textLeft) - this.headSize;
    const taken = bytes.length > room ? bytes.subarray(0, Math.max(0, room)) : bytes;
    const before = this.headSize;
    this.head.push(Buffer.from(taken));
    this.headSize += taken.length;
    // The closing delimiter `--boundary--`: what follows up to the next delimiter is the epilogue.
    if (before < 2 && this.headSize >= 2) {
      const first = Buffer.concat(this.head.slice(1));
      if (first[0] === 0x2d && first[1] === 0x2d) {
        this.textLeft -= 2;
        this.kept.push(this.delimiter, Buffer.from('--\r\n', 'latin1'));
        this.head = [];
        this.state = 'epilogue';
        return;
      }
    }
    // The blank line ending the headers is looked for in the new bytes and the last three before them
    // (not in the whole head again: headers sent a byte at a time cost no more than sent at once).
    const seam = this.headTail.length === 0 ? taken : Buffer.concat([this.headTail, taken]);
    const crlfEnd = seam.indexOf('\r\n\r\n', 0, 'latin1');
    const lfEnd = seam.indexOf('\n\n', 0, 'latin1');
    const ends = [crlfEnd < 0 ? -1 : crlfEnd + 4, lfEnd < 0 ? -1 : lfEnd + 2].filter((e) => e >= 0);
    if (ends.length === 0) {
      this.headTail = Buffer.from(seam.subarray(Math.max(0, seam.length - 3)));
      if (taken.length < bytes.length) this.stop();
      return;
    }
    const end = before - this.headTail.length + Math.min(...ends);
    const head = Buffer.concat(this.head.slice(1));
    this.textLeft -= end;
    const isFile = parseMultipart(this.delimiter.toString('latin1') + head.toString('latin1', 0, end), this.boundary, { maxParts: 1, maxFileHead: 0 })[0]?.fileName != null;
    this.head = [this.delimiter, Buffer.from(head.subarray(0, end))];
    this.keepHead();
    if (isFile) {
      this.state = 'file';
      this.fileParts++;
      this.partLeft = Math.min(this.limits.fileHead, Math.max(0, this.fileLeft));
      this.fileCut = false;
    } else {
      this.state = 'text';
      this.textParts++;
    }
    // What followed the headers: in this chunk's bytes past those the head held.
    this.partBytes(bytes.subarray(end - before));
  }

  private textBytes(bytes: Buffer): void {
    if (bytes.length > this.textLeft) {
      this.kept.push(Buffer.from(bytes.subarray(0, this.textLeft)));
      this.textLeft = 0;
      return this.stop();
    }
    this.kept.push(Buffer.from(bytes));
    this.textLeft -= bytes.length;
  }
}

/**
 * Where reading past a window resumes: the window's last delimiter, so that the part the window cut
 * is read again whole; the window's end when it holds none (a part longer than the window).
 */
export function resumeOffset(window: Buffer, boundary: string): number {
  const last = window.lastIndexOf('--' + boundary, undefined, 'latin1');
  return last >= 0 ? last : window.length;
}

/** The parts of `bytes` from the delimiter at or before `from`, read as above (inputs.ts, protocol/unread.ts). */
export function readMultipartTail(bytes: Buffer, from: number, boundary: string, limits: MultipartTailLimits): MultipartTail {
  if (!usableBoundary(boundary)) return { text: '', stopped: false, endsInText: false, textParts: 0, fileParts: 0 };
  const reader = new MultipartTailReader(boundary, limits);
  // A delimiter cut in two by the window's end is found whole here.
  reader.push(bytes.subarray(Math.max(0, from - boundary.length - 1)));
  return reader.result();
}
