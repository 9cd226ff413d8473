/**
 * A minimal HTTP/1.1 client over plain sockets: writes a request's bytes exactly as built and reads
 * the status of the answer. Ordinary requests reuse kept-alive connections (the body is read to its
 * end: Content-Length, chunked, or close); raw corpus requests get a connection of their own that is
 * closed as soon as the status line and headers have arrived.
 */
import { connect, type Socket } from 'node:net';
import type { BenchRequest } from './bench-request.ts';

export interface Outcome { status: number; error?: string }

interface Parsed { status: number; headEnd: number; bodyEnd: number | 'close' | null; close: boolean }

/** Parses one response at the start of `buf`; null while incomplete. 1xx answers are skipped. */
export function parseResponse(buf: Buffer, headRequest: boolean): Parsed | null {
  let start = 0;
  for (;;) {
    const headEnd = buf.indexOf('\r\n\r\n', start);
    if (headEnd < 0) return null;
    const head = buf.subarray(start, headEnd).toString('latin1');
    const match = /^HTTP\/\d\.\d (\d{3})/.exec(head);
    if (!match) return { status: -1, headEnd: headEnd + 4, bodyEnd: 'close', close: true };
    const status = Number(match[1]);
    const bodyStart = headEnd + 4;
    if (status >= 100 && status < 200) { start = bodyStart; continue; }
    const header = (name: string) => new RegExp(`\\r\\n${name}:[ \\t]*([^\\r]*)`, 'i').exec(head)?.[1]?.trim();
    const close = /close/i.test(header('connection') ?? '') || head.startsWith('HTTP/1.0');
    if (headRequest || status === 204 || status === 304) return { status, headEnd: bodyStart, bodyEnd: bodyStart, close };
    if (/chunked/i.test(header('transfer-encoding') ?? '')) return { status, headEnd: bodyStart, bodyEnd: chunkedEnd(buf, bodyStart), close };
    const length = header('content-length');
    if (length !== undefined) {
      const end = bodyStart + Number(length);
      return { status, headEnd: bodyStart, bodyEnd: buf.length >= end ? end : null, close };
    }
    return { status, headEnd: bodyStart, bodyEnd: 'close', close: true };
  }
}

function chunkedEnd(buf: Buffer, from: number): number | null {
  let at = from;
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(buf.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return null;
    if (size === 0) {
      const end = buf.indexOf('\r\n\r\n', lineEnd);
      return end < 0 ? null : end + 4;
    }
    at = lineEnd + 2 + size + 2;
    if (at > buf.length) return null;
  }
}

export class TargetClient {
  private idle: Socket[] = [];
  readonly host: string;
  readonly port: number;
  readonly timeoutMs: number;
  constructor(host: string, port: number, timeoutMs = 15000) {
    this.host = host;
    this.port = port;
    this.timeoutMs = timeoutMs;
  }

  async send(req: BenchRequest): Promise<Outcome> {
    const reused = !req.fresh ? this.idle.pop() : undefined;
    const first = await this.exchange(req, reused ?? null);
    // A kept-alive connection the server had already closed: try once more on a new one.
    if (reused && first.error === 'closed before answer') return this.exchange(req, null);
    return first;
  }

  close(): void {
    for (const s of this.idle.splice(0)) s.destroy();
  }

  private exchange(req: BenchRequest, socket: Socket | null): Promise<Outcome> {
    const headRequest = req.wire.subarray(0, 5).toString('latin1') === 'HEAD ';
    return new Promise((resolve) => {
      const sock = socket ?? connect({ host: this.host, port: this.port, noDelay: true });
      let buf: Buffer = Buffer.alloc(0);
      let parsed: Parsed | null = null;
      let done = false;
      const finish = (outcome: Outcome, keep: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        sock.removeAllListeners('data').removeAllListeners('error').removeAllListeners('close').removeAllListeners('end');
        if (keep) { sock.on('error', () => {}); sock.on('close', () => this.forget(sock)); this.idle.push(sock); }
        else sock.destroy();
        resolve(outcome);
      };
      const timer = setTimeout(() => finish(parsed ? { status: parsed.status } : { status: 0, error: 'timeout' }, false), this.timeoutMs);
      sock.on('data', (chunk: Buffer) => {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
        parsed = parseResponse(buf, headRequest);
        if (!parsed) return;
        if (req.fresh || parsed.close || parsed.bodyEnd === 'close' || parsed.status < 0) return finish({ status: parsed.status }, false);
        if (typeof parsed.bodyEnd === 'number' && buf.length >= parsed.bodyEnd) finish({ status: parsed.status }, buf.length === parsed.bodyEnd);
      });
      const ended = (why: string) => finish(parsed ? { status: parsed.status } : { status: 0, error: buf.length ? 'unparsable answer' : why }, false);
      sock.on('end', () => ended('closed before answer'));
      sock.on('close', () => ended('closed before answer'));
      sock.on('error', (e: NodeJS.ErrnoException) => ended(socket && (e.code === 'ECONNRESET' || e.code === 'EPIPE') ? 'closed before answer' : e.code ?? e.message));
      sock.write(req.wire);
    });
  }

  private forget(sock: Socket): void {
    const i = this.idle.indexOf(sock);
    if (i >= 0) this.idle.splice(i, 1);
  }
}

/** Sends every request with at most `concurrency` in flight; outcomes in request order. */
export async function sendAll(client: TargetClient, requests: readonly BenchRequest[], concurrency: number, onProgress?: (done: number) => void): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(requests.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < requests.length) {
      const i = next++;
      outcomes[i] = await client.send(requests[i]!);
      if (++done % 1000 === 0) onProgress?.(done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
  client.close();
  return outcomes;
}
