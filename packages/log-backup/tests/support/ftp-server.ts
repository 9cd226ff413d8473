import type { AddressInfo, Server } from 'node:net';
import { FtpSrv } from 'ftp-srv';

export interface FtpTestServer {
  port: number;
  close(): Promise<void>;
}

/** ftp-srv logs through bunyan by default; this keeps the test output clean. */
const quietLog = {
  child: () => quietLog,
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  fatal: () => {},
};

/** A plain FTP server on loopback whose only user is `username`/`password`, jailed in `root`. */
export async function startFtpServer(root: string, username: string, password: string): Promise<FtpTestServer> {
  // Passive ports are probed by ftp-srv (used ones are skipped); a random window keeps parallel runs apart.
  const pasvMin = 40_000 + Math.floor(Math.random() * 200) * 100;
  const server = new FtpSrv({
    url: 'ftp://127.0.0.1:0',
    pasv_url: '127.0.0.1',
    pasv_min: pasvMin,
    pasv_max: pasvMin + 99,
    anonymous: false,
    greeting: 'rampart test server',
    log: quietLog,
  });
  server.on('login', ({ username: user, password: pass }, resolve, reject) => {
    if (user === username && pass === password) resolve({ root });
    else reject(new Error('Invalid username or password'));
  });
  await server.listen();
  // ftp-srv's typings do not declare the underlying net.Server; with port 0 it is the only way to learn the port.
  const netServer = (server as unknown as { server: Server }).server;
  return {
    port: (netServer.address() as AddressInfo).port,
    close: async () => {
      await server.close();
    },
  };
}
