import { createReadStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadTracker, downloadUpdates, parseAptSize, runApt, type AptConfig, type PackageDownload } from '../src/index.ts';
import { makeAptSandbox, removeAptSandbox, type AptSandbox } from './apt-sandbox.ts';

/** Fed in the order given: `OUT` lines are apt's stdout, the rest its Status-Fd. */
function replay(lines: readonly string[]): PackageDownload[][] {
  const tracker = new DownloadTracker();
  const seen: PackageDownload[][] = [];
  for (const line of lines) {
    const changed = line.startsWith('OUT ') ? tracker.stdout(line.slice(4)) : tracker.status(line);
    if (changed) seen.push(tracker.packages());
  }
  return seen;
}

describe('each package’s own download progress', () => {
  it('reads apt’s sizes', () => {
    expect([parseAptSize('646 B'), parseAptSize('12.3 kB'), parseAptSize('2,757 kB'), parseAptSize('1.5 MB'), parseAptSize('[x]')]).toEqual([646, 12_300, 2_757_000, 1_500_000, null]);
  });

  it('attributes apt’s whole-download percentage to the file being fetched (lines recorded from the sandbox over http)', () => {
    const seen = replay([
      'dlstatus:1:0.0000:Retrieving file 1 of 2',
      'OUT 2 upgraded, 0 newly installed, 0 to remove and 0 not upgraded.',
      'OUT Need to get 1286 B of archives.',
      'OUT After this operation, 8192 B of additional disk space will be used.',
      'OUT Get:1 http://127.0.0.1:43099/main ./ rp-alpha 1.1 [644 B]',
      'dlstatus:1:0.0000:Retrieving file 1 of 2',
      'dlstatus:1:20.0311:Retrieving file 1 of 2',
      'dlstatus:2:50.0622:Retrieving file 2 of 2',
      'dlstatus:2:70.0311:Retrieving file 2 of 2',
      'OUT Get:2 http://127.0.0.1:43099/security ./ rp-beta 1.1 [642 B]',
      'dlstatus:2:70.0311:Retrieving file 2 of 2',
      'dlstatus:2:100.0000:Retrieving file 2 of 2',
      'OUT Fetched 1286 B in 2s (517 B/s)',
      'OUT Download complete and in download only mode',
    ]);
    expect(seen[2]).toEqual([{ name: 'rp-alpha', state: 'downloading', percent: 0 }]);
    // 20% of 1286 B is 258 B: 40% of rp-alpha's 644 B.
    expect(seen[3]).toEqual([{ name: 'rp-alpha', state: 'downloading', percent: 40 }]);
    // File 2 is being fetched: rp-alpha is finished, and rp-beta (70% of the whole) has its own 40%, not apt's 70%.
    expect(seen[4]).toEqual([{ name: 'rp-alpha', state: 'finished', percent: 100 }]);
    expect(seen[6]).toEqual([{ name: 'rp-alpha', state: 'finished', percent: 100 }, { name: 'rp-beta', state: 'downloading', percent: 40 }]);
    expect(seen.at(-1)).toEqual([{ name: 'rp-alpha', state: 'finished', percent: 100 }, { name: 'rp-beta', state: 'finished', percent: 100 }]);
  });

  it('copes with the two pipes arriving out of order (copy: source, as recorded)', () => {
    // Status-Fd ran ahead of stdout: file 2 was already at 100% when its Get line came.
    const seen = replay([
      'dlstatus:1:0.0000:Retrieving file 1 of 2',
      'OUT Need to get 1288 B of archives.',
      'OUT Get:1 copy:/tmp/rampart-apt-o1LBb2/repo/main ./ rp-alpha 1.1 [646 B]',
      'dlstatus:2:50.1242:Retrieving file 2 of 2',
      'dlstatus:2:100.0000:Retrieving file 2 of 2',
      'OUT Get:2 copy:/tmp/rampart-apt-o1LBb2/repo/security ./ rp-beta 1.1 [642 B]',
    ]);
    expect(seen[0]).toEqual([]);
    expect(seen[1]).toEqual([{ name: 'rp-alpha', state: 'downloading', percent: 0 }]);
    expect(seen[2]).toEqual([{ name: 'rp-alpha', state: 'finished', percent: 100 }]);
    expect(seen.at(-1)).toEqual([{ name: 'rp-alpha', state: 'finished', percent: 100 }, { name: 'rp-beta', state: 'finished', percent: 100 }]);
  });

  it('gives no figure for a file whose size apt did not print, and ignores other lines', () => {
    const tracker = new DownloadTracker();
    expect(tracker.stdout('Get:1 http://deb.debian.org/debian bookworm/main amd64 libc6 amd64 2.36-9+deb12u9 [2,757 kB]')).toBe(true);
    expect(tracker.stdout('Reading package lists...')).toBe(false);
    expect(tracker.status('pmstatus:libc6:20:Installing libc6')).toBe(false);
    tracker.status('dlstatus:1:40.0000:Retrieving file 1 of 1');
    // No "Need to get" line: the whole size is unknown.
    expect(tracker.packages()).toEqual([{ name: 'libc6', state: 'downloading', percent: null }]);
  });
});

