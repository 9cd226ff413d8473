import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildAuthority, openLicenceDb, type LicenceDb } from '../src/index.ts';

/*
 * The authority's releases folder: the newest well-formed manifest is served, a malformed one is
 * skipped, and only plain file names of that folder are served (it verifies nothing: installations
 * check the vendor's signature; apps/console/tests/home-update.test.ts covers that end to end).
 */

let dir: string;
let db: LicenceDb;
let app: FastifyInstance;
const manifest = (version: string) => ({
  format: 'rampart-release/1',
  manifest: { product: 'rampart', version, date: '2026-12-01T00:00:00Z', notes: { 'zh-CN': '说明', 'en-US': 'notes' }, file: `rampart-${version}.tar.gz`, size: 4, sha256: 'a'.repeat(64) },
  signature: { alg: 'ed25519', key_id: '0123456789abcdef', value: 'c2ln' },
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rampart-releases-'));
  await mkdir(path.join(dir, 'releases'));
  await writeFile(path.join(dir, 'secret.txt'), 'outside');
  for (const version of ['0.9.0', '0.10.0', '0.2.0']) await writeFile(path.join(dir, 'releases', `${version}.release.json`), JSON.stringify(manifest(version)));
  await writeFile(path.join(dir, 'releases', '9.9.9.release.json'), '{"format":"rampart-release/1","manifest":{"version":"9.9.9"}}');
  await writeFile(path.join(dir, 'releases', 'rampart-0.10.0.tar.gz'), 'pkg!');
  db = openLicenceDb(path.join(dir, 'licence.db'));
  app = buildAuthority({ db, releasesDir: path.join(dir, 'releases') });
});
afterAll(async () => {
  await app.close();
  db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('releases', () => {
  it('serves the newest well-formed manifest, compared by number (0.10.0 after 0.9.0)', async () => {
    const answer = await app.inject({ method: 'GET', url: '/v1/releases/latest' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual(manifest('0.10.0'));
  });

  it('serves the package beside it and nothing outside the folder', async () => {
    const pkg = await app.inject({ method: 'GET', url: '/v1/releases/rampart-0.10.0.tar.gz' });
    expect(pkg.statusCode).toBe(200);
    expect(pkg.body).toBe('pkg!');
    for (const url of ['/v1/releases/..%2Fsecret.txt', '/v1/releases/%2E%2E', '/v1/releases/missing.tar.gz']) expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
  });

  it('without a releases folder answers 404', async () => {
    const bare = buildAuthority({ db, releasesDir: path.join(dir, 'none') });
    expect((await bare.inject({ method: 'GET', url: '/v1/releases/latest' })).statusCode).toBe(404);
    await bare.close();
  });
});
