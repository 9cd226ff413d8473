// The contract between the queueing sender (sender.ts) and a transport (tcp.ts, udp.ts).

/** One open connection: a TCP socket, or a UDP socket connected to one address. */
export interface Link {
  /** Hands one message to the socket; `done` says whether the OS took it. False asks the caller to wait for `drain`. */
  write(message: Buffer, done: (error?: Error | null) => void): boolean;
  /** Closes after what was written has gone out. */
  end(): Promise<void>;
  /** Closes now; may be called more than once. */
  destroy(): void;
}

export interface LinkEvents {
  drain(): void;
  /** The link is unusable; the sender reconnects. */
  broken(error: Error): void;
}

/** Opens a link; rejects when it cannot, or when `signal` aborts first. */
export type Connect = (events: LinkEvents, signal: AbortSignal) => Promise<Link>;
