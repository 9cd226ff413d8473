import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import type { GatewayConfig, WebsiteGatewayReport } from '@rampart/contracts';

/** Where the gateway's file and admin socket are (start.ts: `<data>/gateway/gateway.json`, `<data>/run/gateway.sock`). */
export interface GatewayPaths {
  configFile: string;
  adminSocket: string;
}

/**
 * Defaults as the CLI lays the data directory out; `beside` (the panel database's folder) stands in
 * when the console runs without RAMPART_DATA_DIR (tests, a development checkout).
 */
export function defaultGatewayPaths(beside: string): GatewayPaths {
  const dataDir = process.env.RAMPART_DATA_DIR;
  const root = dataDir ?? beside;
  return {
    configFile: process.env.RAMPART_GATEWAY_CONFIG ?? join(root, 'gateway', 'gateway.json'),
    adminSocket: process.env.RAMPART_GATEWAY_ADMIN_SOCKET ?? join(root, 'run', 'gateway.sock'),
  };
}

/**
 * Writes the file atomically (a temporary file in the same folder, flushed, then renamed): the
 * gateway reads it at any moment (start, SIGHUP) and must never see half of it. Mode 0640: it holds
 * TLS private keys in clear, which the gateway needs to serve HTTPS.
 */
export function writeGatewayConfig(file: string, config: GatewayConfig): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o750 });
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o640);
  try {
    writeSync(fd, JSON.stringify(config, null, 2) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

const reloadTimeoutMs = 30_000;

/**
 * Asks a running gateway to read the file again (admin socket: one line `reload`, one JSON line
 * back, apps/gateway/src/admin-socket.ts — the console does not depend on the gateway package, the
 * protocol is one line each way). No socket, or nobody on it: the gateway is not running and reads
 * the file when it starts.
 */
export function reloadGateway(socketPath: string): Promise<WebsiteGatewayReport> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    let text = '';
    const finish = (report: WebsiteGatewayReport) => {
      socket.destroy();
      resolve(report);
    };
    socket.setEncoding('utf8');
    socket.setTimeout(reloadTimeoutMs, () => finish({ state: 'refused', reason: 'no answer from the gateway' }));
    socket.on('connect', () => socket.write('reload\n'));
    socket.on('data', (chunk: string) => {
      text += chunk;
      const nl = text.indexOf('\n');
      if (nl < 0) return text.length > 65_536 ? finish({ state: 'refused', reason: 'unreadable answer' }) : undefined;
      try {
        const answer = JSON.parse(text.slice(0, nl)) as { ok?: unknown; reason?: unknown };
        finish(answer.ok === true ? { state: 'reloaded' } : { state: 'refused', reason: typeof answer.reason === 'string' ? answer.reason : 'refused' });
      } catch {
        finish({ state: 'refused', reason: 'unreadable answer' });
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') finish({ state: 'not_running' });
      // EACCES: the socket belongs to another account (the gateway makes it 0600); the file is
      // written, the gateway takes it on its next start or SIGHUP — the user is told, not misled.
      else finish({ state: 'unreachable', reason: error.code === 'EACCES' ? 'permission denied on the admin socket' : error.message });
    });
  });
}