/*
 * The sandbox's two packages fetched by the real apt-get over http from a server on loopback that
 * stops halfway through each .deb for a moment, so apt reports while a file is part-fetched.
 */
describe('a real download of two packages', () => {
  let sandbox: AptSandbox;
  let server: Server;
  let apt: AptConfig;
  const pauseMs = 1_200;

  beforeAll(async () => {
    sandbox = makeAptSandbox([{ name: 'rp-alpha', suite: 'main' }, { name: 'rp-beta', suite: 'security' }]);
    server = createServer((req, res) => {
      const file = path.join(sandbox.dir, 'repo', path.normalize(decodeURIComponent(req.url ?? '/')).replace(/^(\.\.[/\\])+/, ''));
      let size: number;
      try {
        size = statSync(file).size;
      } catch {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-length': size });
      if (!file.endsWith('.deb')) {
        createReadStream(file).pipe(res);
        return;
      }
      const body = readFileSync(file);
      res.write(body.subarray(0, size >> 1));
      setTimeout(() => res.end(body.subarray(size >> 1)), pauseMs);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    writeFileSync(path.join(sandbox.dir, 'etc/sources.list'), ['main', 'security'].map((suite) => `deb [trusted=yes] http://127.0.0.1:${port}/${suite} ./\n`).join(''));
    // The loopback server directly, whatever proxy the environment names.
    apt = { ...sandbox.apt, options: [...sandbox.apt.options, 'Acquire::http::Proxy::127.0.0.1=DIRECT'] };
    expect((await runApt('apt-get', ['update'], apt)).code).toBe(0);
  });
  afterAll(() => {
    server?.close();
    if (sandbox) removeAptSandbox(sandbox);
  });

  it('shows the first package finished while the second is still part-fetched', async () => {
    const seen: PackageDownload[][] = [];
    const outcome = await downloadUpdates(apt, null, { downloads: (list) => seen.push(list) });
    expect(outcome).toEqual({ ok: true });
    const state = (list: PackageDownload[], name: string) => list.find((p) => p.name === name);
    expect(seen.some((list) => state(list, 'rp-alpha')?.state === 'finished' && state(list, 'rp-beta')?.state === 'downloading' && (state(list, 'rp-beta')?.percent ?? 0) > 0)).toBe(true);
    // While rp-alpha was half-fetched it had its own figure, and apt's overall figure was not on rp-beta.
    expect(seen.some((list) => { const a = state(list, 'rp-alpha'); return a?.state === 'downloading' && a.percent !== null && a.percent > 0 && a.percent < 100 && (state(list, 'rp-beta')?.percent ?? 0) === 0; })).toBe(true);
    expect(seen.at(-1)).toEqual([{ name: 'rp-alpha', state: 'finished', percent: 100 }, { name: 'rp-beta', state: 'finished', percent: 100 }]);
  }, 30_000);
});
