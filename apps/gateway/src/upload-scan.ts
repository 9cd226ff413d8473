/**
 * Uploaded files scanned by the web-shell engine (@rampart/webshell) before the origin has the
 * request's last byte, so that a web shell never lands on a protected site.
 *
 * Every file part of a multipart upload is cut out whole as the body streams (UploadFiles), up to
 * `maxFileBytes` (the engine's default size threshold, 2 MiB): larger parts are not scanned (the WAF
 * engine still judges their name and head). The engine decides by content and name: a script
 * extension, script content under any name, script hidden in an image (its classify / polyglot
 * stage). Risk high or medium (contracts isFlaggedRisk) refuses the request as a `webshell_upload`
 * attack (rule `webshell_upload.engine`).
 *
 * Where: a body that ended within the window is scanned whole before it is forwarded (proxy.ts);
 * a longer one is forwarded as it streams through `scannedUpload`, which scans each file as soon as
 * its part ends and holds the body's last chunk until every file has its verdict, so a refusal fails
 * the upstream request before the origin's application runs (as upload-tail.ts does for the WAF).
 *
 * The engine's PHP analysis is synchronous and cannot be interrupted (php-parser and the data-flow
 * walk: ~70 ms of CPU for an ordinary 50 KB plugin file, far more for a large or pathological one;
 * a 1 MB photo costs ~13 ms of signatures and sniffing, bench/gateway-upload-scan.ts): on the event
 * loop that would stall every other request of the process. So files go to one scan thread per
 * gateway process (upload-scan-worker.ts), one file at a time. The thread costs ~80 MiB (the engine,
 * its compiled rules, an isolate) and a second or so to start: it starts with the first upload and
 * stops after `idleStopMs` without one. A file that overruns its time budget has the thread stopped and
 * replaced and passes unscanned (fail open, as the WAF engine does on an error: an upload must
 * not hang). Whitelisted requests (a list let them in) are not scanned, as they are not inspected.
 *
 * A raw upload (a PUT, or a POST/PATCH whose body is a script or image type; WebDAV, S3-style
 * and media upload APIs) is one file, named by its Content-Disposition or
 * the URL's last segment (RawUpload): a PUT of `/uploads/x.php` is scanned as `x.php`.
 *
 * The administrator's custom library (the trojan module's YARA rules and SHA-256 list, stored by
 * the agent) comes with the configuration (policy.custom_library, written by the console, which
 * pushes it at once when the library is saved): the scan thread compiles it once when it starts, a
 * changed library retires the thread (useLibrary), and one that does not compile leaves the built-in
 * rules scanning and is logged once.
 *
 * Files carried inside form or JSON fields as base64 (a `{"file":"<base64>","name":"x.php"}` or a
 * `data:` URL an application decodes and writes) are scanned as uploads too (embedded-files.ts):
 * multipart text fields as they stream, JSON and urlencoded bodies that ended within the window;
 * only values that decode to script or a polyglot image reach the engine, at most a few per request.
 *
 * Not here: compressed (Content-Encoding) bodies, base64 Content-Transfer-Encoding parts (origins do
 * not decode either; the WAF engine flags the latter), JSON or urlencoded bodies longer than the
 * window (they stream unread), base64 nested twice or in other encodings (hex, gzip then base64).
 */
import { Worker } from 'node:worker_threads';
import { isFlaggedRisk, type TrojanLibrary, type WebshellFileResult } from '@rampart/contracts';
import { dispositionParam, extendedParam, headerValue, type Decision, type WafRequest } from '@rampart/waf';
import type { RenderedResponse } from './block-response.ts';
import { CarriedFormFields, carriedFiles, jsonFields, maxBodyBytes, maxTextPartBytes, urlencodedFields } from './embedded-files.ts';
import type { ScanAnswer, ScanJob, ScanWorkerInit } from './upload-scan-protocol.ts';
import { uploadRefused } from './upload-tail.ts';

