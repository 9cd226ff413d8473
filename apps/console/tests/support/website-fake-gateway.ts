import { mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { dirname } from 'node:path';

/**
 * A stand-in for the gateway's admin socket (apps/gateway/src/admin-socket.ts): a real Unix socket
 * that reads one command per line and answers one line each, so the console's side of the link
 * (drain, `timed`, `reload`) is tested against the protocol without the gateway, which is built in
 * parallel. `answer` returns the raw line to send (JSON or, on purpose, not); every command line
 * it received is kept in `lines`, in order.
 */
export interface FakeGateway {
  lines: string[];
  /** Events the next `events` answers hand out (then an empty drain). */
  queue: string[];
  answer: (command: string) => string;
  close(): Promise<void>;
}

export const emptyDrain = JSON.stringify({ ok: true, events: [], dropped: 0, more: false });

export async function startFakeGateway(path: string): Promise<FakeGateway> {
  mkdirSync(dirname(path), { recursive: true });
  rmSync(path, { force: true });
  const fake: FakeGateway = {
    lines: [],
    queue: [],
    answer: (command) => {
      if (command === 'events') return fake.queue.shift() ?? emptyDrain;
      if (command === 'reload' || command.startsWith('timed ')) return JSON.stringify({ ok: true });
      return JSON.stringify({ ok: false, reason: `unknown command ${command}` });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = net.createServer((socket) => {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (text: string) => {
      buffered += text;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const command = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        fake.lines.push(command);
        socket.write(`${fake.answer(command)}\n`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return fake;
}
