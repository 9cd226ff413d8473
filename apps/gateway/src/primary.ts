import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { GatewayConfig, GatewayEventDrain } from '@rampart/contracts';
import type { GeoIpOptions } from '@rampart/geoip';
import type { FromWorker, ToWorker } from './cluster-messages.ts';
import { loadGatewayConfig } from './config.ts';
import { createAreaLookup, geoCacheDir, policyNeedsAreas, prepareGeoCacheApart } from './geo-areas.ts';
import type { OnGatewayEvent } from './inspector.ts';
import { PolicyHub, type TimedBase } from './policy-hub.ts';
import { TimedMaster } from './timed-master.ts';

export interface PrimaryOptions {
  configPath: string;
  /** Overrides the file's `workers` (0 = one per core). */
  workers?: number;
  /** A module exporting `inspector` or `inspect`; default @rampart/waf. */
  inspectorModule?: string;
  /**
   * Every decision's notice, as it happens (stdout event lines). Leave it out when the console drains
   * the batched events instead: the workers then send no message per blocked request.
   */
  onEvent?: OnGatewayEvent;
  log: (message: string) => void;
  /** Adds X-Rampart-Worker: pid/generation to responses (tests, diagnostics). */
  exposeWorker?: boolean;
  /** How long old workers may take to finish in-flight requests after a reload. */
  drainGraceMs?: number;
  /**
   * The unprivileged account the workers run as. The primary (root when it must bind 80/443) only
   * opens the listening sockets and hands connections over; every byte of HTTP from the internet is
   * parsed in a worker, so the web-facing part is never root (DESIGN.md).
   */
  workerUser?: { uid: number; gid: number };
  /**
   * Geo-IP sources (default: the installed data packages). The parsed tables are cached in
   * `geoip-cache/` beside the configuration file (geo-areas.ts).
   */
  geo?: Omit<GeoIpOptions, 'cacheDir'>;
  /** Events buffered for the console's `events` drain (default 10,000; 0 = none: no admin socket, nobody drains). */
  maxEvents?: number;
  /** DNS servers for the fake-spider check (tests; default: the system's resolv.conf). */
  dnsServers?: string[];
}

export type ReloadResult = { ok: true; generation: number; workers: number[] } | { ok: false; reason: string };

interface Generation {
  id: number;
  config: GatewayConfig;
  workers: Worker[];
  addresses: Record<string, { address: string; port: number }>;
  /** The file's timed lists; workers start with them merged with the runtime changes (policy-hub.ts). */
  timedBase: TimedBase;
}

const readyTimeoutMs = 15_000;

/**
 * The primary process: reads the configuration, runs one generation of workers on it, and on a
 * reload starts a new generation beside the old one; only once every new worker listens does it
 * tell the old ones to drain, so no connection is refused or cut. A configuration that fails
 * (schema, certificate, a port that can't be bound) is refused and the running generation stays.
 */
export class GatewayPrimary {
  private current: Generation | undefined;
  private nextId = 1;
  private reloading: Promise<ReloadResult> | undefined;
  private stopping = false;
  private readonly options: PrimaryOptions;
  private readonly geo: GeoIpOptions;
  /** The cache was written (or found current) by a child process; null = not tried yet. */
  private geoPrepared: boolean | null = null;
  /** The child process writing the cache, while it runs. */
  private geoPreparing: Promise<void> | undefined;
  /** Timed lists, cluster-wide counts and the event buffer (admin `events` and `timed`). */
  readonly hub: PolicyHub;