export interface UploadScanLimits {
  /** File parts larger than this are not scanned. */
  maxFileBytes: number;
  /** Per file: past it (plus a grace) the scan thread is stopped and the file passes unscanned. */
  timeBudgetMs: number;
  /** PHP files larger than this get signatures but no parse; absent: the engine's default (1 MiB). */
  parserMaxBytes?: number;
  /** Over the budget before the thread is stopped (posting the bytes costs a little). */
  graceMs?: number;
}

// The engine itself (@rampart/webshell: yara-x, php-parser) is loaded in the scan thread only.
export const defaultUploadScanLimits: UploadScanLimits = { maxFileBytes: 2 * 1024 * 1024, timeBudgetMs: 2000 };

/** One file part of an upload; `bytes` is null when it was over the size cap (not scanned). */
export interface UploadedFile {
  field: string;
  fileName: string;
  size: number;
  bytes: Buffer | null;
  /** Decoded out of a form or JSON field (embedded-files.ts): scanned only if the engine classifies it as script or a polyglot image. */
  embedded?: true;
}

/** A part's headers are read up to this many bytes (browsers send a few hundred). */
const maxHeadBytes = 16 * 1024;

/** A part's Content-Disposition value (latin1 text; '' when it has none). */
function dispositionOf(head: string): string {
  let disposition = '';
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === 'content-disposition') disposition = line.slice(colon + 1);
  }
  return disposition;
}

/** The field and file name of a part's headers (latin1 text); null for a part that is no file. */
function fileOfHead(head: string): { field: string; fileName: string } | null {
  const disposition = dispositionOf(head);
  // Both readings are latin1 bytes (the WAF's multipart reader's), turned into UTF-8 text here.
  const plain = dispositionParam(disposition, 'filename');
  const extended = extendedParam(disposition, 'filename');
  if (plain === null && extended === null) return null;
  const utf8 = (text: string) => Buffer.from(text, 'latin1').toString('utf8');
  // Parsers differ on which of two names wins: a script extension on either is the one scanned under.
  const names = [plain, extended].filter((n): n is string => n !== null).map(utf8);
  const fileName = names.find((n) => /\.(?:php\d*|pht|phtml|phar|inc|jspx?|jspf|aspx?|as[acmh]x|ascx|asa|cer|cdx|svc)\s*$/i.test(n)) ?? names[0]!;
  return { field: utf8(dispositionParam(disposition, 'name') ?? ''), fileName };
}

/** Reads the files of one request body as its bytes come: the parts of a form, or a raw upload's whole body. */
export interface UploadReader {
  /** Reads the next bytes; returns the files that ended in them. */
  push(chunk: Uint8Array): UploadedFile[];
  /** The body ended: the files still open. */
  end(): UploadedFile[];
}

type State = 'preamble' | 'delimiter' | 'head' | 'file' | 'skip';

/**
 * The file parts of a multipart body, cut out as the body's bytes come in any chunking. Parts are
 * split where PHP splits them (a line break then `--boundary`; the first delimiter anywhere), so a
 * file is scanned as the application will store it; a part after the closing delimiter is read too.
 * Memory: one file up to the cap, a part's headers, a delimiter's length of carried bytes.
 */
export class UploadFiles implements UploadReader {
  private readonly open: Buffer;
  private readonly next: Buffer;
  private pending: Buffer = Buffer.alloc(0);
  private state: State = 'preamble';
  /** `text`: a text field, read for a file carried in base64 (embedded-files.ts) when `carried` is given. */
  private current: { field: string; fileName: string; chunks: Buffer[]; size: number; over: boolean; text?: true } | null = null;
  private readonly maxFileBytes: number;
  private readonly carried: CarriedFormFields | null;

  constructor(boundary: string, maxFileBytes: number, carried = false) {
    this.open = Buffer.from('--' + boundary, 'latin1');
    this.next = Buffer.from('\n--' + boundary, 'latin1');
    this.maxFileBytes = maxFileBytes;
    this.carried = carried ? new CarriedFormFields(maxFileBytes) : null;
  }

  /** Reads the next bytes of the body; returns the files whose part ended in them. */
  push(chunk: Uint8Array): UploadedFile[] {
    if (chunk.length === 0) return [];
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.pending = this.pending.length === 0 ? bytes : Buffer.concat([this.pending, bytes]);
    const done: UploadedFile[] = [];
    while (this.step(done));
    return done;
  }

