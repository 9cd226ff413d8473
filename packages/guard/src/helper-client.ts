import net from 'node:net';
import { z } from 'zod';
import { ResponseLines } from '@rampart/agent-client';
import { guardAppliedSchema, guardDenialSchema, guardHelloSchema, guardNetDenialSchema, type GuardDenial, type GuardHello, type GuardNetDenial, type GuardPlan } from '@rampart/contracts';

/*
 * The agent's side of the guard helper's ndjson socket (protocol: packages/contracts/src/guard-helper.ts).
 * One connection, reopened with backoff whenever it drops; requests carry ids and time out; denials
 * arrive unsolicited and go to a callback. Every inbound line is checked against the schemas: a bad
 * one is logged and skipped, never thrown.
 */

const replySchema = z.object({
  id: z.number().int(),
  ok: z.boolean(),
  hello: guardHelloSchema.optional(),
  applied: guardAppliedSchema.optional(),
  error: z.string().optional(),
});
type Reply = z.infer<typeof replySchema>;
export type GuardApplied = z.infer<typeof guardAppliedSchema>;

export interface GuardHelperClientOptions {
  socketPath: string;
  log: (line: string) => void;
  onDenial: (denial: GuardDenial) => void;
  /** Network denials (`net_denied`) of the plan's net part; without it they are dropped quietly. */
  onNetDenial?: (denial: GuardNetDenial) => void;
  /** After every (re)connect: the owner says hello and applies its plan again. */
  onConnect?: () => void;
  onDisconnect?: () => void;
  /** Per request. Default 10 s (an apply of a large plan takes a while). */
  timeoutMs?: number;
  /** Reconnect delays: doubling from min to max. */
  backoff?: { minMs: number; maxMs: number };
  /** The longest inbound line accepted; a longer one drops the connection. */
  maxLineBytes?: number;
}

/** The helper did not answer, is not connected, or answered with an error. */
export class GuardHelperError extends Error {
  override name = 'GuardHelperError';
}

interface Pending {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class GuardHelperClient {
  readonly #options: GuardHelperClientOptions;
  #socket: net.Socket | null = null;
  #connected = false;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed = true;
  #retry: NodeJS.Timeout | null = null;
  #delay: number;

  constructor(options: GuardHelperClientOptions) {
    this.#options = options;
    this.#delay = options.backoff?.minMs ?? 200;
  }

  get connected(): boolean {
    return this.#connected;
  }

  /** Starts connecting, and keeps reconnecting until close(). */
  start(): void {
    if (!this.#closed) return;
    this.#closed = false;
    this.#connect();
  }

  /** Connect now instead of at the end of the current backoff (the helper was just started). */
  retryNow(): void {
    if (this.#closed || this.#socket) return;
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
    this.#connect();
  }

  async hello(): Promise<GuardHello> {
    return this.#expect(await this.#request({ op: 'hello' }), 'hello');
  }

  async status(): Promise<GuardHello> {
    return this.#expect(await this.#request({ op: 'status' }), 'hello');
  }

  async apply(plan: GuardPlan): Promise<GuardApplied> {
    return this.#expect(await this.#request({ op: 'apply', plan }), 'applied');
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
    this.#socket?.destroy();
    this.#dropConnection();
  }

  #expect<K extends 'hello' | 'applied'>(reply: Reply, key: K): NonNullable<Reply[K]> {
    if (!reply.ok) throw new GuardHelperError(reply.error ?? 'the guard helper refused the request');
    const value = reply[key];
    if (value === undefined) throw new GuardHelperError(`the guard helper's answer has no ${key}`);
    return value as NonNullable<Reply[K]>;
  }

  #request(body: Record<string, unknown>): Promise<Reply> {
    const socket = this.#socket;
    if (!socket || !this.#connected) return Promise.reject(new GuardHelperError('the guard helper is not connected'));
    const id = this.#nextId++;
    const timeoutMs = this.#options.timeoutMs ?? 10_000;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new GuardHelperError(`the guard helper did not answer ${String(body['op'])} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      socket.write(`${JSON.stringify({ id, ...body })}\n`);
    });
  }

  #connect(): void {
    if (this.#closed) return;
    const socket = net.connect(this.#options.socketPath);
    this.#socket = socket;
    const lines = new ResponseLines(this.#options.maxLineBytes ?? 1 << 20);
    socket.on('connect', () => {
      this.#connected = true;
      this.#delay = this.#options.backoff?.minMs ?? 200;
      this.#safely(() => this.#options.onConnect?.());
    });
    socket.on('data', (chunk: Buffer) => {
      const { lines: complete, overflow } = lines.push(chunk);
      for (const line of complete) this.#receive(line);
      if (overflow) {
        this.#options.log('guard helper: a line past the size limit; reconnecting');
        socket.destroy();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.#socket !== socket) return;
      const wasConnected = this.#connected;
      this.#dropConnection();
      if (wasConnected) this.#safely(() => this.#options.onDisconnect?.());
      this.#scheduleReconnect();
    });
  }

  #dropConnection(): void {
    this.#socket = null;
    this.#connected = false;
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(new GuardHelperError('the guard helper connection closed'));
      this.#pending.delete(id);
    }
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#retry) return;
    const delay = this.#delay;
    this.#delay = Math.min(this.#options.backoff?.maxMs ?? 10_000, this.#delay * 2);
    this.#retry = setTimeout(() => {
      this.#retry = null;
      this.#connect();
    }, delay);
    this.#retry.unref();
  }

  #receive(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.#options.log(`guard helper: not JSON: ${line.slice(0, 200)}`);
      return;
    }
    if (value !== null && typeof value === 'object' && 'event' in value && value.event === 'net_denied') {
      const denial = guardNetDenialSchema.safeParse(value);
      const onNet = this.#options.onNetDenial;
      if (!denial.success) this.#options.log(`guard helper: bad event: ${line.slice(0, 200)}`);
      else if (onNet) this.#safely(() => onNet(denial.data));
      return;
    }
    if (value !== null && typeof value === 'object' && 'event' in value) {
      const denial = guardDenialSchema.safeParse(value);
      if (denial.success) this.#safely(() => this.#options.onDenial(denial.data));
      else this.#options.log(`guard helper: bad event: ${line.slice(0, 200)}`);
      return;
    }
    const reply = replySchema.safeParse(value);
    if (!reply.success) {
      this.#options.log(`guard helper: bad answer: ${line.slice(0, 200)}`);
      // An answer we cannot read still ends its request, rather than leaving it to time out.
      const id = (value as { id?: unknown } | null)?.id;
      const pending = typeof id === 'number' ? this.#pending.get(id) : undefined;
      if (pending) {
        this.#pending.delete(id as number);
        clearTimeout(pending.timer);
        pending.reject(new GuardHelperError('the guard helper sent an answer that does not fit the protocol'));
      }
      return;
    }
    const pending = this.#pending.get(reply.data.id);
    if (!pending) return;
    this.#pending.delete(reply.data.id);
    clearTimeout(pending.timer);
    pending.resolve(reply.data);
  }

  #safely(work: () => void): void {
    try {
      work();
    } catch (error) {
      this.#options.log(`guard helper: a callback failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
