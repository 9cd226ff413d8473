import {
  formatSyslog,
  syslogCharsets,
  syslogProtocols,
  type SyslogCharset,
  type SyslogFormatOptions,
  type SyslogMessage,
  type SyslogProtocol,
} from './format.ts';
import type { Sender, SenderOptions, SenderStats } from './sender.ts';
import { createSender, validateServer, type SyslogServer } from './transport.ts';

export interface SyslogForwarderConfig {
  protocol: SyslogProtocol;
  charset: SyslogCharset;
  servers: readonly SyslogServer[];
}

export interface SyslogServerStats extends SenderStats {
  server: SyslogServer;
}

const serverKey = (s: SyslogServer): string => `${s.transport} ${s.host.toLowerCase()} ${s.port}`;

function validateConfig(config: SyslogForwarderConfig): void {
  if (!syslogProtocols.includes(config.protocol)) throw new RangeError(`syslog protocol must be one of ${syslogProtocols.join(', ')}`);
  if (!syslogCharsets.includes(config.charset)) throw new RangeError(`syslog charset must be one of ${syslogCharsets.join(', ')}`);
  for (const server of config.servers) validateServer(server);
}

/**
 * Sends every event to each of the administrator's syslog servers. Formats a message once for all
 * of them; each server has its own sender, so one that is down only fills its own queue.
 */
export class SyslogForwarder {
  readonly #senderOptions: SenderOptions;
  #format: SyslogFormatOptions;
  #senders = new Map<string, Sender>();
  #closed = false;

  /** Throws TypeError / RangeError for an invalid config. */
  constructor(config: SyslogForwarderConfig, senderOptions: SenderOptions = {}) {
    validateConfig(config);
    this.#senderOptions = senderOptions;
    this.#format = { protocol: config.protocol, charset: config.charset };
    this.#apply(config.servers);
  }

  /** Never waits. With no servers it does nothing; otherwise throws only RangeError for a facility or severity out of range. */
  forward(message: SyslogMessage): void {
    if (this.#senders.size === 0) return;
    const formatted = formatSyslog(message, this.#format);
    for (const sender of this.#senders.values()) sender.send(formatted);
  }

  /**
   * Applies new settings at once: servers still listed keep their sender (and its queue), new ones
   * get one, the others are closed. Resolves when those have flushed. Throws (changing nothing) for
   * an invalid config.
   */
  reconfigure(config: SyslogForwarderConfig): Promise<void> {
    if (this.#closed) throw new Error('syslog forwarder is closed');
    validateConfig(config);
    this.#format = { protocol: config.protocol, charset: config.charset };
    const retired = this.#apply(config.servers);
    return Promise.all(retired.map((sender) => sender.close())).then(() => undefined);
  }

  stats(): SyslogServerStats[] {
    return [...this.#senders.values()].map((sender) => ({ server: { ...sender.server }, ...sender.stats() }));
  }

  /** Flushes what each sender can within its close timeout, then releases all sockets and timers. */
  async close(): Promise<void> {
    this.#closed = true;
    const senders = [...this.#senders.values()];
    this.#senders.clear();
    await Promise.all(senders.map((sender) => sender.close()));
  }

  /** Installs one sender per distinct server, reusing current ones; returns those no longer wanted. */
  #apply(servers: readonly SyslogServer[]): Sender[] {
    const next = new Map<string, Sender>();
    for (const server of servers) {
      const key = serverKey(server);
      if (!next.has(key)) next.set(key, this.#senders.get(key) ?? createSender(server, this.#senderOptions));
    }
    const retired = [...this.#senders].filter(([key]) => !next.has(key)).map(([, sender]) => sender);
    this.#senders = next;
    return retired;
  }
}