  /** The body ended: a file part it cut (no delimiter after it) is scanned as it came. */
  end(): UploadedFile[] {
    const files: UploadedFile[] = [];
    if (this.state === 'file' && this.current) {
      this.take(this.pending);
      this.pending = Buffer.alloc(0);
      const last = this.finish();
      if (last) files.push(last);
    }
    // Files carried in text fields: named only now, as a name field may follow the file's.
    return this.carried ? [...files, ...this.carried.files()] : files;
  }

  /** One move of the state machine; false when it needs more bytes. */
  private step(done: UploadedFile[]): boolean {
    const p = this.pending;
    switch (this.state) {
      case 'preamble': {
        const at = p.indexOf(this.open);
        if (at < 0) {
          this.keep(this.open.length - 1);
          return false;
        }
        this.pending = p.subarray(at + this.open.length);
        this.state = 'delimiter';
        return true;
      }
      case 'delimiter': {
        if (p.length < 2) return false;
        // The closing delimiter: what follows is the epilogue, read on for parts laid out in it.
        if (p[0] === 0x2d && p[1] === 0x2d) {
          this.state = 'preamble';
          this.pending = p.subarray(2);
          return true;
        }
        this.state = 'head';
        return true;
      }
      case 'head': {
        const crlf = p.indexOf('\r\n\r\n', 0, 'latin1');
        const lf = p.indexOf('\n\n', 0, 'latin1');
        const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf;
        if (end < 0 && p.length <= maxHeadBytes) return false;
        if (end < 0 || end > maxHeadBytes) {
          // Headers longer than any form sends: the part is not read as a file.
          this.state = 'skip';
          return true;
        }
        const headText = p.toString('latin1', 0, end);
        const file = fileOfHead(headText);
        this.pending = p.subarray(end + (end === crlf ? 4 : 2));
        if (file) {
          this.current = { ...file, chunks: [], size: 0, over: false };
          this.state = 'file';
        } else if (this.carried) {
          const field = Buffer.from(dispositionParam(dispositionOf(headText), 'name') ?? '', 'latin1').toString('utf8');
          this.current = { field, fileName: '', chunks: [], size: 0, over: false, text: true };
          this.state = 'file';
        } else this.state = 'skip';
        return true;
      }
      case 'file':
      case 'skip': {
        const at = p.indexOf(this.next);
        if (at < 0) {
          // Keep enough for a delimiter split across chunks and the CR before it.
          const keep = this.next.length + 1;
          if (p.length > keep) {
            if (this.state === 'file') this.take(p.subarray(0, p.length - keep));
            this.pending = p.subarray(p.length - keep);
          }
          return false;
        }
        if (this.state === 'file') {
          this.take(p.subarray(0, at > 0 && p[at - 1] === 0x0d ? at - 1 : at));
          const file = this.finish();
          if (file) done.push(file);
        }
        this.pending = p.subarray(at + this.next.length);
        this.state = 'delimiter';
        return true;
      }
    }
  }

  /** Drops all but the last `n` pending bytes. */
  private keep(n: number): void {
    if (this.pending.length > n) this.pending = this.pending.subarray(this.pending.length - n);
  }

  private take(bytes: Buffer): void {
    const file = this.current;
    if (!file || bytes.length === 0) return;
    file.size += bytes.length;
    if (file.over) return;
    if (file.size > (file.text ? maxTextPartBytes(this.maxFileBytes) : this.maxFileBytes)) {
      file.over = true;
      file.chunks = [];
      return;
    }
    // Copied: the chunk's memory belongs to the stream and goes upstream.
    file.chunks.push(Buffer.from(bytes));
  }

  /** The part that ended: a file, or null for a text field (handed to `carried`). */
  private finish(): UploadedFile | null {
    const file = this.current!;
    this.current = null;
    const bytes = file.over ? null : Buffer.concat(file.chunks);
    if (file.text) {
      this.carried?.add(file.field, bytes);
      return null;
    }
    return { field: file.field, fileName: file.fileName, size: file.size, bytes };
  }
}

