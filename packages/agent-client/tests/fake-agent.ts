import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface ReceivedRequest {
  id: number;
  method: string;
  params: unknown;
}

/** What the fake answers to one request: a response object, raw text, nothing, or a hang-up. */
export type FakeReply = object | { raw: string } | 'silence' | 'hangup';

/** A real Unix-socket server that speaks (or misspeaks) the agent's line protocol. */
export class FakeAgent {
  readonly socketPath: string;
  readonly received: ReceivedRequest[] = [];
  connections = 0;
  readonly #dir: string;
  readonly #server: net.Server;
  readonly #sockets = new Set<net.Socket>();

  private constructor(dir: string, reply: (request: ReceivedRequest, index: number) => FakeReply | Promise<FakeReply>) {
    this.#dir = dir;
    this.socketPath = path.join(dir, 'agent.sock');
    this.#server = net.createServer((socket) => {
      this.connections++;
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => undefined);
      let buffer = '';
      socket.on('data', (chunk) => {
        buffer += chunk.toString();
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const request = JSON.parse(buffer.slice(0, newline)) as ReceivedRequest;
          buffer = buffer.slice(newline + 1);
          this.received.push(request);
          void Promise.resolve(reply(request, this.received.length - 1)).then((answer) => {
            if (answer === 'silence') return;
            if (answer === 'hangup') socket.destroy();
            else if ('raw' in answer) socket.write(answer.raw);
            else socket.write(`${JSON.stringify(answer)}\n`);
          });
        }
      });
    });
  }

  static async start(reply: (request: ReceivedRequest, index: number) => FakeReply | Promise<FakeReply>): Promise<FakeAgent> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rampart-client-test-'));
    const fake = new FakeAgent(dir, reply);
    await new Promise<void>((resolve) => fake.#server.listen(fake.socketPath, resolve));
    return fake;
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    await rm(this.#dir, { recursive: true, force: true });
  }
}

export const flags = { firewall: 1, trojan: 0, remote: 0, account: 0, tamper: 0, process: 0, website: 0, cloud: 0 };
