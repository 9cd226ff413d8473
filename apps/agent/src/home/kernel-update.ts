import type { KernelUpdateResult } from '@rampart/contracts';
import { collectHostInfo } from '../host/host-info.ts';
import type { GuardService } from '../tamper/guard-service.ts';
import { rebuildGuardIfChanged, type GuardBuild } from './guard-build.ts';

/**
 * The spec's "driver update": rebuild the guard helper if its inputs changed, restart it so it
 * probes the kernel again, apply the current guard rules again, and answer with the kernel status
 * exactly as the dashboard reads it (host.info). One at a time: a second call is refused, not queued.
 * The console's audit trail records who ran it.
 */
export class KernelUpdater {
  readonly #guard: GuardService;
  readonly #rebuild: (binary: string) => Promise<GuardBuild>;
  #running = false;

  constructor(guard: GuardService, rebuild: (binary: string) => Promise<GuardBuild> = rebuildGuardIfChanged) {
    this.#guard = guard;
    this.#rebuild = rebuild;
  }

  get running(): boolean {
    return this.#running;
  }

  async update(): Promise<KernelUpdateResult> {
    if (this.#running) {
      const status = (await collectHostInfo(this.#guard.kernelCauses())).kernelStatus;
      return { refused: 'update_kernel_busy', build: 'no_build_step', build_error: '', helper: 'not_started', generation: this.#guard.status().generation, status };
    }
    this.#running = true;
    try {
      const build = await this.#rebuild(this.#guard.helperBinary);
      const helper = await this.#guard.restartHelper();
      const status = (await collectHostInfo(this.#guard.kernelCauses())).kernelStatus;
      const buildError = build.outcome === 'failed' ? build.error : '';
      return { refused: null, build: build.outcome, build_error: buildError, helper, generation: this.#guard.status().generation, status };
    } finally {
      this.#running = false;
    }
  }
}