/** The boundary of a multipart request the scan can read, or null (not multipart, compressed, no usable boundary). */
export function uploadBoundary(request: WafRequest): string | null {
  if (headerValue(request, 'content-encoding') !== null) return null;
  const type = headerValue(request, 'content-type') ?? '';
  if (!/^\s*multipart\//i.test(type)) return null;
  const m = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(type);
  const boundary = m?.[1] ?? m?.[2] ?? '';
  return boundary.length > 0 && boundary.length <= 200 ? boundary : null;
}

/** A raw upload's body: one file, kept up to the cap (over it: counted, not kept, not scanned). */
export class RawUpload implements UploadReader {
  private chunks: Buffer[] = [];
  private size = 0;
  private readonly fileName: string;
  private readonly maxFileBytes: number;

  constructor(fileName: string, maxFileBytes: number) {
    this.fileName = fileName;
    this.maxFileBytes = maxFileBytes;
  }

  push(chunk: Uint8Array): UploadedFile[] {
    this.size += chunk.length;
    if (this.size > this.maxFileBytes) this.chunks = [];
    // Copied: the chunk's memory belongs to the stream and goes upstream.
    else if (chunk.length > 0) this.chunks.push(Buffer.from(chunk));
    return [];
  }

  end(): UploadedFile[] {
    const bytes = this.size > this.maxFileBytes ? null : Buffer.concat(this.chunks);
    this.chunks = [];
    return [{ field: '', fileName: this.fileName, size: this.size, bytes }];
  }
}

/** JSON and urlencoded bodies: read for files carried in their fields as base64 (embedded-files.ts). */
const jsonType = /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;
const formType = /^\s*application\/x-www-form-urlencoded\s*(?:;|$)/i;

/** A JSON or urlencoded body, kept up to `maxBodyBytes` and read for carried files when it ends. */
export class CarriedFieldsReader implements UploadReader {
  private chunks: Buffer[] = [];
  private size = 0;
  private readonly kind: 'json' | 'form';
  private readonly maxFileBytes: number;

  constructor(kind: 'json' | 'form', maxFileBytes: number) {
    this.kind = kind;
    this.maxFileBytes = maxFileBytes;
  }

  push(chunk: Uint8Array): UploadedFile[] {
    this.size += chunk.length;
    if (this.size > maxBodyBytes) this.chunks = [];
    // Copied: the chunk's memory belongs to the stream and goes upstream.
    else if (chunk.length > 0) this.chunks.push(Buffer.from(chunk));
    return [];
  }

  end(): UploadedFile[] {
    if (this.size > maxBodyBytes) return [];
    const text = Buffer.concat(this.chunks).toString('utf8');
    this.chunks = [];
    // Most bodies hold no long base64 run at all: not parsed a second time (the WAF engine parsed them).
    if (!/[A-Za-z0-9+/%_-]{64}/.test(text)) return [];
    return carriedFiles(this.kind === 'json' ? jsonFields(text) : urlencodedFields(text), this.maxFileBytes);
  }
}

/** The reader of a JSON or urlencoded body's carried files, or null for any other type. */
export function carriedReaderFor(contentType: string, maxFileBytes: number): (() => UploadReader) | null {
  const kind = jsonType.test(contentType) ? 'json' : formType.test(contentType) ? 'form' : null;
  return kind ? () => new CarriedFieldsReader(kind, maxFileBytes) : null;
}

/**
 * Bodies of a POST or PATCH read as a file: a script or image type, as a client names a file it
 * sends (WordPress's REST media upload sends image/*). Not application/octet-stream: streaming
 * APIs use it, and a scanned body's last chunk waits for the verdict, so an origin that answers
 * while the body streams would stall. JSON, forms, text and XML are an application's data, judged
 * by the WAF engine.
 */
const rawFileType = /^\s*(?:application\/(?:x-(?:httpd-)?php[\w.-]*|x-sh|x-jsp|x-asp)|text\/(?:x-php|x-shellscript)|image\/)/i;

/**
 * The file name of a raw upload: the request's own Content-Disposition filename when it gives one
 * (WordPress's REST media upload does), else the URL path's last segment, percent-decoded
 * ("upload" when empty).
 */
function rawUploadName(request: WafRequest): string {
  const disposition = headerValue(request, 'content-disposition');
  if (disposition !== null) {
    const given = extendedParam(disposition, 'filename') ?? dispositionParam(disposition, 'filename');
    const name = given === null ? '' : Buffer.from(given, 'latin1').toString('utf8').split(/[\\/]/).pop();
    if (name) return name;
  }
  const path = request.target.split('?')[0] ?? '';
  const last = path.slice(path.lastIndexOf('/') + 1);
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // A malformed escape: the name as sent.
  }
  return name.split(/[\\/]/).pop() || 'upload';
}