  constructor(options: PrimaryOptions) {
    this.options = options;
    this.geo = { ...options.geo, cacheDir: geoCacheDir(options.configPath) };
    const areasOf = createAreaLookup(this.geo, options.log);
    this.hub = new PolicyHub({
      log: options.log,
      // Events of a policy that reads no areas come without one; looked up here, once, for the console.
      areaOf: (ip) => {
        // The tables come from the cache (~7 MiB for IPv4), which drainEvents waits for; without one
        // the lookup would parse the sources here and keep ~50 MiB more for the primary's lifetime.
        const areas = areasOf(ip);
        return areas.find((a) => a.includes('-')) ?? areas[0] ?? null;
      },
      ...(options.maxEvents !== undefined ? { maxEvents: options.maxEvents } : {}),
    });
    cluster.setupPrimary({
      exec: join(import.meta.dirname, 'worker-main.ts'),
      args: [],
      // A young generation capped at 8 MiB per semi-space: under load V8 otherwise grows it to its
      // maximum and each worker sits ~80 MiB higher, for no measurable gain in requests per second
      // (bench/waf-perf on 2 cores: same rps within noise, RSS ~175 instead of ~255 MiB per worker).
      execArgv: ['--disable-warning=ExperimentalWarning', '--max-semi-space-size=8'],
      silent: false,
      ...(options.workerUser ?? {}),
    });
  }

  status(): { generation: number; workers: number[]; sites: string[]; addresses: Generation['addresses'] } | undefined {
    const g = this.current;
    return g && { generation: g.id, workers: g.workers.map((w) => w.process.pid ?? 0), sites: g.config.sites.map((s) => s.id), addresses: g.addresses };
  }

