import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupError, checkTarget, uploadArchive, validateTarget, type BackupTarget } from '../src/index.ts';
import { writeArchive } from './support/archive.ts';
import { S3_ACCESS_ID, startS3Server, type S3TestServer } from './support/s3-server.ts';
import { target } from './support/target.ts';

const secret = 'correct-horse-battery-staple';
let dir: string;
let server: S3TestServer;
let reader: S3Client;
let good: BackupTarget;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rampart-log-backup-s3-'));
  server = await startS3Server(join(dir, 'store'), secret, ['logs']);
  good = target('s3', { bucket: 'logs', domain: server.endpoint, accessId: S3_ACCESS_ID, accessSecret: secret, savePath: '/rampart/node-1' });
  reader = new S3Client({
    endpoint: server.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: S3_ACCESS_ID, secretAccessKey: secret },
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
});

afterAll(async () => {
  reader?.destroy();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function stored(key: string): Promise<Buffer> {
  const object = await reader.send(new GetObjectCommand({ Bucket: 'logs', Key: key }));
  return Buffer.from(await object.Body!.transformToByteArray());
}

describe('S3 (s3rver behind a SigV4 check)', () => {
  it('uploads an archive of a few MB byte for byte and verifies it', async () => {
    const archive = writeArchive(dir, 'rampart-2025-01-31.log.gz', 3 * 1024 * 1024);
    const result = await uploadArchive(good, archive.path, { timeoutMs: 10_000 });
    expect(result).toEqual({ remotePath: 'rampart/node-1/rampart-logs/rampart-2025-01-31.log.gz', bytes: archive.bytes.length });
    expect(result.fingerprint).toBeUndefined();
    expect((await stored(result.remotePath)).equals(archive.bytes)).toBe(true);
    const head = await reader.send(new HeadObjectCommand({ Bucket: 'logs', Key: result.remotePath }));
    expect(head.ContentType).toBe('application/gzip');
    expect(head.ContentEncoding).toBeUndefined();
  });

  it('puts archives under rampart-logs at the bucket root when savePath is / and replaces a re-upload', async () => {
    const first = writeArchive(dir, 'again.log.gz', 200_000);
    await uploadArchive({ ...good, savePath: '/' }, first.path);
    const second = writeArchive(dir, 'again.log.gz', 1000);
    const result = await uploadArchive({ ...good, savePath: '/' }, second.path);
    expect(result.remotePath).toBe('rampart-logs/again.log.gz');
    expect((await stored(result.remotePath)).equals(readFileSync(second.path))).toBe(true);
  });

  it('checks the connection, credentials and bucket', async () => {
    await expect(checkTarget(good)).resolves.toBeUndefined();
    await expect(checkTarget({ ...good, bucket: 'missing' })).rejects.toThrow(/^S3 connection failed \(.*bucket missing\): .*HTTP 404/);
  });

  it('refuses a wrong secret with an authentication error carrying the server reason', async () => {
    const wrong = { ...good, accessSecret: 'wrong' };
    const checked: unknown = await checkTarget(wrong).catch((e: unknown) => e);
    expect(checked).toBeInstanceOf(BackupError);
    expect((checked as BackupError).step).toBe('auth');
    expect((checked as Error).message).toMatch(/^S3 authentication failed \(http:\/\/127\.0\.0\.1:\d+, bucket logs\): access denied.*\(HTTP 403\)$/);

    const archive = writeArchive(dir, 'denied.log.gz', 100_000);
    const uploaded: unknown = await uploadArchive(wrong, archive.path).catch((e: unknown) => e);
    expect((uploaded as BackupError).step).toBe('auth');
    expect((uploaded as Error).message).toMatch(/^S3 authentication failed .*: SignatureDoesNotMatch: The request signature .* \(HTTP 403\)$/);
    await expect(stored('rampart/node-1/rampart-logs/denied.log.gz')).rejects.toThrow();
  });

  it('does not accept a bucket name with uppercase letters', async () => {
    expect(validateTarget({ ...good, bucket: 'Logs' })).toEqual(['bucket_lowercase']);
    await expect(checkTarget({ ...good, bucket: 'Logs' })).rejects.toThrow(/bucket_lowercase/);
  });
});
