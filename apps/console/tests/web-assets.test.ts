import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '@rampart/agent-client';
import { buildConsole, type Console } from '../src/app.ts';
import { immutableCache, isHashedAsset } from '../src/http/web-assets.ts';

/*
 * The built web app as the console serves it (issue 27): brotli or gzip by Accept-Encoding, the
 * file itself for a client that accepts neither, hashed files cached for a year, index.html
 * revalidated on every load. The app is built here (vite, into a folder of its own) so the test
 * checks what the build writes together with what the server does with it.
 */
const repo = join(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'rampart-web-assets-'));
const webDir = join(dir, 'web');
let running: Console;
let agent: AgentClient;
let entry: string;

beforeAll(async () => {
  const built = spawnSync(process.execPath, [join(repo, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', webDir, '--emptyOutDir', '--logLevel', 'warn'], {
    // vitest sets NODE_ENV=test, which would give a build with React's development code.
    cwd: join(repo, 'apps/web'), encoding: 'utf8', timeout: 170_000, env: { ...process.env, NODE_ENV: 'production' },
  });
  if (built.status !== 0) throw new Error(`vite build failed:\n${built.stdout}\n${built.stderr}`);
  entry = /<script type="module" crossorigin src="\.\/(assets\/[^"]+\.js)"/.exec(readFileSync(join(webDir, 'index.html'), 'utf8'))![1]!;
  agent = new AgentClient(join(dir, 'agent.sock'));
  running = await buildConsole({
    db: join(dir, 'panel.db'), agent, licenceUrl: 'http://127.0.0.1:1', deviceId: () => 'a'.repeat(32), background: false, webDir,
  });
}, 180_000);

afterAll(async () => {
  await running?.close();
  agent?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  running.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

describe('web assets', () => {
  it('sends a script as brotli to a browser that accepts it, gzip to one that accepts only gzip', async () => {
    const raw = readFileSync(join(webDir, entry));
    const br = await get(`/${entry}`, 'gzip, deflate, br, zstd');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(raw.length / 2);
    expect(brotliDecompressSync(br.rawPayload).equals(raw)).toBe(true);

    const gz = await get(`/${entry}`, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toMatch(/javascript/);
    expect(gunzipSync(gz.rawPayload).equals(raw)).toBe(true);
  });

  it('sends the file itself to a client without Accept-Encoding (or asking for identity)', async () => {
    const raw = readFileSync(join(webDir, entry));
    for (const accept of [undefined, 'identity']) {
      const res = await get(`/${entry}`, accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.rawPayload.equals(raw)).toBe(true);
    }
  });

  it('caches hashed files for a year, immutable, compressed or not', async () => {
    for (const accept of ['br', 'gzip', undefined]) {
      expect((await get(`/${entry}`, accept)).headers['cache-control']).toBe(immutableCache);
    }
    expect(immutableCache).toBe('public, max-age=31536000, immutable');
    // Every file vite wrote under assets/ carries a content hash in its name.
    const assets = readdirSync(join(webDir, 'assets'));
    expect(assets.length).toBeGreaterThan(10);
    expect(assets.filter((name) => !isHashedAsset(`assets/${name}`))).toEqual([]);
  });

  it('has index.html revalidated on every load, compressed too', async () => {
    const html = readFileSync(join(webDir, 'index.html'));
    for (const url of ['/', '/index.html']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).equals(html)).toBe(true);
      const plain = await get(url);
      expect(plain.headers['cache-control']).toBe('no-cache');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.equals(html)).toBe(true);
    }
  });

  it('answers a missing asset with 404, whatever the encoding', async () => {
    for (const accept of ['br, gzip', undefined]) expect((await get('/assets/missing-AbCdEf12.js', accept)).statusCode).toBe(404);
  });

  it('tells hashed names from others', () => {
    expect(isHashedAsset('/srv/web/assets/main-B1kII9C_.js')).toBe(true);
    expect(isHashedAsset('/srv/web/assets/rolldown-runtime-WkwZ5CU-.js.br')).toBe(true);
    expect(isHashedAsset('/srv/web/index.html')).toBe(false);
    expect(isHashedAsset('/srv/web/index.html.br')).toBe(false);
    expect(isHashedAsset('/srv/web/assets/logo.svg')).toBe(false);
  });
});
