import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { compareVersions, productVersion, type ReleaseAnswer, type ReleaseManifest, type ReleaseView } from '@rampart/contracts';
import { writeFileAtomic } from '../modules/atomic-write.ts';
import { keyIdOf } from '../cloud/bundle.ts';
import { downloadRelease } from './release-download.ts';
import { readReleaseSource } from './release-source.ts';

export interface ReleaseOptions {
  /** The version running (tests pretend an older one). */
  current?: string;
  fetchTimeoutMs?: number;
}

interface ReleaseSettings {
  url: string;
  public_key: string;
}

type Check = ReleaseView['check'];
type Download = ReleaseView['download'];

/** Where releases are looked for when no URL is configured: the licence authority's latest release. */
export function authorityReleaseUrl(authorityUrl: string): string {
  return `${authorityUrl.replace(/\/+$/, '')}/v1/releases/latest`;
}

/**
 * Rampart's own releases: where they come from and the pinned vendor key (the administrator sets
 * both; no key ships), the last check, and one download at a time into `<state>/releases/`. A
 * package is staged only once its size and SHA-256 match the signed manifest. Installing a staged
 * release over the running one is not in this build (`can_install` false).
 */
export class ReleaseService {
  readonly #file: string;
  readonly #releasesDir: string;
  readonly #current: string;
  readonly #timeoutMs: number;
  #settings: ReleaseSettings = { url: '', public_key: '' };
  #check: Check = { state: 'not_checked', checked_at: null, latest: null, reason: '', detail: '' };
  #checkedUrl = '';
  #download: Download = { state: 'idle', version: '', bytes: 0, total: 0, staged_path: '', reason: '', detail: '' };
  #running: Promise<void> | null = null;
  readonly #abort = new AbortController();

  private constructor(stateDir: string, options: ReleaseOptions) {
    this.#file = path.join(stateDir, 'release-settings.json');
    this.#releasesDir = path.join(stateDir, 'releases');
    this.#current = options.current ?? productVersion;
    this.#timeoutMs = options.fetchTimeoutMs ?? 15_000;
  }

  static async open(stateDir: string, options: ReleaseOptions = {}): Promise<ReleaseService> {
    const service = new ReleaseService(stateDir, options);
    try {
      const saved = JSON.parse(await readFile(service.#file, 'utf8')) as Partial<ReleaseSettings>;
      service.#settings = { url: typeof saved.url === 'string' ? saved.url : '', public_key: typeof saved.public_key === 'string' ? saved.public_key : '' };
    } catch {
      // not configured yet
    }
    return service;
  }

  #url(authorityUrl: string): string {
    return this.#settings.url || authorityReleaseUrl(authorityUrl);
  }

  view(authorityUrl: string): ReleaseView {
    return {
      current: this.#current,
      url: this.#url(authorityUrl),
      url_configured: this.#settings.url !== '',
      key_id: this.#settings.public_key ? keyIdOf(this.#settings.public_key) : null,
      check: { ...this.#check },
      download: { ...this.#download },
      can_install: false,
    };
  }

  #answer(authorityUrl: string, refused: string | null = null, detail = ''): ReleaseAnswer {
    return { refused, detail, view: this.view(authorityUrl) };
  }

  async setSettings(url: string, publicKey: string, authorityUrl: string): Promise<ReleaseAnswer> {
    this.#settings = { url, public_key: publicKey };
    await writeFileAtomic(this.#file, `${JSON.stringify(this.#settings)}\n`);
    // What was checked against another source or key no longer stands.
    this.#check = { state: 'not_checked', checked_at: null, latest: null, reason: '', detail: '' };
    return this.#answer(authorityUrl);
  }

  async check(authorityUrl: string): Promise<ReleaseAnswer> {
    const url = this.#url(authorityUrl);
    const at = Date.now();
    if (!this.#settings.public_key) {
      this.#check = { state: 'no_key', checked_at: at, latest: null, reason: 'release_no_key', detail: '' };
      return this.#answer(authorityUrl);
    }
    const source = await readReleaseSource(url, this.#settings.public_key, this.#timeoutMs);
    if (!source.ok) {
      this.#check = { state: source.state, checked_at: at, latest: null, reason: source.reason, detail: source.detail };
    } else {
      const newer = compareVersions(source.manifest.version, this.#current) > 0;
      this.#check = { state: newer ? 'available' : 'up_to_date', checked_at: at, latest: source.manifest, reason: '', detail: '' };
      this.#checkedUrl = url;
    }
    return this.#answer(authorityUrl);
  }

  /** Starts downloading the release the last check found; the page polls `view` for the bytes. */
  async startDownload(authorityUrl: string): Promise<ReleaseAnswer> {
    if (this.#running) return this.#answer(authorityUrl, 'release_download_busy');
    const latest = this.#check.latest;
    if (this.#check.state !== 'available' || !latest) return this.#answer(authorityUrl, 'release_not_available');
    const packageUrl = new URL(latest.file, this.#checkedUrl).toString();
    this.#download = { state: 'downloading', version: latest.version, bytes: 0, total: latest.size, staged_path: '', reason: '', detail: '' };
    this.#running = this.#run(latest, packageUrl).finally(() => {
      this.#running = null;
    });
    return this.#answer(authorityUrl);
  }

  async #run(manifest: ReleaseManifest, packageUrl: string): Promise<void> {
    const outcome = await downloadRelease(manifest, packageUrl, this.#releasesDir, (bytes) => {
      this.#download.bytes = bytes;
    }, this.#abort.signal).catch((error: unknown) => ({ ok: false as const, reason: 'release_download_failed', detail: String((error as Error).message).slice(0, 200) }));
    this.#download = outcome.ok
      ? { ...this.#download, state: 'staged', bytes: manifest.size, staged_path: outcome.stagedPath }
      : { ...this.#download, state: 'failed', reason: outcome.reason, detail: outcome.detail };
  }

  /** Resolves when no download runs (tests). */
  async idle(): Promise<void> {
    await this.#running;
  }

  async close(): Promise<void> {
    this.#abort.abort();
    await this.#running;
  }
}
