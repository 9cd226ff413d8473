import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupError, checkTarget, uploadArchive, type BackupTarget } from '../src/index.ts';
import { writeArchive } from './support/archive.ts';
import { startSftpServer, type SftpTestServer } from './support/sftp-server.ts';
import { target } from './support/target.ts';

let dir: string;
let root: string;
let server: SftpTestServer;
let good: BackupTarget;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rampart-log-backup-sftp-'));
  root = mkdtempSync(join(tmpdir(), 'rampart-log-backup-sftp-root-'));
  server = await startSftpServer(root, 'backup', 'pa55word');
  good = target('sftp', { domain: '127.0.0.1', port: server.port, username: 'backup', password: 'pa55word', savePath: '/srv/backups/node-1/' });
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

describe('SFTP (ssh2 server)', () => {
  it('uploads into a nested savePath, creating the folders, byte for byte, and returns the host key fingerprint', async () => {
    const archive = writeArchive(dir, 'rampart-2025-01-31.log.gz', 3 * 1024 * 1024);
    const result = await uploadArchive(good, archive.path, { timeoutMs: 10_000 });
    expect(result).toEqual({
      remotePath: '/srv/backups/node-1/rampart-logs/rampart-2025-01-31.log.gz',
      bytes: archive.bytes.length,
      fingerprint: server.fingerprint,
    });
    expect(result.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
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

  it('fails the upload when savePath runs into a file', async () => {
    const archive = writeArchive(dir, 'blocked.log.gz', 1000);
    writeArchive(root, 'not-a-folder', 10);
    await expect(uploadArchive({ ...good, savePath: '/not-a-folder' }, archive.path)).rejects.toThrow(
      /^SFTP upload failed \(127\.0\.0\.1:\d+\): \/not-a-folder exists and is not a folder$/,
    );
  });

  it('checks the connection and login', async () => {
    await expect(checkTarget(good)).resolves.toBeUndefined();
  });

  it('refuses a wrong password with an authentication error', async () => {
    const wrong = { ...good, password: 'wrong' };
    const err: unknown = await checkTarget(wrong).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackupError);
    expect((err as BackupError).step).toBe('auth');
    expect((err as Error).message).toMatch(/^SFTP authentication failed \(127\.0\.0\.1:\d+\): the server refused the user name or password/);
    const archive = writeArchive(dir, 'denied.log.gz', 1000);
    await expect(uploadArchive(wrong, archive.path)).rejects.toThrow(/^SFTP authentication failed/);
  });
});
