import { Client, FTPError } from 'basic-ftp';
import { errorMessage, isConnectFailure, remoteError, type BackupStep } from './errors.ts';
import { readArchive, type LocalArchive } from './local-file.ts';
import { remoteDir } from './paths.ts';
import { runStep, type Remote } from './step.ts';
import { hostPort, targetHost, targetPort, type BackupTarget, type UploadResult } from './target.ts';

/** basic-ftp's own socket timeout is a backstop behind the step timer, which fires first with a clearer message. */
const backstopMs = 1_000;

interface FtpConnection {
  client: Client;
  remote: Remote;
}

/** Connects and logs in; on failure the client is already closed. */
async function open(target: BackupTarget, timeoutMs: number, secure: boolean): Promise<FtpConnection> {
  const host = targetHost(target);
  const client = new Client(timeoutMs + backstopMs);
  const remote: Remote = { protocol: 'FTP', where: hostPort(host, targetPort(target)), timeoutMs, abort: () => client.close(), explain };
  try {
    await runStep(remote, 'connect', async () => {
      await client.connect(host, targetPort(target));
      // Explicit FTPS: the password only crosses the wire after AUTH TLS. `host` lets the data connections resume the session.
      if (secure) await client.useTLS({ host });
    });
    await runStep(remote, 'auth', async () => {
      // As basic-ftp's access(): UTF-8 before USER for servers that want it (errors ignored), binary mode after login.
      await client.sendIgnoringError('OPTS UTF8 ON');
      await client.login(target.username, target.password);
      await client.useDefaultSettings();
    });
  } catch (err) {
    client.close();
    throw err;
  }
  return { client, remote };
}

export async function uploadFtp(target: BackupTarget, archive: LocalArchive, timeoutMs: number, secure: boolean): Promise<UploadResult> {
  const { client, remote } = await open(target, timeoutMs, secure);
  const dir = remoteDir(target.savePath);
  try {
    await runStep(remote, 'upload', async ({ progress }) => {
      // Creates the missing folders and changes into the last one.
      await client.ensureDir(dir);
      client.trackProgress(() => progress());
      try {
        await client.uploadFrom(readArchive(archive, progress).stream, archive.name);
      } finally {
        client.trackProgress();
      }
    });
    await runStep(remote, 'verify', async () => {
      const size = await client.size(archive.name);
      if (size !== archive.size) {
        throw remoteError('FTP', remote.where, 'verify', `${dir}/${archive.name} has ${size} bytes on the server, the archive ${archive.size}`);
      }
    });
  } finally {
    client.close();
  }
  return { remotePath: `${dir}/${archive.name}`, bytes: archive.size };
}

export async function checkFtp(target: BackupTarget, timeoutMs: number, secure: boolean): Promise<void> {
  const { client } = await open(target, timeoutMs, secure);
  client.close();
}

function explain(err: unknown, step: BackupStep): { step: BackupStep; reason: string } {
  if (err instanceof FTPError) {
    // 530 not logged in, 532 need an account for storing files; the message already starts with the code.
    const auth = err.code === 530 || err.code === 532 || err.code === 332;
    return { step: auth ? 'auth' : step, reason: err.message.trim() };
  }
  // Past login, a refused or timed-out connection is the data connection: typically a firewall on the passive ports.
  if (step !== 'connect' && isConnectFailure(err)) {
    return { step, reason: `${errorMessage(err)} (data connection: are the server's passive ports reachable?)` };
  }
  return { step, reason: errorMessage(err) };
}
