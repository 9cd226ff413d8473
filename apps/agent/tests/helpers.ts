import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { startAgent, type AgentOptions, type RunningAgent } from '../src/index.ts';

export interface TestAgent extends RunningAgent {
  dir: string;
  stateDir: string;
  logs: string[];
  restarts: number[];
  reboots: number[];
  /** Closes the agent and removes its temp dir. */
  dispose(): Promise<void>;
}

export async function makeTempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'rampart-agent-test-'));
}

/**
 * For a test file: `cleanups` run after each test, last first; `tempDir()` makes a folder that goes
 * with them.
 */
export function useCleanups(): { cleanups: (() => Promise<void> | void)[]; tempDir: () => Promise<string> } {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  const tempDir = async () => {
    const dir = await makeTempDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  };
  return { cleanups, tempDir };
}

/** A real agent on a socket in a fresh temp dir, with recording executors. */
export async function startTestAgent(overrides: Partial<AgentOptions> & { dir?: string } = {}): Promise<TestAgent> {
  const dir = overrides.dir ?? (await makeTempDir());
  const stateDir = overrides.stateDir ?? path.join(dir, 'state');
  const logs: string[] = [];
  const restarts: number[] = [];
  const reboots: number[] = [];
  const agent = await startAgent({
    socketPath: path.join(dir, 'agent.sock'),
    stateDir,
    executors: {
      restartSoftware: async () => void restarts.push(Date.now()),
      rebootServer: async () => void reboots.push(Date.now()),
    },
    log: (line) => logs.push(line),
    // The host's kernel is never touched by tests: firewall tests pass an nft bound to their own namespace.
    firewall: { nft: null, background: false, sensors: { journal: false } },
    // No guard helper is started: tamper tests bring their own (a fake on a temp socket, or the real one).
    guard: { spawn: false, background: false },
    ...overrides,
  });
  return {
    ...agent,
    dir,
    stateDir,
    logs,
    restarts,
    reboots,
    async dispose() {
      await agent.close();
      if (!overrides.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A bare line-protocol client, so tests can send anything at all. */
export class RawClient {
  readonly socket: net.Socket;
  readonly lines: string[] = [];
  #buffer = '';
  #waiters: (() => void)[] = [];
  closed = false;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let newline: number;
      while ((newline = this.#buffer.indexOf('\n')) >= 0) {
        this.lines.push(this.#buffer.slice(0, newline));
        this.#buffer = this.#buffer.slice(newline + 1);
      }
      this.#wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.#wake();
    });
    socket.on('error', () => undefined);
  }

  static connect(socketPath: string): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(socketPath, () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  send(data: string | Buffer): void {
    this.socket.write(data);
  }

  /** Waits until `count` lines have arrived in total (or the connection closes). */
  async waitForLines(count: number, timeoutMs = 5000): Promise<unknown[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length < count && !this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${count} lines; got ${this.lines.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.lines.map((line) => JSON.parse(line) as unknown);
  }

  /** Waits for the server to close the connection. */
  async waitForClose(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('connection stayed open');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends one request and returns the response with that id. */
  async request(id: number, method: string, params: unknown = {}): Promise<Record<string, unknown>> {
    const before = this.lines.length;
    this.send(`${JSON.stringify({ id, method, params })}\n`);
    for (;;) {
      const responses = (await this.waitForLines(this.lines.length + 1)) as Record<string, unknown>[];
      const match = responses.slice(before).find((r) => r.id === id);
      if (match) return match;
      if (this.closed) throw new Error('connection closed before the answer');
    }
  }

  end(): void {
    this.socket.destroy();
  }
}
