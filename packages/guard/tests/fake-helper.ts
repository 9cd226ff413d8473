import net from 'node:net';
import type { GuardHello } from '@rampart/contracts';

/**
 * A stand-in for the C helper on a real unix socket: answers hello/status/apply like the protocol
 * says, remembers the plans it got, and can push any line to the agent.
 */
export class FakeHelper {
  readonly plans: unknown[] = [];
  readonly requests: Record<string, unknown>[] = [];
  hello: GuardHello = { backend: 'fanotify', kernel: '6.18.0', ops: ['r', 'x', 'w'], cause: 'lsm_refused', generation: 0, pinned: false };
  /** When set, requests get no answer (to test timeouts). */
  silent = false;
  /** When set, apply answers with this error. */
  refuseApply: string | null = null;
  readonly #server: net.Server;
  readonly #sockets = new Set<net.Socket>();

  private constructor(server: net.Server) {
    this.#server = server;
  }

  static async listen(socketPath: string): Promise<FakeHelper> {
    const server = net.createServer();
    const helper = new FakeHelper(server);
    server.on('connection', (socket) => helper.#serve(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, resolve);
    });
    return helper;
  }

  get connections(): number {
    return this.#sockets.size;
  }

  #serve(socket: net.Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const request = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
        buffer = buffer.slice(newline + 1);
        this.requests.push(request);
        if (this.silent) continue;
        const id = request['id'];
        if (request['op'] === 'apply' && this.refuseApply) {
          socket.write(`${JSON.stringify({ id, ok: false, error: this.refuseApply })}\n`);
        } else if (request['op'] === 'apply') {
          const plan = request['plan'] as { generation: number; objects: unknown[]; sets: unknown[]; exes: unknown[] };
          this.plans.push(plan);
          this.hello = { ...this.hello, generation: plan.generation };
          socket.write(`${JSON.stringify({ id, ok: true, applied: { generation: plan.generation, objects: plan.objects.length, sets: plan.sets.length, exes: plan.exes.length } })}\n`);
        } else if (request['op'] === 'hello' || request['op'] === 'status') {
          socket.write(`${JSON.stringify({ id, ok: true, hello: this.hello })}\n`);
        } else {
          socket.write(`${JSON.stringify({ id, ok: false, error: 'unknown op' })}\n`);
        }
      }
    });
  }

  /** Sends a raw line to every connected agent. */
  push(line: string): void {
    for (const socket of this.#sockets) socket.write(`${line}\n`);
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
