/**
 * The JSON-lines protocol between the test process and a peer process inside a namespace: one
 * request per stdin line, one response per stdout line (matched by `id`). The peer first prints
 * `{"ready":true}` once it reads commands.
 */

export type Proto = 'tcp' | 'udp';

/**
 * open: TCP connected / UDP echo came back. refused: TCP RST or ICMP port unreachable.
 * timeout: no answer at all (dropped). unreachable: ICMP host/net unreachable or admin-prohibited
 * (nft `reject with icmp type admin-prohibited`). error: anything else, see `code`.
 */
export type ProbeState = 'open' | 'refused' | 'timeout' | 'unreachable' | 'error';

export interface ListenSpec {
  proto: Proto;
  port: number;
  /** Defaults to `::`, dual stack: the one listener answers IPv4 and IPv6. */
  host?: string;
}

export interface ProbeSpec {
  proto: Proto;
  host: string;
  port: number;
  /** How long silence counts as "dropped"; 300 ms by default (the links are local veths). */
  timeoutMs?: number;
  /** Binds the probe to this local address, e.g. a second address given by `lab.addAddress`. */
  sourceAddress?: string;
}

export interface ProbeResult extends ProbeSpec {
  state: ProbeState;
  /** Time to the outcome in milliseconds (for timeouts: about `timeoutMs`). */
  ms: number;
  /** The socket error code behind refused/unreachable/error. */
  code?: string;
}

/** A connection accepted (TCP) or datagram received (UDP) by one of the peer's listeners. */
export interface SeenContact {
  proto: Proto;
  port: number;
  /** IPv4 senders appear as plain IPv4, not `::ffff:`-mapped. */
  remoteAddress: string;
}

export type PeerRequest =
  | ({ id: number; command: 'listen' } & ListenSpec)
  | { id: number; command: 'close'; proto: Proto; port: number }
  | ({ id: number; command: 'probe' } & ProbeSpec)
  | { id: number; command: 'probeMany'; probes: ProbeSpec[] }
  | { id: number; command: 'seen' };

export type PeerResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

export const DEFAULT_PROBE_TIMEOUT_MS = 300;
