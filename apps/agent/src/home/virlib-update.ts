import { virlibVersionOf, type VirlibComponent, type VirlibUpdateResult } from '@rampart/contracts';
import type { CloudService } from '../cloud/cloud-service.ts';
import type { TrojanService } from '../trojan/trojan-service.ts';

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/**
 * The cloud library update (POST /home/update_virlib): every URL feed fetched now (the scheduled
 * fetch, at once: a failure keeps the installed list and is reported), then the web-shell rule
 * sets loaded and compiled again and the custom library compiled again. One answer row per part.
 */
export class VirlibUpdater {
  readonly #cloud: CloudService;
  readonly #trojan: TrojanService;
  #running = false;

  constructor(cloud: CloudService, trojan: TrojanService) {
    this.#cloud = cloud;
    this.#trojan = trojan;
  }

  async update(): Promise<VirlibUpdateResult> {
    if (this.#running) return { refused: 'update_virlib_busy', components: [], virlib_version: this.#version() };
    this.#running = true;
    try {
      const components: VirlibComponent[] = [];
      for (const feed of this.#cloud.repo.feeds().filter((row) => row.url)) {
        const before = String(feed.version);
        const change = await this.#cloud.updateNow(feed.id, '');
        const after = String(this.#cloud.repo.feed(feed.id)?.version ?? feed.version);
        // A kernel failure still installed the new version (it is applied again at the next change): the feed row says updated, the reason says why it is not enforced yet.
        const state = change.refused && change.refused !== 'cloud_kernel_failed' ? 'failed' : after !== before ? 'updated' : 'unchanged';
        components.push({ kind: 'feed', name: feed.name, state, old_version: before, new_version: after, reason: change.refused ?? '', detail: change.detail });
      }
      components.push(...this.#rules());
      return { refused: null, components, virlib_version: this.#version() };
    } finally {
      this.#running = false;
    }
  }

  /** What the dashboard shows as the cloud library version (GET /home/index reads it the same way). */
  #version(): string | null {
    return virlibVersionOf(this.#trojan.status().ruleSetVersion, this.#cloud.repo.feeds());
  }

  #rules(): VirlibComponent[] {
    const row = (kind: VirlibComponent['kind'], state: VirlibComponent['state'], oldVersion: string, newVersion: string, reason = '', detail = ''): VirlibComponent =>
      ({ kind, name: '', state, old_version: oldVersion, new_version: newVersion, reason, detail });
    const current = this.#trojan.status().ruleSetVersion;
    let reloaded: ReturnType<TrojanService['reloadRules']>;
    try {
      reloaded = this.#trojan.reloadRules();
    } catch (error) {
      return [row('webshell_rules', 'failed', current, current, 'update_virlib_rules_invalid', errorText(error))];
    }
    const rules = row('webshell_rules', reloaded.before === reloaded.after ? 'unchanged' : 'updated', reloaded.before, reloaded.after);
    const custom = reloaded.custom.ok
      ? row('custom_library', 'unchanged', '', '', '', `${reloaded.custom.rules}/${reloaded.custom.hashes}`)
      : row('custom_library', 'failed', '', '', 'trojan_rules_invalid', reloaded.custom.error.slice(0, 300));
    return [rules, custom];
  }
}