/**
 * How this request's uploaded files are read, or null when it carries none the scan can read: a
 * multipart form's file parts and the files its text fields carry in base64; a PUT's body, or a body
 * sent as a file type (rawFileType), as one file; a JSON or urlencoded body's carried files, only
 * when `wholeBody` (it ended within the window the gateway reads: a longer one streams unread). A
 * compressed body is not read (origins do not decode it either).
 */
export function uploadReaderFor(request: WafRequest, maxFileBytes: number, wholeBody = false): (() => UploadReader) | null {
  if (headerValue(request, 'content-encoding') !== null) return null;
  const boundary = uploadBoundary(request);
  if (boundary !== null) return () => new UploadFiles(boundary, maxFileBytes, true);
  const type = headerValue(request, 'content-type') ?? '';
  if (/^\s*multipart\//i.test(type)) return null;
  if (request.method.toUpperCase() !== 'PUT' && !rawFileType.test(type)) return wholeBody ? carriedReaderFor(type, maxFileBytes) : null;
  // A body announced over the cap would not be scanned: not read at all (no copy, no scan thread).
  const length = Number(headerValue(request, 'content-length') ?? NaN);
  if (length > maxFileBytes) return null;
  const name = rawUploadName(request);
  return () => new RawUpload(name, maxFileBytes);
}

/** A file the engine flagged, with what it found first. */
export interface FlaggedUpload {
  file: UploadedFile;
  result: WebshellFileResult;
}

/** The block decision a flagged upload gets (reported as a `webshell_upload` attack). */
export function flaggedDecision(flagged: FlaggedUpload): Extract<Decision, { action: 'block' }> {
  const finding = flagged.result.findings[0];
  const why = finding ? `${finding.rule ?? finding.reason} (${finding.risk}): ${finding.evidence}` : flagged.result.risk;
  return { action: 'block', rule: 'webshell_upload.engine', kind: 'webshell_upload', location: 'file_content', name: flagged.file.fileName.slice(0, 200), evidence: `${flagged.file.fileName}: ${why}`.slice(0, 200) };
}

interface Pending { job: ScanJob; resolve: (r: WebshellFileResult | null) => void }

const defaultGraceMs = 500;
/** A thread that failed to start is tried again after this long. */
const brokenRetryMs = 30_000;
/** A thread without a file for this long is stopped (its memory back); the next upload starts one. */
const idleStopMs = 10 * 60_000;
const workerUrl = new URL('./upload-scan-worker.ts', import.meta.url);

/**
 * The scan thread of this process: one file at a time, in order. A file answers its result, or null
 * when it could not be scanned (thread stopped for the time budget, or failed): such a file passes.
 */
export class UploadScanner {
  private worker: Worker | null = null;
  private ready = false;
  private readonly queue: Pending[] = [];
  private running: { pending: Pending; timer: NodeJS.Timeout } | null = null;
  private nextId = 1;
  private closed = false;
  /** When a thread last died before it was ready (the engine failed to load): no new one for a while. */
  private brokenAt = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  /** The configuration's custom library, handed to each thread it starts; its key tells a change. */
  private library: TrojanLibrary | null = null;
  private libraryKey = '';
  /** The thread was started with another library: replaced before its next file. */
  private stale = false;
  /** The library whose compile failure was already logged (once per library, not per thread). */
  private reportedKey: string | null = null;
  private log: (message: string) => void = () => {};
  readonly limits: UploadScanLimits;

  constructor(limits: UploadScanLimits = defaultUploadScanLimits) {
    this.limits = limits;
  }

  /** Starts the thread ahead of the first file (loading the engine and compiling its rules takes a second or more). */
  warm(): void {
    if (!this.worker && !this.closed && !this.broken()) this.spawn();
  }

  /**
   * The custom library of the configuration just applied (policy.custom_library; null: none). A
   * changed one retires the thread, so the next file is scanned by a thread that compiled it; an
   * unchanged one (every reload carries it) keeps the thread. `log` reports a library the thread
   * could not compile, once.
   */
  useLibrary(library: TrojanLibrary | null, log?: (message: string) => void): void {
    if (log) this.log = log;
    const empty = !library || (!library.rules.trim() && library.hashes.length === 0);
    const key = empty ? '' : JSON.stringify([library.rules, library.hashes]);
    if (key === this.libraryKey) return;
    this.library = empty ? null : library;
    this.libraryKey = key;
    if (!this.worker) return;
    if (this.running || this.queue.length > 0) this.stale = true;
    else this.stopIdle();
  }

  private broken(): boolean {
    return Date.now() - this.brokenAt < brokenRetryMs;
  }

  scan(name: string, bytes: Buffer, scriptOnly = false): Promise<WebshellFileResult | null> {
    if (this.closed || (!this.worker && this.broken())) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.queue.push({ job: { id: this.nextId++, name, bytes, ...(scriptOnly ? { scriptOnly } : {}) }, resolve });
      this.warm();
      this.pump();
    });
  }

  private spawn(): void {
    const { maxFileBytes, timeBudgetMs, parserMaxBytes } = this.limits;
    const workerData: ScanWorkerInit = { maxFileBytes, timeBudgetMs, ...(parserMaxBytes ? { parserMaxBytes } : {}), ...(this.library ? { library: this.library } : {}) };
    const key = this.libraryKey;
    const worker = new Worker(workerUrl, { workerData });
    this.worker = worker;
    this.ready = false;
    this.stale = false;
    // The thread must not keep a draining gateway process alive.
    worker.unref();
    worker.on('message', (answer: ScanAnswer) => {
      if (worker !== this.worker) return;
      if (answer.ready) {
        this.ready = true;
        if (answer.libraryError && this.reportedKey !== key) {
          this.reportedKey = key;
          this.log(`upload scan: the custom library does not compile, uploads are scanned with the built-in rules: ${answer.libraryError}`);
        }
        return this.pump();
      }
      const running = this.running;
      if (!running || running.pending.job.id !== answer.id) return;
      clearTimeout(running.timer);
      this.running = null;
      running.pending.resolve(answer.result ?? null);
      this.pump();
    });
    const lost = () => {
      if (worker === this.worker) this.replace();
    };
    worker.on('error', lost);
    worker.on('exit', lost);
  }

  /** The thread failed or overran a file's budget: that file passes unscanned, a fresh thread takes the rest. */
  private replace(): void {
    const old = this.worker;
    const wasReady = this.ready;
    this.worker = null;
    this.ready = false;
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.pending.resolve(null);
      this.running = null;
    }
    void old?.terminate();
    if (!wasReady) {
      // It never came up: the files waiting pass unscanned rather than respawning in a loop.
      this.brokenAt = Date.now();
      for (const pending of this.queue.splice(0)) pending.resolve(null);
      return;
    }
    if (this.queue.length > 0 && !this.closed) this.spawn();
  }

  private pump(): void {
    if (this.running || !this.worker) return;
    if (this.stale) {
      // The library changed while this thread worked: a fresh one compiles it for the next files.
      void this.worker.terminate();
      this.worker = null;
      this.ready = false;
      if (this.queue.length > 0 && !this.closed) this.spawn();
      return;
    }
    if (!this.ready) return;
    const next = this.queue.shift();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (!next) {
      this.idleTimer = setTimeout(() => this.stopIdle(), idleStopMs);
      this.idleTimer.unref();
      return;
    }
    const timer = setTimeout(() => this.replace(), this.limits.timeBudgetMs + (this.limits.graceMs ?? defaultGraceMs));
    timer.unref();
    this.running = { pending: next, timer };
    this.worker.postMessage(next.job);
  }

  private stopIdle(): void {
    this.idleTimer = null;
    if (this.running || this.queue.length > 0 || !this.worker) return;
    const worker = this.worker;
    this.worker = null;
    this.ready = false;
    void worker.terminate();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (const pending of this.queue.splice(0)) pending.resolve(null);
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.pending.resolve(null);
      this.running = null;
    }
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}

