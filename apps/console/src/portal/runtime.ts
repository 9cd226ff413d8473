import { join, dirname } from 'node:path';
import { openGeoIp } from '@rampart/geoip';
import { entryCovers, listChunkSize, parseAddressEntry, type AddressEntry } from '@rampart/contracts';
import type { ConsoleContext } from '../context.ts';
import { getSetting } from '../db/settings.ts';
import { consoleConfig } from '../config.ts';
import { secretBox, type SecretBox } from '../security/secret-box.ts';
import { isLoopback } from './addresses.ts';

export interface PortalOptions {
  /** The areas (country, province codes) of an address; by default @rampart/geoip, opened on first need. */
  areaOf?: (ip: string) => string[];
  /** How long the super whitelist read from the agent is trusted (ms). */
  trustCacheMs?: number;
  log?: (line: string) => void;
}

/** How old the gate's copy of its settings may get before it reads them again. */
const gateRereadMs = 5_000;

/** What the gate checks, read from the settings once per change rather than per request. */
export interface GateSettings {
  entry: string;
  /** The cookie value that proves the entry was visited. */
  entryToken: string;
  domain: string;
  authorized: { enabled: boolean; entries: AddressEntry[]; areas: string[] };
}

/** Where the listener is: set by the listener (main.ts); absent under app.inject. */
export interface Listening {
  host: string;
  port: number;
  tls: boolean;
}

const runtimes = new WeakMap<ConsoleContext, PortalRuntime>();

/** The portal's state for one console: gate settings, caches, and the listener's restart hook. */
export function portalRuntime(ctx: ConsoleContext, options: PortalOptions = {}): PortalRuntime {
  let runtime = runtimes.get(ctx);
  if (!runtime) {
    runtime = new PortalRuntime(ctx, options);
    runtimes.set(ctx, runtime);
  }
  return runtime;
}

export function parseEntries(lines: readonly string[]): AddressEntry[] {
  return lines.map(parseAddressEntry).filter((e): e is AddressEntry => e !== null);
}

export class PortalRuntime {
  readonly box: SecretBox;
  #gate!: GateSettings;
  #gateReadAt = 0;
  listening: Listening | null = null;
  readonly #ctx: ConsoleContext;
  readonly #options: PortalOptions;
  #trusted: { at: number; entries: AddressEntry[] } | null = null;
  #trustedLoading: Promise<AddressEntry[]> | null = null;
  #areaOf: ((ip: string) => string[]) | null | undefined;
  #apply: (() => Promise<void>) | null = null;

  constructor(ctx: ConsoleContext, options: PortalOptions) {
    this.#ctx = ctx;
    this.#options = options;
    this.box = secretBox(ctx.db);
    this.#areaOf = options.areaOf;
    this.reloadGate();
  }

  log(line: string): void {
    (this.#options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }

  /**
   * The gate settings. Re-read at most every few seconds even without a save, so a change made
   * outside this process (`rampart portal reset` on the server, the way back in) takes effect
   * without a restart.
   */
  get gate(): GateSettings {
    if (performance.now() - this.#gateReadAt > gateRereadMs) this.reloadGate();
    return this.#gate;
  }

  reloadGate(): void {
    this.#gateReadAt = performance.now();
    const db = this.#ctx.db;
    const entry = getSetting(db, 'panel_safe_entry');
    const authorized = getSetting(db, 'panel_authorized');
    this.#gate = {
      entry,
      entryToken: entry ? this.box.tag(`entry:${entry}`) : '',
      domain: getSetting(db, 'panel_domain'),
      authorized: { enabled: authorized.enabled, entries: parseEntries(authorized.ips), areas: authorized.areas },
    };
  }

  /** The port the panel is on: the listener's, else the saved one, else RAMPART_PORT. */
  currentPort(): number {
    return this.listening?.port ?? getSetting(this.#ctx.db, 'panel_port') ?? consoleConfig().port;
  }

  currentHost(): string {
    return this.listening?.host ?? consoleConfig().host;
  }

  /** The listener registers how it moves; a save calls `apply` once its answer has gone out. */
  onApply(apply: (() => Promise<void>) | null): void {
    this.#apply = apply;
  }

  async apply(): Promise<void> {
    this.reloadGate();
    if (this.#apply) await this.#apply();
  }

  /**
   * May `ip` open the panel under `authorized`? Loopback and the super whitelist always may (spec,
   * section 6); then the listed addresses and areas.
   */
  async passes(ip: string, authorized: GateSettings['authorized']): Promise<boolean> {
    if (!authorized.enabled || isLoopback(ip)) return true;
    if (authorized.entries.some((entry) => entryCovers(entry, ip))) return true;
    if (authorized.areas.length > 0) {
      const areas = this.areasOf(ip);
      if (authorized.areas.some((code) => areas.includes(code))) return true;
    }
    return (await this.#trustedEntries()).some((entry) => entry.kind !== 'any' && entryCovers(entry, ip));
  }

  /** Country and province codes of `ip` (empty when the geo-IP data is missing). */
  areasOf(ip: string): string[] {
    if (this.#areaOf === undefined) this.#areaOf = this.#openGeo();
    try {
      return this.#areaOf ? this.#areaOf(ip) : [];
    } catch (error) {
      // Missing data files: no area matches, and the log says why.
      this.log(`portal: geo-IP lookup failed: ${String(error)}`);
      this.#areaOf = null;
      return [];
    }
  }

  /** The geo-IP tables load on the first lookup, so only when an authorized area is set (they cost memory and a second to read). */
  #openGeo(): ((ip: string) => string[]) | null {
    try {
      const location = this.#ctx.db.location();
      const geo = openGeoIp(location ? { cacheDir: join(dirname(location), 'geoip-cache') } : {});
      return (ip) => {
        const found = geo.lookup(ip);
        return [found.country, found.province].filter((code): code is string => code !== null);
      };
    } catch (error) {
      this.log(`portal: geo-IP unavailable, authorized areas match nothing: ${String(error)}`);
      return null;
    }
  }

  /**
   * The super whitelist, from the agent, kept briefly so a page load (dozens of requests) asks
   * once. The agent being away means no whitelist rather than every address let through.
   */
  async #trustedEntries(): Promise<AddressEntry[]> {
    const now = Date.now();
    if (this.#trusted && now - this.#trusted.at < (this.#options.trustCacheMs ?? 30_000)) return this.#trusted.entries;
    this.#trustedLoading ??= (async () => {
      const entries: AddressEntry[] = [];
      try {
        for (let offset = 0; ; offset += listChunkSize) {
          const page = await this.#ctx.agent.call('trust.list', { offset, limit: listChunkSize });
          const at = this.#ctx.now();
          for (const row of page.list) {
            if (row.expires_at !== null && row.expires_at <= at) continue;
            const parsed = parseAddressEntry(row.address);
            if (parsed) entries.push(parsed);
          }
          if (page.list.length < listChunkSize) break;
        }
      } catch {
        // keep what was read; a later request asks again
      }
      this.#trusted = { at: Date.now(), entries };
      this.#trustedLoading = null;
      return entries;
    })();
    return this.#trustedLoading;
  }

  /** Forget the cached super whitelist (tests, and after the whitelist changes). */
  forgetTrusted(): void {
    this.#trusted = null;
  }
}