  /** Reads the file again and swaps generations; concurrent calls share one reload. */
  reload(): Promise<ReloadResult> {
    this.reloading ??= this.doReload().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  private async doReload(): Promise<ReloadResult> {
    const loaded = loadGatewayConfig(this.options.configPath);
    if (!loaded.ok) {
      this.options.log(`configuration refused, the running one stays: ${loaded.reason}`);
      return { ok: false, reason: loaded.reason };
    }
    const config = loaded.config;
    const count = this.options.workers || config.workers || availableParallelism();
    // Before the workers start, so they find the cache (they may not write it: geo-areas.ts).
    if (policyNeedsAreas(config.policy)) await this.prepareGeo(true);
    const generation: Generation = { id: this.nextId++, config, workers: [], addresses: {}, timedBase: TimedMaster.fileLists(config.policy?.timed) };
    try {
      const started = await Promise.all(Array.from({ length: count }, () => this.startWorker(generation)));
      generation.addresses = started[0] ?? {};
    } catch (err) {
      const reason = (err as Error).message;
      // Failed workers finish what their partly opened listeners accepted, then exit; ones that hang are killed.
      for (const w of generation.workers) {
        if (w.isConnected()) w.send({ type: 'drain', graceMs: 5_000 } satisfies ToWorker);
        setTimeout(() => w.process.kill('SIGKILL'), 10_000).unref();
      }
      this.options.log(`configuration refused, the running one stays: ${reason}`);
      return { ok: false, reason };
    }
    const old = this.current;
    this.current = generation;
    this.hub.timed.commit(generation.timedBase, Date.now());
    if (old) this.drain(old);
    this.options.log(`generation ${generation.id} running: ${count} workers, ${config.sites.length} sites`);
    return { ok: true, generation: generation.id, workers: generation.workers.map((w) => w.process.pid ?? 0) };
  }

  /**
   * Writes the geo-IP cache in a child process, once per primary; after a failure, again only on a
   * reload whose policy reads areas (`retry`), so event lookups don't spawn a child each. When it
   * failed, lookups parse in this process as before (a correct area beats the memory).
   */
  private prepareGeo(retry = false): Promise<void> {
    if (this.geoPreparing) return this.geoPreparing;
    if (this.geoPrepared === true || (this.geoPrepared === false && !retry)) return Promise.resolve();
    this.geoPreparing = prepareGeoCacheApart(this.geo as GeoIpOptions & { cacheDir: string }).then((prepared) => {
      this.geoPrepared = prepared.ok;
      this.geoPreparing = undefined;
      this.options.log(prepared.ok ? `geo-IP cache ready in ${prepared.ms} ms${prepared.parsed ? ' (parsed)' : ''}` : `geo-IP cache not written: ${prepared.reason}`);
    });
    return this.geoPreparing;
  }

  /**
   * Admin `events`. The events get their areas as they leave (event-buffer.ts); while the cache is
   * still being written they wait in the buffer (an empty answer, the console asks again within a
   * second) rather than leave without an area or keep the console's request open past its timeout.
   */
  drainEvents(): GatewayEventDrain {
    if (this.geoPrepared === null && this.hub.events.length() > 0) {
      void this.prepareGeo();
      return { ok: true, events: [], dropped: 0, more: false };
    }
    return this.hub.drainEvents();
  }

  private startWorker(generation: Generation): Promise<Generation['addresses']> {
    const worker = cluster.fork({ RAMPART_GATEWAY_GENERATION: String(generation.id) });
    generation.workers.push(worker);
    worker.on('message', (m: FromWorker) => {
      // The worker's listener close reached us before this message (same channel, in order), so no
      // connection is handed to it any more; the answer follows every one already sent.
      if (m.type === 'listeners-closed') return void (worker.isConnected() && worker.send({ type: 'released' } satisfies ToWorker));
      if (this.hub.handle(worker, m)) return;
      if (m.type === 'event') this.options.onEvent?.(m.event);
      else if (m.type === 'log') this.options.log(`worker ${worker.process.pid}: ${m.message}`);
    });
    worker.on('exit', (code, signal) => this.onWorkerExit(generation, worker, code, signal));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('a worker did not start in time')), readyTimeoutMs);
      const onMessage = (m: FromWorker) => {
        if (m.type === 'ready') {
          clearTimeout(timer);
          worker.off('message', onMessage);
          resolve(m.addresses);
        } else if (m.type === 'failed') {
          clearTimeout(timer);
          reject(new Error(m.reason));
        }
      };
      worker.on('message', onMessage);
      worker.once('exit', () => reject(new Error('a worker exited while starting')));
      worker.once('online', () => {
        const message: ToWorker = {
          type: 'config',
          // The timed lists as they are now, not as the file had them (policy-hub.ts).
          ...this.hub.workerStart(generation.config, generation.timedBase),
          ...(this.options.inspectorModule ? { inspectorModule: this.options.inspectorModule } : {}),
          exposeWorker: this.options.exposeWorker ?? false,
          notices: this.options.onEvent !== undefined,
          geo: this.geo,
          ...(this.options.dnsServers ? { dnsServers: this.options.dnsServers } : {}),
        };
        worker.send(message);
      });
    });
  }

  /** A worker of the running generation that dies is replaced (after a pause, so a crash loop can't spin). */
  private onWorkerExit(generation: Generation, worker: Worker, code: number | null, signal: string | null): void {
    const index = generation.workers.indexOf(worker);
    if (index >= 0) generation.workers.splice(index, 1);
    if (this.stopping || generation !== this.current) return;
    this.options.log(`worker ${worker.process.pid} died (${signal ?? code}); starting another`);
    setTimeout(() => {
      if (generation === this.current && !this.stopping) this.startWorker(generation).catch((err: Error) => this.options.log(`replacement worker failed: ${err.message}`));
    }, 1000).unref();
  }

  private drain(generation: Generation): void {
    const graceMs = this.options.drainGraceMs ?? generation.config.timeouts.idle_ms;
    for (const w of generation.workers) {
      const message: ToWorker = { type: 'drain', graceMs };
      if (w.isConnected()) w.send(message);
      // A worker that does not finish its drain in time (plus a margin) is killed.
      setTimeout(() => w.process.kill('SIGKILL'), graceMs + 5_000).unref();
    }
  }

  /** Stops every worker, letting in-flight requests finish within `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    this.hub.stop();
    const g = this.current;
    this.current = undefined;
    if (!g) return;
    const exits = g.workers.map((w) => new Promise<void>((resolve) => (w.isDead() ? resolve() : w.once('exit', () => resolve()))));
    this.drain({ ...g, config: { ...g.config, timeouts: { ...g.config.timeouts, idle_ms: graceMs } } });
    await Promise.all(exits);
  }
}