let shared: UploadScanner | null = null;
/** The process's scanner, made on first use. */
export function sharedUploadScanner(): UploadScanner {
  shared ??= new UploadScanner();
  return shared;
}

/** Scans the files in order; the first one flagged, or null. Files over the cap and unscannable ones pass. */
export async function firstFlagged(scanner: UploadScanner, files: readonly UploadedFile[]): Promise<FlaggedUpload | null> {
  for (const file of files) {
    const found = await scanOne(scanner, file);
    if (found) return found;
  }
  return null;
}

async function scanOne(scanner: UploadScanner, file: UploadedFile): Promise<FlaggedUpload | null> {
  if (!file.bytes || file.bytes.length === 0) return null;
  // The last path component: browsers send C:\fakepath\x, attackers ../x.
  const name = file.fileName.split(/[\\/]/).pop() || 'upload';
  const result = await scanner.scan(name, file.bytes, file.embedded === true);
  return result && isFlaggedRisk(result.risk) ? { file, result } : null;
}

/** A body that ended within the window: its files, scanned before it is forwarded. */
export function scanWholeBody(scanner: UploadScanner, reader: () => UploadReader, body: Buffer): Promise<FlaggedUpload | null> {
  const files = reader();
  return firstFlagged(scanner, [...files.push(body), ...files.end()]);
}

