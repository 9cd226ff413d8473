import {
  planFullRuleset,
  planRemoval,
  planRulesRefresh,
  tableFingerprint,
  tableName,
  type AreaResolver,
  type DesiredFirewall,
  type NftExecutor,
  type NftScript,
  type PlanMemory,
} from '@rampart/firewall';
import type { FirewallStatus } from '@rampart/contracts';

/**
 * What Rampart last put in the kernel, and the three ways of changing it: the whole table,
 * the rules only, or a few set elements. Any failure of a partial change falls back to the whole
 * table, so the kernel never stays half-changed.
 */
export class KernelState {
  readonly #nft: NftExecutor | null;
  readonly #areas: AreaResolver;
  readonly #log: (line: string) => void;
  #memory: PlanMemory | null = null;
  #fingerprint: string | null = null;
  state: FirewallStatus['kernel'];
  message = '';
  appliedAt: number | null = null;
  restored = 0;

  constructor(nft: NftExecutor | null, areas: AreaResolver, log: (line: string) => void) {
    this.#nft = nft;
    this.#areas = areas;
    this.#log = log;
    this.state = nft ? 'off' : 'unavailable';
    if (!nft) this.message = 'not root or no nftables';
  }

  get available(): boolean {
    return this.#nft !== null;
  }

  async applyFull(desired: DesiredFirewall): Promise<void> {
    if (!this.#nft) return;
    const plan = planFullRuleset(desired, this.#areas);
    try {
      await this.#nft.apply(plan.script);
      this.#memory = plan.memory;
      await this.#settled(desired.now);
    } catch (error) {
      this.#failed(error);
      throw error;
    }
  }

  async refreshRules(desired: DesiredFirewall): Promise<void> {
    if (!this.#nft) return;
    if (!this.#memory || !(await this.intact())) return this.applyFull(desired);
    const plan = planRulesRefresh(desired, this.#areas, this.#memory);
    try {
      await this.#nft.apply(plan.script);
      this.#memory = plan.memory;
      await this.#settled(desired.now);
    } catch (error) {
      this.#log(`firewall: rule refresh failed (${(error as Error).message}); applying the whole table`);
      await this.applyFull(desired);
    }
  }

  /** Set element changes; `fallback` gives the desired state for a full apply when they fail. */
  async applyDelta(script: NftScript, fallback: () => DesiredFirewall): Promise<void> {
    if (!this.#nft || this.state !== 'ok') return;
    try {
      await this.#nft.apply(script);
    } catch (error) {
      this.#log(`firewall: set update failed (${(error as Error).message}); applying the whole table`);
      await this.applyFull(fallback());
    }
  }

  async remove(): Promise<void> {
    if (!this.#nft) return;
    await this.#nft.apply(planRemoval());
    this.#memory = null;
    this.#fingerprint = null;
    this.state = 'off';
    this.message = '';
  }

  /** True when the table is as the last apply left it. */
  async intact(): Promise<boolean> {
    if (!this.#nft || this.#fingerprint === null) return false;
    return (await tableFingerprint(this.#nft)) === this.#fingerprint;
  }

  /** Reads a set's elements with their remaining seconds (for the kernel's own port-scan blocks). */
  async readSet(name: string): Promise<Array<{ ip: string; expiresInS: number | null }>> {
    if (!this.#nft) return [];
    const listing = (await this.#nft.read(['list', 'set', 'inet', tableName, name])) as { nftables?: Array<{ set?: { elem?: unknown[] } }> };
    const elements = listing.nftables?.find((item) => item.set)?.set?.elem ?? [];
    return elements.flatMap((element) => {
      if (typeof element === 'string') return [{ ip: element, expiresInS: null }];
      const inner = (element as { elem?: { val?: unknown; expires?: number } }).elem;
      return typeof inner?.val === 'string' ? [{ ip: inner.val, expiresInS: inner.expires ?? null }] : [];
    });
  }

  async #settled(now: number): Promise<void> {
    this.#fingerprint = this.#nft ? await tableFingerprint(this.#nft) : null;
    this.state = 'ok';
    this.message = '';
    this.appliedAt = now;
  }

  #failed(error: unknown): void {
    this.state = 'error';
    this.message = error instanceof Error ? error.message : String(error);
    this.#log(`firewall: apply failed: ${this.message}`);
  }
}
