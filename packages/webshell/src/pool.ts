/**
 * A small pool of scan workers (2 cores here: the default is 2). Each worker takes one file at a
 * time; a file that overruns its budget gets its worker terminated and replaced, and comes back
 * unscanned (timeout) while the other files go on. A worker that dies takes only its file with it.
 */
import { Worker } from 'node:worker_threads';
import type { WebshellFileResult, WebshellUnscannedReason } from '@rampart/contracts';
import type { WorkerInit } from './worker.ts';

interface Slot { worker: Worker; ready: boolean; busy?: { id: number; path: string; timer: NodeJS.Timeout; resolve: (r: WebshellFileResult) => void } }

/** Extra time over the per-file budget before a worker is stopped: reading and messaging cost a little. */
const graceMs = 250;
const workerUrl = new URL('./worker.ts', import.meta.url);

export class ScanPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: { path: string; resolve: (r: WebshellFileResult) => void }[] = [];
  private nextId = 1;
  private closed = false;

  private readonly init: WorkerInit;

  constructor(init: WorkerInit, size: number) {
    this.init = init;
    for (let i = 0; i < Math.max(1, size); i += 1) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(workerUrl, { workerData: this.init }), ready: false };
    slot.worker.on('message', (message: { ready?: boolean; id?: number; result?: WebshellFileResult; error?: string }) => {
      // The budget starts when the worker is ready: loading the parser and compiling rules is not the file's time.
      if (message.ready) { slot.ready = true; this.pump(); return; }
      const busy = slot.busy;
      if (!busy || message.id !== busy.id) return;
      clearTimeout(busy.timer);
      slot.busy = undefined;
      busy.resolve(message.result ?? unscanned(busy.path, 'unscanned_error'));
      this.pump();
    });
    slot.worker.on('error', () => this.replace(slot, 'unscanned_error'));
    slot.worker.on('exit', () => { if (!this.closed && this.slots.includes(slot)) this.replace(slot, 'unscanned_error'); });
    return slot;
  }

  /** Ends a slot's worker and puts a fresh one in its place; its file (if any) is reported as `reason`. */
  private replace(slot: Slot, reason: WebshellUnscannedReason): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    const busy = slot.busy;
    slot.busy = undefined;
    if (busy) { clearTimeout(busy.timer); busy.resolve(unscanned(busy.path, reason)); }
    this.slots.splice(index, 1);
    void slot.worker.terminate();
    if (!this.closed) { this.slots.push(this.spawn()); this.pump(); }
  }

  scan(path: string): Promise<WebshellFileResult> {
    if (this.closed) return Promise.resolve(unscanned(path, 'unscanned_error'));
    return new Promise((resolve) => { this.waiting.push({ path, resolve }); this.pump(); });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.busy || !slot.ready) continue;
      const task = this.waiting.shift();
      if (!task) return;
      const id = this.nextId++;
      const timer = setTimeout(() => this.replace(slot, 'unscanned_timeout'), this.init.timeBudgetMs + graceMs);
      slot.busy = { id, path: task.path, timer, resolve: task.resolve };
      slot.worker.postMessage({ id, path: task.path });
    }
  }

  get idle(): boolean { return this.waiting.length === 0 && this.slots.every((slot) => !slot.busy); }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0)) task.resolve(unscanned(task.path, 'unscanned_error'));
    await Promise.all(this.slots.map(async (slot) => {
      if (slot.busy) { clearTimeout(slot.busy.timer); slot.busy.resolve(unscanned(slot.busy.path, 'unscanned_error')); }
      await slot.worker.terminate();
    }));
  }
}

export function unscanned(path: string, reason: WebshellUnscannedReason): WebshellFileResult {
  return { path, size: 0, mtimeMs: 0, sha256: '', language: 'other', status: 'unscanned', unscannedReason: reason, risk: 'none', findings: [], elapsedMs: 0 };
}
