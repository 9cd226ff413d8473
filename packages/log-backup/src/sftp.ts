import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { Client, type SFTPWrapper, type Stats } from 'ssh2';
import { errorMessage, remoteError, type BackupStep } from './errors.ts';
import type { LocalArchive } from './local-file.ts';
import { remoteDir } from './paths.ts';
import { runStep, type Remote } from './step.ts';
import { hostPort, targetHost, targetPort, type BackupTarget, type UploadResult } from './target.ts';

/** ssh2's handshake timeout is a backstop behind the step timer, which fires first with a clearer message. */
const backstopMs = 1_000;
/** SSH_FX_NO_SUCH_FILE: ssh2 puts the SFTP status code on its errors. */
const noSuchFile = 2;

interface SftpConnection {
  conn: Client;
  sftp: SFTPWrapper;
  remote: Remote;
  fingerprint: string;
  /** Rejects when the connection breaks. */
  lost: Promise<never>;
}

/** Connects, authenticates with the password and opens the SFTP subsystem; on failure the connection is already closed. */
async function open(target: BackupTarget, timeoutMs: number): Promise<SftpConnection> {
  const conn = new Client();
  const host = targetHost(target);
  const port = targetPort(target);
  const remote: Remote = { protocol: 'SFTP', where: hostPort(host, port), timeoutMs, abort: () => conn.destroy(), explain };
  // ssh2 reports a broken connection as an 'error' event (which would crash the process without a
  // listener) and leaves pending requests waiting: every step races against this promise.
  const lost = new Promise<never>((_resolve, reject) => {
    conn.on('error', reject);
    conn.on('close', () => reject(new Error('the server closed the connection')));
  });
  lost.catch(() => {});
  let fingerprint = '';
  try {
    const sftp = await runStep(remote, 'connect', async ({ enter }) => {
      const ready = new Promise<void>((resolve) => conn.once('ready', resolve));
      // Servers that disable PasswordAuthentication often still ask for the password this way.
      conn.on('keyboard-interactive', (_name, _instructions, _lang, prompts, finish) => finish(prompts.map(() => target.password)));
      conn.connect({
        host,
        port,
        username: target.username,
        password: target.password,
        tryKeyboard: true,
        readyTimeout: timeoutMs + backstopMs,
        // Any host key is accepted; the caller records the fingerprint and may compare it later.
        hostVerifier: (key: Buffer): boolean => {
          fingerprint = sshFingerprint(key);
          enter('auth');
          return true;
        },
      });
      // SSH is many small request/answer packets: Nagle's algorithm would hold each for a delayed ACK.
      conn.setNoDelay(true);
      await Promise.race([ready, lost]);
      enter('connect');
      return await Promise.race([openSftp(conn), lost]);
    });
    return { conn, sftp, remote, fingerprint, lost };
  } catch (err) {
    conn.destroy();
    throw err;
  }

  function openSftp(client: Client): Promise<SFTPWrapper> {
    return new Promise((resolve, reject) => {
      client.sftp((err, sftp) => (err ? reject(new Error(`the server refused the SFTP subsystem: ${err.message}`)) : resolve(sftp)));
    });
  }
}

export async function uploadSftp(target: BackupTarget, archive: LocalArchive, timeoutMs: number): Promise<UploadResult> {
  const { conn, sftp, remote, fingerprint, lost } = await open(target, timeoutMs);
  const dir = remoteDir(target.savePath);
  const remotePath = posix.join(dir, archive.name);
  try {
    await runStep(remote, 'upload', async ({ progress }) => {
      await Promise.race([ensureDir(sftp, dir), lost]);
      const put = new Promise<void>((resolve, reject) => {
        // Parallel writes: a single write stream waits a round trip per 32 KiB. `fileSize` caps what
        // is read at the size measured, should the log still be growing.
        const options = { fileSize: archive.size, step: () => progress() };
        sftp.fastPut(archive.path, remotePath, options, (err) => (err ? reject(err) : resolve()));
      });
      await Promise.race([put, lost]);
    });
    await runStep(remote, 'verify', async () => {
      const stats = await Promise.race([stat(sftp, remotePath), lost]);
      if (stats?.size !== archive.size) {
        throw remoteError('SFTP', remote.where, 'verify', `${remotePath} has ${stats?.size ?? 'no'} bytes on the server, the archive ${archive.size}`);
      }
    });
  } finally {
    conn.end();
  }
  return { remotePath, bytes: archive.size, fingerprint };
}

export async function checkSftp(target: BackupTarget, timeoutMs: number): Promise<void> {
  const { conn } = await open(target, timeoutMs);
  conn.end();
}

/** As `ssh-keygen -l` prints it: SHA256 of the key blob, unpadded base64. */
export function sshFingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** mkdir -p; an absolute `dir` starts at the root, a relative one in the login folder. */
async function ensureDir(sftp: SFTPWrapper, dir: string): Promise<void> {
  let path = dir.startsWith('/') ? '/' : '';
  for (const part of dir.split('/').filter((name) => name !== '' && name !== '.')) {
    path = posix.join(path, part);
    const stats = await stat(sftp, path);
    if (stats?.isDirectory()) continue;
    if (stats) throw new Error(`${path} exists and is not a folder`);
    try {
      await new Promise<void>((resolve, reject) => sftp.mkdir(path, (err) => (err ? reject(err) : resolve())));
    } catch (err) {
      // Another uploader may have created it meanwhile.
      if (!(await stat(sftp, path))?.isDirectory()) throw new Error(`cannot create folder ${path}: ${errorMessage(err)}`, { cause: err });
    }
  }
}

/** The entry's stats, or undefined when it does not exist. */
function stat(sftp: SFTPWrapper, path: string): Promise<Stats | undefined> {
  return new Promise((resolve, reject) => {
    sftp.stat(path, (err, stats) => {
      if (!err) resolve(stats);
      else if ((err as Error & { code?: unknown }).code === noSuchFile) resolve(undefined);
      else reject(new Error(`cannot read ${path}: ${err.message}`, { cause: err }));
    });
  });
}

function explain(err: unknown, step: BackupStep): { step: BackupStep; reason: string } {
  const level = typeof err === 'object' && err !== null && 'level' in err ? err.level : undefined;
  if (level === 'client-authentication') {
    return { step: 'auth', reason: `the server refused the user name or password (${errorMessage(err)})` };
  }
  return { step, reason: errorMessage(err) };
}
