import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ListenSpec, PeerRequest, PeerResponse, ProbeResult, ProbeSpec, Proto, SeenContact } from './peer-protocol.ts';

export type { ListenSpec, ProbeResult, ProbeSpec, ProbeState, Proto, SeenContact } from './peer-protocol.ts';

/** Run with `[process.execPath, PEER_SCRIPT]` inside a namespace (Node strips the types itself). */
export const PEER_SCRIPT = fileURLToPath(new URL('./peer-process.ts', import.meta.url));

/** A peer process in one namespace, driven over its stdin/stdout. */
export interface Peer {
  /** Listens until `close` or the lab goes; returns the bound port (ask for port 0 to get a free one). */
  listen(spec: ListenSpec): Promise<ListenSpec>;
  close(proto: Proto, port: number): Promise<void>;
  probe(spec: ProbeSpec): Promise<ProbeResult>;
  /** All at once, results in the given order: a batch costs about its slowest probe. */
  probeMany(specs: readonly ProbeSpec[]): Promise<ProbeResult[]>;
  /** Every connection or datagram the listeners received so far, oldest first. */
  seen(): Promise<SeenContact[]>;
}

/** A request before the client numbers it (Omit applied to each member of the union). */
type WithoutId<R> = R extends unknown ? Omit<R, 'id'> : never;
type RequestBody = WithoutId<PeerRequest>;

/** Wraps an already spawned peer process (stdin and stdout piped); resolves once it is ready. */
export async function connectPeer(child: ChildProcess, label: string): Promise<Peer> {
  const { stdin, stdout } = child;
  if (!stdin || !stdout) throw new Error(`peer ${label}: spawn it with piped stdin and stdout`);
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let exited: Error | undefined;
  let markReady: () => void = () => {};
  let failReady: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });

  createInterface({ input: stdout }).on('line', (line) => {
    const message = JSON.parse(line) as PeerResponse | { ready: true };
    if ('ready' in message) return markReady();
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) waiter?.resolve(message.result);
    else waiter?.reject(new Error(`peer ${label}: ${message.error}`));
  });
  child.once('error', (error) => failReady(error));
  // Writing to a peer that just died fails with EPIPE; the 'exit' handler below reports it instead.
  stdin.on('error', () => undefined);
  child.once('exit', (code, signal) => {
    exited = new Error(`peer ${label} exited (${signal ?? code})`);
    failReady(exited);
    for (const waiter of pending.values()) waiter.reject(exited);
    pending.clear();
  });

  const request = <T>(body: RequestBody): Promise<T> => {
    if (exited) return Promise.reject(exited);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      stdin.write(`${JSON.stringify({ ...body, id })}\n`);
    });
  };

  await ready;
  return {
    listen: (spec) => request({ command: 'listen', ...spec }),
    close: async (proto, port) => void (await request({ command: 'close', proto, port })),
    probe: (spec) => request({ command: 'probe', ...spec }),
    probeMany: (specs) => request({ command: 'probeMany', probes: [...specs] }),
    seen: () => request({ command: 'seen' }),
  };
}
