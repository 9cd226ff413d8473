import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, posix } from 'node:path';
import ssh2, { type Attributes, type Connection, type SFTPWrapper } from 'ssh2';

const { Server, utils } = ssh2;
const { STATUS_CODE } = utils.sftp;

export interface SftpTestServer {
  port: number;
  /** The host key's fingerprint as `ssh-keygen -l` prints it. */
  fingerprint: string;
  close(): Promise<void>;
}

/**
 * An SSH server on loopback with a fresh ed25519 host key, one password user, and an SFTP
 * subsystem serving `root` as `/` (also the login folder). Only what an upload needs is
 * implemented: REALPATH, STAT/LSTAT/FSTAT, MKDIR, OPEN, WRITE, CLOSE; the rest is refused as unsupported.
 */
export async function startSftpServer(root: string, username: string, password: string): Promise<SftpTestServer> {
  const hostKey = utils.generateKeyPairSync('ed25519');
  const parsed = utils.parseKey(hostKey.public);
  if (parsed instanceof Error) throw parsed;
  const fingerprint = `SHA256:${createHash('sha256').update(parsed.getPublicSSH()).digest('base64').replace(/=+$/, '')}`;

  const clients = new Set<Connection>();
  const server = new Server({ hostKeys: [hostKey.private] }, (client) => {
    clients.add(client);
    // As OpenSSH does: without it every small packet waits for a delayed ACK (40 ms on Linux).
    // ssh2 has Connection.setNoDelay; @types/ssh2 only declares it on Client.
    (client as Connection & { setNoDelay(noDelay: boolean): void }).setNoDelay(true);
    client.on('close', () => clients.delete(client));
    client.on('error', () => {});
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password' && ctx.username === username && ctx.password === password) ctx.accept();
      else ctx.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        acceptSession().on('sftp', (acceptSftp) => serveSftp(acceptSftp(), root));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    fingerprint,
    close: () => {
      for (const client of clients) client.end();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function serveSftp(sftp: SFTPWrapper, root: string): void {
  const files = new Map<string, FileHandle>();
  let nextHandle = 0;
  /** Client paths are absolute from `root`, or relative to the login folder, which is `/`. */
  const real = (path: string): string => join(root, posix.resolve('/', path));
  const fileOf = (handle: Buffer): FileHandle | undefined => files.get(handle.toString('hex'));
  const fail = (reqId: number, err: unknown): void => {
    const code = (err as { code?: string }).code;
    const status = code === 'ENOENT' ? STATUS_CODE.NO_SUCH_FILE : code === 'EACCES' || code === 'EPERM' ? STATUS_CODE.PERMISSION_DENIED : STATUS_CODE.FAILURE;
    sftp.status(reqId, status, (err as Error).message);
  };
  const reply = (reqId: number, work: () => Promise<void>): void => void work().catch((err: unknown) => fail(reqId, err));

  sftp.on('REALPATH', (reqId, path) => {
    const resolved = posix.resolve('/', path);
    sftp.name(reqId, [{ filename: resolved, longname: resolved, attrs: {} as Attributes }]);
  });
  const sendStat = (reqId: number, path: string): void => reply(reqId, async () => sftp.attrs(reqId, attributes(await stat(real(path)))));
  sftp.on('STAT', sendStat);
  sftp.on('LSTAT', sendStat);
  sftp.on('FSTAT', (reqId, handle) =>
    reply(reqId, async () => {
      const file = fileOf(handle);
      if (file === undefined) return sftp.status(reqId, STATUS_CODE.FAILURE, 'invalid handle');
      sftp.attrs(reqId, attributes(await file.stat()));
    }),
  );
  sftp.on('MKDIR', (reqId, path) =>
    reply(reqId, async () => {
      await mkdir(real(path));
      sftp.status(reqId, STATUS_CODE.OK);
    }),
  );
  sftp.on('OPEN', (reqId, filename, flags) =>
    reply(reqId, async () => {
      const mode = utils.sftp.flagsToString(flags);
      if (mode === null) return sftp.status(reqId, STATUS_CODE.OP_UNSUPPORTED, 'unsupported open flags');
      const file = await open(real(filename), mode);
      const handle = Buffer.alloc(4);
      handle.writeUInt32BE(nextHandle++);
      files.set(handle.toString('hex'), file);
      sftp.handle(reqId, handle);
    }),
  );
  sftp.on('WRITE', (reqId, handle, offset, data) =>
    reply(reqId, async () => {
      const file = fileOf(handle);
      if (file === undefined) return sftp.status(reqId, STATUS_CODE.FAILURE, 'invalid handle');
      await file.write(data, 0, data.length, offset);
      sftp.status(reqId, STATUS_CODE.OK);
    }),
  );
  sftp.on('CLOSE', (reqId, handle) =>
    reply(reqId, async () => {
      const file = fileOf(handle);
      if (file === undefined) return sftp.status(reqId, STATUS_CODE.FAILURE, 'invalid handle');
      files.delete(handle.toString('hex'));
      await file.close();
      sftp.status(reqId, STATUS_CODE.OK);
    }),
  );
  sftp.on('close', () => {
    for (const file of files.values()) void file.close();
    files.clear();
  });
}

function attributes(stats: Stats): Attributes {
  return {
    mode: stats.mode,
    uid: stats.uid,
    gid: stats.gid,
    size: stats.size,
    atime: Math.floor(stats.atimeMs / 1000),
    mtime: Math.floor(stats.mtimeMs / 1000),
  };
}
