import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupError, checkTarget, uploadArchive, type BackupTarget } from '../src/index.ts';
import { writeArchive } from './support/archive.ts';
import { closedPort, startSilentServer } from './support/net.ts';
import { target } from './support/target.ts';

const timeoutMs = 1000;
let dir: string;
let archive: string;
let silent: Awaited<ReturnType<typeof startSilentServer>>;
let closed: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rampart-log-backup-timeouts-'));
  archive = writeArchive(dir, 'a.log.gz', 100_000).path;
  silent = await startSilentServer();
  closed = await closedPort();
});

afterAll(async () => {
  await silent?.close();
  rmSync(dir, { recursive: true, force: true });
});

function targetAt(type: BackupTarget['type'], port: number): BackupTarget {
  if (type === 's3') return target('s3', { bucket: 'logs', domain: `http://127.0.0.1:${port}`, accessId: 'id', accessSecret: 'secret' });
  return target(type, { ip: '127.0.0.1', port, username: 'u', password: 'p' });
}

/** Runs `operation`, which must fail: returns the error and how long it took. */
async function failure(operation: () => Promise<unknown>): Promise<{ err: BackupError; ms: number }> {
  const started = performance.now();
  const err: unknown = await operation().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BackupError);
  return { err: err as BackupError, ms: performance.now() - started };
}

const protocols = { s3: 'S3', ftp: 'FTP', sftp: 'SFTP' } as const;

describe.each(['s3', 'ftp', 'sftp'] as const)('%s', (type) => {
  const name = protocols[type];

  it('reports a closed port as a connection failure at once', async () => {
    const { err, ms } = await failure(() => uploadArchive(targetAt(type, closed), archive, { timeoutMs }));
    expect(err.step).toBe('connect');
    expect(err.message).toMatch(new RegExp(`^${name} connection failed \\(.*127\\.0\\.0\\.1:${closed}.*\\): .*ECONNREFUSED`));
    expect(ms).toBeLessThan(timeoutMs);
  });

  it('gives up on a server that accepts and never answers, within the timeout', async () => {
    const { err, ms } = await failure(() => checkTarget(targetAt(type, silent.port), { timeoutMs }));
    expect(err.step).toBe('connect');
    expect(err.message).toMatch(new RegExp(`^${name} connection failed \\(.*\\): the server did not respond within 1 s$`));
    expect(ms).toBeGreaterThanOrEqual(timeoutMs - 50);
    expect(ms).toBeLessThan(timeoutMs + 1000);
  });
});

it('gives up on an S3 upload the server never answers, within the timeout', async () => {
  // HTTP has no greeting: the request goes out, so it is the upload that gets no answer.
  const { err, ms } = await failure(() => uploadArchive(targetAt('s3', silent.port), archive, { timeoutMs }));
  expect(err.step).toBe('upload');
  expect(err.message).toMatch(/^S3 upload failed \(.*\): the server did not respond within 1 s$/);
  expect(ms).toBeLessThan(timeoutMs + 1000);
});
