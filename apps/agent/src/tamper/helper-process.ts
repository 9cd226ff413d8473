import { spawn, type ChildProcess } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import net from 'node:net';

/*
 * The guard helper as the agent's child: started when nothing serves its socket yet (in production
 * systemd may run it instead), restarted with backoff when it exits, stopped with the agent. Not
 * root, or no binary: the state says so and nothing is started.
 */

export type HelperState = 'starting' | 'running' | 'external' | 'not_root' | 'helper_missing' | 'helper_failed' | 'stopped';

export interface HelperProcessOptions {
  binary: string;
  socketPath: string;
  /** After `--socket PATH`: e.g. `--backend fanotify`. */
  args: readonly string[];
  log: (line: string) => void;
  isRoot: boolean;
  /** Restart delays, doubling. */
  backoff?: { minMs: number; maxMs: number };
  /** Exits within this long of the start count as failures; this many in a row: `helper_failed`. */
  quickExitMs?: number;
  failAfter?: number;
  /** Called when the child (re)started, so the client can connect at once. */
  onStarted?: () => void;
}

/** Whether something accepts connections on the socket. */
export function socketServed(socketPath: string, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    const done = (served: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(served);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export class HelperProcess {
  readonly #options: HelperProcessOptions;
  #state: HelperState = 'stopped';
  #child: ChildProcess | null = null;
  #stopping = false;
  #failures = 0;
  #delay: number;
  #retry: NodeJS.Timeout | null = null;

  constructor(options: HelperProcessOptions) {
    this.#options = options;
    this.#delay = options.backoff?.minMs ?? 1000;
  }

  get state(): HelperState {
    return this.#state;
  }

  /** The child's pid while it runs (the plan trusts it). */
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  async start(): Promise<void> {
    this.#stopping = false;
    if (await socketServed(this.#options.socketPath)) {
      this.#state = 'external';
      return;
    }
    if (!this.#options.isRoot) {
      this.#state = 'not_root';
      return;
    }
    try {
      await access(this.#options.binary, constants.X_OK);
    } catch {
      this.#state = 'helper_missing';
      this.#options.log(`guard helper: ${this.#options.binary} is missing; tamper protection is not enforced`);
      return;
    }
    this.#spawn();
  }

  #spawn(): void {
    if (this.#stopping) return;
    this.#state = this.#failures >= (this.#options.failAfter ?? 3) ? 'helper_failed' : 'starting';
    const startedAt = Date.now();
    // stdin stays open: the helper may take its end as the agent's end.
    const child = spawn(this.#options.binary, ['--socket', this.#options.socketPath, ...this.#options.args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child = child;
    const forward = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.#options.log(`guard helper: ${line.slice(0, 500)}`);
    };
    child.stdout?.on('data', forward);
    child.stderr?.on('data', forward);
    child.stdin?.on('error', () => undefined);
    child.once('spawn', () => {
      if (this.#state === 'starting') this.#state = 'running';
      this.#options.onStarted?.();
    });
    child.once('error', (error) => this.#options.log(`guard helper: ${error.message}`));
    child.once('exit', (code, signal) => {
      if (this.#child === child) this.#child = null;
      if (this.#stopping) {
        this.#state = 'stopped';
        return;
      }
      const quick = Date.now() - startedAt < (this.#options.quickExitMs ?? 10_000);
      this.#failures = quick ? this.#failures + 1 : 0;
      if (!quick) this.#delay = this.#options.backoff?.minMs ?? 1000;
      if (this.#failures >= (this.#options.failAfter ?? 3)) this.#state = 'helper_failed';
      this.#options.log(`guard helper exited (${signal ?? `code ${String(code)}`}); restarting in ${this.#delay} ms`);
      this.#retry = setTimeout(() => {
        this.#retry = null;
        this.#spawn();
      }, this.#delay);
      this.#retry.unref();
      this.#delay = Math.min(this.#options.backoff?.maxMs ?? 30_000, this.#delay * 2);
    });
  }

  /** The helper ran long enough to talk to: failures are forgiven. */
  markHealthy(): void {
    this.#failures = 0;
    if (this.#child) this.#state = 'running';
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
    const child = this.#child;
    if (!child || child.exitCode !== null) {
      this.#state = 'stopped';
      return;
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
    this.#state = 'stopped';
  }
}
