import net from 'node:net';
import {
  agentMaxLineBytes,
  agentRequestSchema,
  agentResponseSchema,
  agentResultSchemas,
  type AgentMethod,
  type AgentParams,
  type AgentResult,
} from '@rampart/contracts';
import { AgentCallError, AgentUnavailableError } from './errors.ts';
import { ResponseLines } from './response-lines.ts';

export interface AgentClientOptions {
  /** Per call, from the call until its answer, connecting included. Default 5000 ms. */
  timeoutMs?: number;
}

interface PendingCall {
  method: AgentMethod;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** "path: message; ..." from a schema failure, short enough for a log line. */
function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/**
 * Calls the agent over its Unix socket: one connection shared by all calls (many in flight),
 * opened on first use and reopened on the next call after it fails.
 */
export class AgentClient {
  readonly socketPath: string;
  readonly #timeoutMs: number;
  #socket: net.Socket | undefined;
  #connecting: Promise<net.Socket> | undefined;
  #pending = new Map<number, PendingCall>();
  #nextId = 1;
  #closed = false;

  constructor(socketPath: string, options: AgentClientOptions = {}) {
    this.socketPath = socketPath;
    this.#timeoutMs = options.timeoutMs ?? 5000;
  }

  /** `options.timeoutMs` overrides the client's timeout for a call known to take long (a backup run). */
  async call<M extends AgentMethod>(method: M, params: AgentParams<M>, options: { timeoutMs?: number } = {}): Promise<AgentResult<M>> {
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    if (this.#closed) throw new AgentUnavailableError('agent client is closed');
    const id = this.#takeId();
    const checked = agentRequestSchema.safeParse({ id, method, params });
    if (!checked.success) {
      throw new AgentCallError('bad_request', `request not sent: ${describeIssues(checked.error.issues)}`);
    }
    const line = `${JSON.stringify(checked.data)}\n`;

    return new Promise<AgentResult<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        this.#updateRef();
        reject(new AgentUnavailableError(`agent did not answer ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { method, resolve: resolve as (result: unknown) => void, reject, timer });
      this.#connection().then(
        (socket) => {
          // The call may have timed out, or the connection failed, while it was connecting.
          if (!this.#pending.has(id)) return;
          if (socket.destroyed) {
            this.#settle(id, undefined, new AgentUnavailableError('agent connection closed before the call was sent'));
            return;
          }
          this.#updateRef();
          socket.write(line);
        },
        (error: unknown) => this.#settle(id, undefined, error as Error),
      );
    });
  }

  /** Drops the connection; calls still waiting fail with AgentUnavailableError. */
  close(): void {
    this.#closed = true;
    this.#drop(new AgentUnavailableError('agent client closed'));
  }

  #takeId(): number {
    const id = this.#nextId;
    this.#nextId = id >= Number.MAX_SAFE_INTEGER ? 1 : id + 1;
    return id;
  }

  #connection(): Promise<net.Socket> {
    if (this.#socket) return Promise.resolve(this.#socket);
    this.#connecting ??= new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect(this.socketPath);
      const lines = new ResponseLines(agentMaxLineBytes);
      const onConnectError = (error: Error): void => {
        this.#connecting = undefined;
        reject(new AgentUnavailableError(`cannot reach the agent at ${this.socketPath}: ${error.message}`));
      };
      socket.once('error', onConnectError);
      socket.once('connect', () => {
        socket.off('error', onConnectError);
        this.#connecting = undefined;
        if (this.#closed) {
          socket.destroy();
          reject(new AgentUnavailableError('agent client closed'));
          return;
        }
        this.#socket = socket;
        socket.on('data', (chunk: Buffer) => {
          const { lines: received, overflow } = lines.push(chunk);
          for (const line of received) this.#onLine(line);
          if (overflow) this.#fail(socket, new AgentUnavailableError('agent sent a line longer than the protocol allows'));
        });
        socket.on('error', (error) => this.#fail(socket, new AgentUnavailableError(`agent connection failed: ${error.message}`)));
        socket.on('close', () => this.#fail(socket, new AgentUnavailableError('agent closed the connection')));
        resolve(socket);
      });
    });
    return this.#connecting;
  }

  #onLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return; // not ours to answer; the matching call (if any) times out
    }
    const response = agentResponseSchema.safeParse(value);
    if (!response.success) return;
    const { id } = response.data;
    const pending = this.#pending.get(id);
    if (!pending) return; // a late answer to a call that already timed out
    if (!response.data.ok) {
      this.#settle(id, undefined, new AgentCallError(response.data.error.code, response.data.error.message));
      return;
    }
    const result = agentResultSchemas[pending.method].safeParse(response.data.result);
    if (!result.success) {
      this.#settle(id, undefined, new AgentCallError('failed', `agent returned an invalid ${pending.method} result: ${describeIssues(result.error.issues)}`));
      return;
    }
    this.#settle(id, result.data);
  }

  #settle(id: number, result: unknown, error?: Error): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    this.#updateRef();
    if (error) pending.reject(error);
    else pending.resolve(result);
  }

  /** A broken connection fails every call on it; the next call reconnects. */
  #fail(socket: net.Socket, error: AgentUnavailableError): void {
    if (this.#socket !== socket) return;
    this.#drop(error);
  }

  #drop(error: AgentUnavailableError): void {
    const socket = this.#socket;
    this.#socket = undefined;
    socket?.destroy();
    for (const id of [...this.#pending.keys()]) this.#settle(id, undefined, error);
  }

  /** An idle connection must not keep the console process alive. */
  #updateRef(): void {
    if (!this.#socket) return;
    if (this.#pending.size) this.#socket.ref();
    else this.#socket.unref();
  }
}
