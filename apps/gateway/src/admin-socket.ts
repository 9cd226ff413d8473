import { chmodSync, chownSync, rmSync } from 'node:fs';
import net from 'node:net';

export type AdminCommand = (command: string) => Promise<unknown>;

/** An ordinary command line (`reload`, `status`, `events`): anything longer is garbage. */
export const maxCommandLine = 4096;
/** `timed <json>` carries up to 10,000 entries (~150 bytes each as JSON): 4 MiB leaves room, and no more. */
export const maxTimedLine = 4 * 2 ** 20;

/**
 * A Unix socket for the agent (and operators): one command per line (`reload`, `status`,
 * `events`, `timed <json>`), one JSON answer per line, in order. A line past its limit closes the
 * connection (only a line that starts with `timed ` may be long). Mode 0600: only the owner (root)
 * may steer the gateway; given a group (the console's service group), 0660 so the unprivileged
 * console can ask for a reload after a change and drain events.
 */
export function listenAdminSocket(path: string, run: AdminCommand, group?: number): Promise<net.Server> {
  rmSync(path, { force: true });
  const server = net.createServer((socket) => {
    let buffered = '';
    // Answers go back in the order the commands came, even when a later one finishes first.
    let answered: Promise<unknown> = Promise.resolve();
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (text: string) => {
      // Only the new text can hold the next newline: no rescanning of a long `timed` line per chunk.
      let from = buffered.length;
      buffered += text;
      let nl: number;
      while ((nl = buffered.indexOf('\n', from)) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        from = 0;
        if (line.length > lineLimit(line)) return socket.destroy();
        const result = run(line.trim()).catch((err: Error) => ({ ok: false, reason: err.message }));
        answered = answered.then(async () => {
          const answer = await result;
          if (!socket.destroyed) socket.write(JSON.stringify(answer) + '\n');
        });
      }
      if (buffered.length > lineLimit(buffered)) socket.destroy();
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

/** How long this line may be: only `timed <json>` is long. */
function lineLimit(line: string): number {
  return line.startsWith('timed ') ? maxTimedLine : maxCommandLine;
}

/** Sends one command and returns the parsed answer (used by tests and the agent). */
export function adminCommand(path: string, command: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(path);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(command + '\n'));
    socket.on('data', (chunk: string) => {
      // The newline can only be in the new chunk (an `events` answer may be megabytes long).
      const at = chunk.indexOf('\n');
      const nl = at < 0 ? -1 : text.length + at;
      text += chunk;
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
    // Closed by the gateway without an answer (a refused line): say so instead of waiting forever.
    socket.on('close', () => reject(new Error('admin socket closed without an answer')));
  });
}