/** What a body streaming past the window needs to be scanned on the way (proxy.ts). */
export interface StreamedScan {
  scanner: UploadScanner;
  /** Makes the body's reader (uploadReaderFor). */
  reader: () => UploadReader;
  /** Reports the refusal and gives its page. */
  refuse: (flagged: FlaggedUpload) => RenderedResponse;
}

/** Bytes of files read but not yet judged before the stream waits for the scans (backpressure). */
const maxUnjudgedBytes = 8 * 1024 * 1024;

/**
 * The body's chunks (from its first byte), forwarded as they come while each file part is scanned
 * as soon as it ends; the last chunk is held until every file has its verdict. A flagged file fails
 * the stream at once (the upstream request is aborted, the origin's application never runs) with
 * the `uploadRefused` error that carries the page (upload-tail.ts).
 */
export async function* scannedUpload(chunks: AsyncIterable<Buffer>, scan: StreamedScan): AsyncGenerator<Buffer> {
  const files = scan.reader();
  let waiting: { bytes: number; done: boolean; verdict: Promise<FlaggedUpload | null> }[] = [];
  // Set by a scan that finished while the body still streams (a closure's write: kept in an object).
  const seen: { flagged: FlaggedUpload | null } = { flagged: null };
  const start = (found: UploadedFile[]) => {
    for (const file of found) {
      const entry = { bytes: file.bytes?.length ?? 0, done: false, verdict: scanOne(scan.scanner, file) };
      void entry.verdict.then((f) => {
        entry.done = true;
        seen.flagged ??= f;
      });
      waiting.push(entry);
    }
  };
  const refuse = (f: FlaggedUpload): never => {
    throw Object.assign(new Error('web shell upload refused'), { code: uploadRefused, refusal: scan.refuse(f) });
  };
  let held: Buffer | null = null;
  for await (const chunk of chunks) {
    start(files.push(chunk));
    waiting = waiting.filter((entry) => !entry.done);
    // Too much read and not judged yet: wait for the oldest verdicts (the client waits with them).
    while (waiting.reduce((n, entry) => n + entry.bytes, 0) > maxUnjudgedBytes) await waiting.shift()!.verdict;
    if (seen.flagged) refuse(seen.flagged);
    if (held) yield held;
    held = chunk;
  }
  start(files.end());
  for (const entry of waiting) await entry.verdict;
  if (seen.flagged) refuse(seen.flagged);
  if (held) yield held;
}
