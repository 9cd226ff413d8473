/**
 * Runs inside a lab namespace as a long-lived Node process (see peer.ts): listens and probes on
 * request, so a probe costs a socket, not a process spawn. Protocol: peer-protocol.ts.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import {
  DEFAULT_PROBE_TIMEOUT_MS,
  type ListenSpec,
  type PeerRequest,
  type ProbeResult,
  type ProbeSpec,
  type ProbeState,
  type Proto,
  type SeenContact,
} from './peer-protocol.ts';

const listeners = new Map<string, () => Promise<void>>();
const seen: SeenContact[] = [];
const PAYLOAD = Buffer.from('rampart-probe');

/** Dual-stack sockets report IPv4 peers as ::ffff:a.b.c.d; tests compare against plain IPv4. */
function unmap(address: string | undefined): string {
  return (address ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
}

function listenTcp(port: number, host: string): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    seen.push({ proto: 'tcp', port: actualPort(), remoteAddress: unmap(socket.remoteAddress) });
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.pipe(socket);
  });
  const actualPort = () => (server.address() as net.AddressInfo).port;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, ipv6Only: false }, () => {
      listeners.set(`tcp:${actualPort()}`, () => {
        for (const socket of sockets) socket.destroy();
        return new Promise((done) => server.close(() => done()));
      });
      resolve(actualPort());
    });
  });
}

function listenUdp(port: number, host: string): Promise<number> {
  const socket = dgram.createSocket({ type: net.isIPv4(host) ? 'udp4' : 'udp6', ipv6Only: false });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.on('message', (message, remote) => {
      seen.push({ proto: 'udp', port: socket.address().port, remoteAddress: unmap(remote.address) });
      socket.send(message, remote.port, remote.address);
    });
    socket.bind({ port, address: host }, () => {
      socket.off('error', reject);
      socket.on('error', () => undefined);
      const bound = socket.address().port;
      listeners.set(`udp:${bound}`, () => new Promise((done) => socket.close(() => done())));
      resolve(bound);
    });
  });
}

async function listen(spec: ListenSpec): Promise<ListenSpec> {
  const host = spec.host ?? '::';
  const port = spec.proto === 'tcp' ? await listenTcp(spec.port, host) : await listenUdp(spec.port, host);
  return { proto: spec.proto, port, host };
}

async function close(proto: Proto, port: number): Promise<boolean> {
  const stop = listeners.get(`${proto}:${port}`);
  listeners.delete(`${proto}:${port}`);
  if (stop) await stop();
  return stop !== undefined;
}

/** Socket error codes that mean "the network answered no" rather than "the port is closed". */
const UNREACHABLE_CODES = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EACCES', 'EPERM']);

function stateOfError(code: string | undefined): ProbeState {
  if (code === 'ECONNREFUSED') return 'refused';
  return code !== undefined && UNREACHABLE_CODES.has(code) ? 'unreachable' : 'error';
}

/** Settles once with the first outcome; the socket is torn down by `cleanup`. */
function probeWith(spec: ProbeSpec, start: (settle: (state: ProbeState, code?: string) => void) => () => void): Promise<ProbeResult> {
  const timeoutMs = spec.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const began = performance.now();
  return new Promise((resolve) => {
    let cleanup = () => {};
    let done = false;
    const settle = (state: ProbeState, code?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      cleanup();
      const ms = Math.round((performance.now() - began) * 10) / 10;
      resolve({ ...spec, timeoutMs, state, ms, ...(code ? { code } : {}) });
    };
    const timer = setTimeout(() => settle('timeout'), timeoutMs);
    cleanup = start(settle);
  });
}

function probeTcp(spec: ProbeSpec): Promise<ProbeResult> {
  return probeWith(spec, (settle) => {
    const socket = net.connect({ host: spec.host, port: spec.port, localAddress: spec.sourceAddress });
    socket.once('connect', () => settle('open'));
    socket.once('error', (error: NodeJS.ErrnoException) => settle(stateOfError(error.code), error.code));
    return () => socket.destroy();
  });
}

/** The socket is connected, so Linux reports an ICMP port unreachable as ECONNREFUSED on it. */
function probeUdp(spec: ProbeSpec): Promise<ProbeResult> {
  return probeWith(spec, (settle) => {
    const socket = dgram.createSocket(net.isIPv6(spec.host) ? 'udp6' : 'udp4');
    let closed = false;
    socket.once('message', () => settle('open'));
    socket.on('error', (error: NodeJS.ErrnoException) => settle(stateOfError(error.code), error.code));
    socket.bind({ port: 0, address: spec.sourceAddress }, () => {
      if (!closed) socket.connect(spec.port, spec.host, () => socket.send(PAYLOAD));
    });
    return () => {
      closed = true;
      socket.close();
    };
  });
}

function probe(spec: ProbeSpec): Promise<ProbeResult> {
  return spec.proto === 'tcp' ? probeTcp(spec) : probeUdp(spec);
}

function handle(request: PeerRequest): Promise<unknown> {
  switch (request.command) {
    case 'listen':
      return listen(request);
    case 'close':
      return close(request.proto, request.port);
    case 'probe': {
      const { id: _id, command: _command, ...spec } = request;
      return probe(spec);
    }
    case 'probeMany':
      return Promise.all(request.probes.map(probe));
    case 'seen':
      return Promise.resolve(seen);
  }
}

function reply(message: object): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

createInterface({ input: process.stdin })
  .on('line', (line) => {
    const request = JSON.parse(line) as PeerRequest;
    handle(request).then(
      (result) => reply({ id: request.id, ok: true, result }),
      (error: unknown) => reply({ id: request.id, ok: false, error: String(error) }),
    );
  })
  // The test process closing our stdin (or dying) is the signal to go.
  .on('close', () => process.exit(0));

reply({ ready: true });
