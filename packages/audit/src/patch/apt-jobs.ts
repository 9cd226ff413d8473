import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { aptError, isLockFailure, parseChangelogHead, parsePackageMeta, parseRelease, parseSimulate, parseStatusLine, releaseKeys, type PackageMeta, type PlannedUpgrade } from './apt-parse.ts';
import { runApt, type AptConfig } from './apt-run.ts';
import { DownloadTracker, type PackageDownload } from './download-progress.ts';

/** A pending update as a check finds it, before the agent gives it a status. */
export interface PatchCandidate extends PlannedUpgrade, PackageMeta {
  /** The Date of its origin's Release file (YYYY-MM-DD), else null. */
  releaseDate: string | null;
}

export type AptFailure = { locked: true } | { locked: false; error: string };
export type CheckOutcome = { ok: true; candidates: PatchCandidate[] } | ({ ok: false } & AptFailure);

const failure = (result: { code: number; stderr: string }): AptFailure =>
  isLockFailure(result.stderr) ? { locked: true } : { locked: false, error: aptError(result.stderr) || `exit ${result.code}` };

/** apt's own directories under the config (lists, archives), asked of apt-config so the sandbox's options apply. */
export async function aptDirs(config: AptConfig): Promise<{ lists: string; archives: string }> {
  const result = await runApt('apt-config', ['shell', 'LISTS', 'Dir::State::lists/d', 'ARCHIVES', 'Dir::Cache::archives/d'], config);
  const value = (name: string, fallback: string) => new RegExp(`^${name}='([^']*)'`, 'm').exec(result.stdout)?.[1] ?? fallback;
  return { lists: value('LISTS', '/var/lib/apt/lists/'), archives: value('ARCHIVES', '/var/cache/apt/archives/') };
}

/** Origin name as apt prints it → the Date of its Release file. */
async function releaseDates(listsDir: string): Promise<Map<string, string>> {
  const dates = new Map<string, string>();
  const files = await readdir(listsDir).catch(() => [] as string[]);
  for (const file of files.filter((f) => f.endsWith('_Release') || f.endsWith('_InRelease'))) {
    const info = parseRelease(await readFile(path.join(listsDir, file), 'utf8').catch(() => ''));
    if (!info?.date) continue;
    for (const key of releaseKeys(info)) dates.set(key, info.date);
  }
  return dates;
}

/** `apt-get update`, then what `apt-get -s dist-upgrade` would do, with each package's metadata. */
export async function checkUpdates(config: AptConfig): Promise<CheckOutcome> {
  const update = await runApt('apt-get', ['update'], config);
  if (update.code !== 0) return { ok: false, ...failure(update) };
  const simulate = await runApt('apt-get', ['-s', 'dist-upgrade'], config);
  if (simulate.code !== 0) return { ok: false, ...failure(simulate) };
  const planned = parseSimulate(simulate.stdout);
  const meta = new Map<string, PackageMeta>();
  // apt-cache takes many packages at once; batches keep the argument list short.
  for (let i = 0; i < planned.length; i += 200) {
    const shown = await runApt('apt-cache', ['show', ...planned.slice(i, i + 200).map((p) => `${p.name}=${p.to}`)], config);
    for (const [key, value] of parsePackageMeta(shown.stdout)) meta.set(key, value);
  }
  const dates = await releaseDates((await aptDirs(config)).lists);
  const candidates = planned.map((p): PatchCandidate => {
    const m = meta.get(`${p.name}=${p.to}`);
    return {
      ...p,
      description: m?.description ?? '',
      size: m?.size ?? 0,
      installedSizeKib: m?.installedSizeKib ?? null,
      releaseDate: p.origins.map((o) => dates.get(o)).find((d) => d !== undefined) ?? null,
    };
  });
  return { ok: true, candidates };
}

export interface JobEvents {
  /** Each package apt has started fetching, with its own state and percentage (download-progress.ts). */
  downloads?: (packages: PackageDownload[]) => void;
  /** dpkg's progress on a package (the whole run's percentage). */
  installing?: (pkg: string, percent: number) => void;
  /** dpkg failed on a package. */
  failed?: (pkg: string, message: string) => void;
}

export type JobOutcome = { ok: true } | ({ ok: false } & AptFailure);

function hooks(events: JobEvents) {
  const downloads = new DownloadTracker();
  return {
    onStdout: (line: string) => {
      if (downloads.stdout(line)) events.downloads?.(downloads.packages());
    },
    onStatus: (line: string) => {
      if (downloads.status(line)) events.downloads?.(downloads.packages());
      const status = parseStatusLine(line);
      if (!status) return;
      if (status.kind === 'pmstatus' && status.pkg !== 'dpkg-exec') events.installing?.(status.pkg, status.percent);
      else if (status.kind === 'pmerror') events.failed?.(status.pkg, status.message);
    },
  };
}

/** `names`: those packages (upgrades only); null: the whole dist-upgrade. */
const selection = (names: readonly string[] | null) => (names ? ['install', '--only-upgrade', ...names] : ['dist-upgrade']);

export async function downloadUpdates(config: AptConfig, names: readonly string[] | null, events: JobEvents = {}): Promise<JobOutcome> {
  const result = await runApt('apt-get', ['-y', '-d', ...selection(names)], config, hooks(events));
  return result.code === 0 ? { ok: true } : { ok: false, ...failure(result) };
}

/** Installing packages by name marks them manually installed: the ones apt had as automatic are marked so again after. */
export async function installUpdates(config: AptConfig, names: readonly string[] | null, events: JobEvents = {}): Promise<JobOutcome> {
  const auto = names ? new Set((await runApt('apt-mark', ['showauto', ...names], config)).stdout.split('\n').map((l) => l.trim()).filter(Boolean)) : new Set<string>();
  const result = await runApt('apt-get', ['-y', ...selection(names)], config, hooks(events));
  const remark = (names ?? []).filter((name) => auto.has(name));
  if (remark.length > 0) await runApt('apt-mark', ['auto', ...remark], config);
  return result.code === 0 ? { ok: true } : { ok: false, ...failure(result) };
}

/** The cache's file name of a package version (apt writes an epoch's colon as %3a). */
export const debFileName = (name: string, version: string, arch: string) => `${name}_${version.replace(/:/g, '%3a')}_${arch}.deb`;

/**
 * The first entry of the changelog inside a downloaded .deb (`usr/share/doc/<pkg>/changelog.Debian.gz`,
 * else `changelog.gz`): its urgency and date. Nulls when the package has none.
 */
export function debChangelogHead(deb: string, pkg: string): Promise<{ urgency: string | null; date: string | null }> {
  const script = 'dpkg-deb --fsys-tarfile "$1" | tar -xOf - --wildcards --no-wildcards-match-slash "./usr/share/doc/$2/changelog.Debian.gz" "./usr/share/doc/$2/changelog.gz" 2>/dev/null | head -c 65536';
  return new Promise((resolve) => {
    execFile('sh', ['-c', script, 'sh', deb, pkg], { encoding: 'buffer', maxBuffer: 1024 * 1024, timeout: 60_000 }, (_error, stdout) => {
      try {
        // A truncated gzip stream still yields its first (newest) entries.
        const text = gunzipSync(stdout, { finishFlush: 2 /* Z_SYNC_FLUSH */ }).toString('utf8');
        resolve(parseChangelogHead(text));
      } catch {
        resolve({ urgency: null, date: null });
      }
    });
  });
}
