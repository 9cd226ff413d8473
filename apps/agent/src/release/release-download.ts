import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ReleaseManifest } from '@rampart/contracts';
import { fetchFailure } from './release-source.ts';

export type DownloadOutcome = { ok: true; stagedPath: string } | { ok: false; reason: string; detail: string };

/**
 * Downloads a verified manifest's package beside the staging area, counting bytes (`progress`) and
 * hashing as it goes; only a package of exactly the manifest's size and SHA-256 is moved into
 * `<releasesDir>/<version>/` with its manifest. Anything else is deleted: nothing is staged.
 */
export async function downloadRelease(
  manifest: ReleaseManifest,
  packageUrl: string,
  releasesDir: string,
  progress: (bytes: number) => void,
  signal: AbortSignal,
): Promise<DownloadOutcome> {
  await mkdir(releasesDir, { recursive: true, mode: 0o700 });
  const partial = path.join(releasesDir, `.partial-${manifest.file}`);
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    // A stalled server must not hold the one download slot for ever: an hour is plenty for a package.
    const response = await fetch(packageUrl, { signal: AbortSignal.any([signal, AbortSignal.timeout(60 * 60_000)]), redirect: 'follow' });
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: false, reason: 'release_download_failed', detail: `HTTP ${response.status}` };
    }
    const out = createWriteStream(partial, { mode: 0o600 });
    const closed = new Promise<void>((resolve, reject) => {
      out.once('close', resolve);
      out.once('error', reject);
    });
    try {
      for await (const chunk of response.body ?? []) {
        const data = chunk as Uint8Array;
        bytes += data.byteLength;
        // A server sending more than the manifest says is not serving this release: stop reading.
        if (bytes > manifest.size) break;
        hash.update(data);
        if (!out.write(data)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        progress(bytes);
      }
    } finally {
      out.end();
      await closed;
    }
  } catch (error) {
    await rm(partial, { force: true });
    return { ok: false, reason: 'release_download_failed', detail: fetchFailure(error) };
  }
  if (bytes !== manifest.size) {
    await rm(partial, { force: true });
    return { ok: false, reason: 'release_size_mismatch', detail: `${bytes > manifest.size ? `> ${manifest.size}` : bytes} / ${manifest.size}` };
  }
  if (hash.digest('hex') !== manifest.sha256) {
    await rm(partial, { force: true });
    return { ok: false, reason: 'release_hash_mismatch', detail: '' };
  }
  const stagedDir = path.join(releasesDir, manifest.version);
  await rm(stagedDir, { recursive: true, force: true });
  await mkdir(stagedDir, { recursive: true, mode: 0o700 });
  await rename(partial, path.join(stagedDir, manifest.file));
  await writeFile(path.join(stagedDir, 'release.json'), `${JSON.stringify(manifest, null, 1)}\n`, { mode: 0o600 });
  return { ok: true, stagedPath: stagedDir };
}
