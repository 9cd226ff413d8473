import { chmodSync, chownSync, rmSync } from 'node:fs';
import net from 'node:net';

export type AdminCommand = (command: string) => Promise<unknown>;

/**
 * A Unix socket for the agent (and operators): one command per line (`reload`, `status`), one
 * JSON answer per line. Mode 0600: only the owner (root) may steer the gateway; given a group (the
 * console's service group), 0660 so the unprivileged console can ask for a reload after a change.
 */
export function listenAdminSocket(path: string, run: AdminCommand, group?: number): Promise<net.Server> {
  rmSync(path, { force: true });
  const server = net.createServer((socket) => {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (text: string) => {
      buffered += text;
      if (buffered.length > 4096) return socket.destroy();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const command = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        run(command)
          .then((answer) => socket.write(JSON.stringify(answer) + '\n'))
          .catch((err: Error) => socket.write(JSON.stringify({ ok: false, reason: err.message }) + '\n'));
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      if (group === undefined) chmodSync(path, 0o600);
      else {
        chownSync(path, process.getuid?.() ?? 0, group);
        chmodSync(path, 0o660);
      }
      resolve(server);
    });
  });
}

/** Sends one command and returns the parsed answer (used by tests and the agent). */
export function adminCommand(path: string, command: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(path);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(command + '\n'));
    socket.on('data', (chunk: string) => {
      text += chunk;
      const nl = text.indexOf('\n');
      if (nl >= 0) {
        socket.end();
        try {
          resolve(JSON.parse(text.slice(0, nl)));
        } catch (err) {
          reject(err as Error);
        }
      }
    });
    socket.on('error', reject);
  });
}
