import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ChildSpec {
  name: string;
  script: string;
  /** Node and V8 options placed before the script (the process's own, not its children's). */
  nodeOptions?: readonly string[];
  env: NodeJS.ProcessEnv;
  uid?: number;
  gid?: number;
  /** A stdout line that says the process is ready. */
  ready: RegExp;
  ipc?: boolean;
  onMessage?: (message: unknown) => void;
}

/**
 * One supervised process: started, watched, restarted with back-off when it dies unexpectedly,
 * its output prefixed with its name.
 */
export class Child {
  private proc: ChildProcess | undefined;
  private stopping = false;
  private failures = 0;
  readonly spec: ChildSpec;
  readonly nodePath: string;

  constructor(spec: ChildSpec, nodePath: string) {
    this.spec = spec;
    this.nodePath = nodePath;
  }

  /** Starts the process and resolves with the match of its ready line. */
  start(): Promise<RegExpMatchArray> {
    this.stopping = false;
    const { spec } = this;
    const options: SpawnOptions = {
      env: spec.env,
      stdio: ['ignore', 'pipe', 'pipe', ...(spec.ipc ? (['ipc'] as const) : [])],
      ...(spec.uid !== undefined ? { uid: spec.uid, gid: spec.gid } : {}),
    };
    const proc = spawn(this.nodePath, [...(spec.nodeOptions ?? []), spec.script], options);
    this.proc = proc;
    if (spec.onMessage) proc.on('message', spec.onMessage);
    createInterface({ input: proc.stderr! }).on('line', (line) => process.stderr.write(`[${spec.name}] ${line}\n`));
    return new Promise((resolve, reject) => {
      let ready = false;
      createInterface({ input: proc.stdout! }).on('line', (line) => {
        process.stdout.write(`[${spec.name}] ${line}\n`);
        const m = ready ? null : spec.ready.exec(line);
        if (m) {
          ready = true;
          this.failures = 0;
          resolve(m);
        }
      });
      proc.once('exit', (code, signal) => {
        if (!ready) reject(new Error(`${spec.name} exited before it was ready (code ${code}, signal ${signal})`));
        else if (!this.stopping) this.restartLater(code, signal);
      });
    });
  }

  private restartLater(code: number | null, signal: NodeJS.Signals | null): void {
    this.failures++;
    const delay = Math.min(30_000, 500 * 2 ** Math.min(this.failures, 6));
    process.stderr.write(`[${this.spec.name}] exited (code ${code}, signal ${signal}); restarting in ${delay} ms\n`);
    setTimeout(() => {
      if (!this.stopping) this.start().catch((err: Error) => process.stderr.write(`[${this.spec.name}] ${err.message}\n`));
    }, delay).unref();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const kill = setTimeout(() => proc.kill('SIGKILL'), 5000);
      proc.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      proc.kill('SIGTERM');
    });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }
}
