import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupError, checkTarget, uploadArchive, type BackupTarget } from '../src/index.ts';
import { writeArchive } from './support/archive.ts';
import { startFtpServer, type FtpTestServer } from './support/ftp-server.ts';
import { target } from './support/target.ts';

let dir: string;
let root: string;
let server: FtpTestServer;
let good: BackupTarget;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rampart-log-backup-ftp-'));
  root = mkdtempSync(join(tmpdir(), 'rampart-log-backup-ftp-root-'));
  server = await startFtpServer(root, 'backup', 's3cret pass');
  good = target('ftp', { ip: '127.0.0.1', port: server.port, username: 'backup', password: 's3cret pass', savePath: '/srv/backups/node-1' });
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

describe('FTP (ftp-srv)', () => {
  it('uploads into a nested savePath, creating the folders, byte for byte', async () => {
    const archive = writeArchive(dir, 'rampart-2025-01-31.log.gz', 3 * 1024 * 1024);
    const result = await uploadArchive(good, archive.path, { timeoutMs: 10_000 });
    expect(result).toEqual({ remotePath: '/srv/backups/node-1/rampart-logs/rampart-2025-01-31.log.gz', bytes: archive.bytes.length });
    expect(readFileSync(join(root, 'srv/backups/node-1/rampart-logs/rampart-2025-01-31.log.gz')).equals(archive.bytes)).toBe(true);
  });

  it('uploads relative to the login folder when savePath is empty, replacing a previous upload', async () => {
    writeArchive(dir, 'again.log.gz', 300_000);
    await uploadArchive({ ...good, savePath: '' }, join(dir, 'again.log.gz'));
    const smaller = writeArchive(dir, 'again.log.gz', 2000);
    const result = await uploadArchive({ ...good, savePath: '' }, smaller.path);
    expect(result.remotePath).toBe('rampart-logs/again.log.gz');
    expect(readFileSync(join(root, 'rampart-logs/again.log.gz')).equals(smaller.bytes)).toBe(true);
  });

  it('checks the connection and login', async () => {
    await expect(checkTarget(good)).resolves.toBeUndefined();
  });

  it('refuses a wrong password with an authentication error carrying the server reply', async () => {
    const wrong = { ...good, password: 'wrong' };
    const err: unknown = await checkTarget(wrong).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackupError);
    expect((err as BackupError).step).toBe('auth');
    expect((err as Error).message).toMatch(/^FTP authentication failed \(127\.0\.0\.1:\d+\): 530 Invalid username or password$/);
    const archive = writeArchive(dir, 'denied.log.gz', 1000);
    await expect(uploadArchive(wrong, archive.path)).rejects.toThrow(/^FTP authentication failed/);
  });
});
