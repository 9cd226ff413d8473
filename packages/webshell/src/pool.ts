/**
 * A small pool of scan workers (2 cores here: the default is 2). Paths go to a worker in batches
 * and come back in one message per batch: a message per file cost more than scanning most files.
 *
 * The per-file budget still holds: each worker writes the index and start time of the file it is on
 * into shared memory, and a watchdog checks every slot a few times per budget. A file that overruns
 * its budget gets its worker terminated and replaced, and comes back unscanned (timeout); the other
 * files of its batch go back to the front of the queue, so the scan goes on. A worker that dies
 * takes only the file it was on with it.
 */
import { Worker } from 'node:worker_threads';
import type { WebshellFileResult, WebshellUnscannedReason } from '@rampart/contracts';
import { unscannedResult } from './verdict.ts';
import { type WorkerAnswer, type WorkerInit, type WorkerStall, progressIndex, progressStart } from './worker-protocol.ts';

interface Task { path: string; resolve: (r: WebshellFileResult) => void }
interface Slot {
  worker: Worker;
  ready: boolean;
  progress: Int32Array;
  busy?: { id: number; tasks: Task[] };
}

/** Extra time over the per-file budget before a worker is stopped: reading costs a little. */
const graceMs = 250;
/** Paths per message. Small enough that two workers share the tail of a scan evenly. */
export const batchSize = 32;
const workerUrl = new URL('./worker.ts', import.meta.url);

export type PoolInit = Omit<WorkerInit, 'progress' | 'epoch' | 'stall'> & { stall?: WorkerStall };

export class ScanPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Task[] = [];
  private nextId = 1;
  private closed = false;
  private pumpScheduled = false;
  private readonly epoch = Date.now();
  private readonly watchdog: NodeJS.Timeout;
  private readonly init: PoolInit;

  constructor(init: PoolInit, size: number) {
    this.init = init;
    for (let i = 0; i < Math.max(1, size); i += 1) this.slots.push(this.spawn());
    this.watchdog = setInterval(() => this.check(), Math.max(20, Math.min(200, Math.floor(init.timeBudgetMs / 4))));
    this.watchdog.unref();
  }

  private spawn(): Slot {
    const shared = new SharedArrayBuffer(8);
    const progress = new Int32Array(shared);
    Atomics.store(progress, progressIndex, -1);
    const workerData: WorkerInit = { ...this.init, progress: shared, epoch: this.epoch };
    const slot: Slot = { worker: new Worker(workerUrl, { workerData }), ready: false, progress };
    slot.worker.on('message', (message: WorkerAnswer) => {
      // The budget starts when the worker is ready: loading the parser and compiling rules is not a file's time.
      if (message.ready) { slot.ready = true; this.pump(); return; }
      const busy = slot.busy;
      if (!busy || message.id !== busy.id) return;
      slot.busy = undefined;
      busy.tasks.forEach((task, index) => task.resolve(message.results?.[index] ?? unscannedResult(task.path, 'unscanned_error')));
      this.pump();
    });
    slot.worker.on('error', () => this.replace(slot, 'unscanned_error'));
    slot.worker.on('exit', () => { if (!this.closed && this.slots.includes(slot)) this.replace(slot, 'unscanned_error'); });
    return slot;
  }

  /** The watchdog: a slot whose current file has run past the budget is stopped. */
  private check(): void {
    const now = Date.now() - this.epoch;
    for (const slot of [...this.slots]) {
      if (!slot.busy) continue;
      const index = Atomics.load(slot.progress, progressIndex);
      const start = Atomics.load(slot.progress, progressStart);
      if (index < 0 || Atomics.load(slot.progress, progressIndex) !== index) continue;
      if (now - start > this.init.timeBudgetMs + graceMs) this.replace(slot, 'unscanned_timeout');
    }
  }

  /**
   * Ends a slot's worker and puts a fresh one in its place. The file it was on is reported as
   * `reason`; the rest of its batch (done or not: their results died with the worker) is queued again.
   */
  private replace(slot: Slot, reason: WebshellUnscannedReason): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    const busy = slot.busy;
    slot.busy = undefined;
    if (busy) {
      const at = Math.max(0, Atomics.load(slot.progress, progressIndex));
      const culprit = busy.tasks[at];
      if (culprit) culprit.resolve(unscannedResult(culprit.path, reason));
      this.waiting.unshift(...busy.tasks.filter((_, i) => i !== at));
    }
    this.slots.splice(index, 1);
    void slot.worker.terminate();
    if (!this.closed) { this.slots.push(this.spawn()); this.pump(); }
  }

  scan(path: string): Promise<WebshellFileResult> {
    if (this.closed) return Promise.resolve(unscannedResult(path, 'unscanned_error'));
    return new Promise((resolve) => {
      this.waiting.push({ path, resolve });
      // Full batches go out at once; a short queue waits one turn of the loop for more paths.
      if (this.waiting.length >= batchSize) this.pump();
      else if (!this.pumpScheduled) { this.pumpScheduled = true; setImmediate(() => { this.pumpScheduled = false; this.pump(); }); }
    });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.busy || !slot.ready) continue;
      if (this.waiting.length === 0) return;
      const tasks = this.waiting.splice(0, batchSize);
      const id = this.nextId++;
      slot.busy = { id, tasks };
      slot.worker.postMessage({ id, paths: tasks.map((task) => task.path) });
    }
  }

  get idle(): boolean { return this.waiting.length === 0 && this.slots.every((slot) => !slot.busy); }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watchdog);
    for (const task of this.waiting.splice(0)) task.resolve(unscannedResult(task.path, 'unscanned_error'));
    await Promise.all(this.slots.map(async (slot) => {
      for (const task of slot.busy?.tasks ?? []) task.resolve(unscannedResult(task.path, 'unscanned_error'));
      slot.busy = undefined;
      await slot.worker.terminate();
    }));
  }
}
