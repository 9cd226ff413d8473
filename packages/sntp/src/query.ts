import dgram from 'node:dgram';
import { lookup as dnsLookup } from 'node:dns/promises';
import net from 'node:net';
import { randomInt } from 'node:crypto';
import {
  buildRequest, fromNtpTimestamp, isZeroTimestamp, leapAlarm, modeServer, offsetAndDelay, parsePacket, referenceIdText, toNtpTimestamp,
  type NtpTimestamp,
} from './packet.ts';

export type SntpErrorCode = 'timeout' | 'kiss' | 'unsynchronized' | 'bad_reply' | 'dns' | 'network';

/** Why a query failed; `kiss` carries the server's kiss code (RATE, DENY, RSTR, ...). */
export class SntpError extends Error {
  readonly code: SntpErrorCode;
  readonly kissCode: string | undefined;

  constructor(code: SntpErrorCode, message: string, kissCode?: string) {
    super(message);
    this.name = 'SntpError';
    this.code = code;
    this.kissCode = kissCode;
  }
}

export interface SntpTarget {
  host: string;
  /** Default 123. */
  port?: number;
}

export interface SntpOptions {
  /** Per address; default 3000 ms. */
  timeoutMs?: number;
  /** Name resolution (tests may pin it); default: the system resolver, every address. */
  lookup?: (host: string) => Promise<Array<{ address: string; family: number }>>;
  /** The wall clock, in ms (tests may skew it); the round trip itself is timed with a monotonic clock. */
  now?: () => number;
}

export interface SntpResult {
  /** The target as asked for, and the address that answered. */
  host: string;
  address: string;
  port: number;
  /** The server's time at the moment the reply arrived (local clock + offset), Unix ms. */
  time: number;
  /** How far the local clock is behind the server (positive: local is slow), ms. */
  offsetMs: number;
  /** Round-trip delay, ms. */
  delayMs: number;
  stratum: number;
  referenceId: string;
}

const defaultPort = 123;

async function resolve(host: string, options: SntpOptions): Promise<Array<{ address: string; family: number }>> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const family = net.isIP(bare);
  if (family !== 0) return [{ address: bare, family }];
  try {
    const found = await (options.lookup ?? ((name: string) => dnsLookup(name, { all: true })))(bare);
    if (found.length === 0) throw new Error('no address');
    return found;
  } catch (error) {
    throw new SntpError('dns', `cannot resolve ${bare}: ${(error as Error).message}`);
  }
}

/** One request to one address; resolves with the checked reply or rejects with an SntpError. */
function queryAddress(host: string, address: string, family: number, port: number, options: SntpOptions): Promise<SntpResult> {
  const timeoutMs = options.timeoutMs ?? 3000;
  const wallNow = options.now ?? Date.now;
  return new Promise<SntpResult>((resolvePromise, reject) => {
    const socket = dgram.createSocket(family === 6 ? 'udp6' : 'udp4');
    let done = false;
    const finish = (error: SntpError | null, result?: SntpResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else resolvePromise(result!);
    };
    const timer = setTimeout(() => finish(new SntpError('timeout', `no answer from ${address}:${port} within ${timeoutMs} ms`)), timeoutMs);

    const t1 = wallNow();
    const sentAt = performance.now();
    // The low bits of the fraction are random (below a microsecond of error), so an off-path
    // sender cannot guess the originate timestamp a genuine reply must echo.
    const base = toNtpTimestamp(t1);
    const transmit: NtpTimestamp = { seconds: base.seconds, fraction: ((base.fraction & 0xffff_f000) | randomInt(0x1000)) >>> 0 };

    socket.on('error', (error) => finish(new SntpError('network', `${address}:${port}: ${error.message}`)));
    socket.on('message', (msg, rinfo) => {
      const t4 = t1 + (performance.now() - sentAt);
      // Only the server we asked, on the port we asked, and only the reply to this request.
      if (rinfo.port !== port || net.isIP(rinfo.address) === 0 || !sameAddress(rinfo.address, address)) return;
      let packet;
      try {
        packet = parsePacket(msg);
      } catch {
        return finish(new SntpError('bad_reply', `${address}:${port}: short packet (${msg.length} bytes)`));
      }
      if (packet.originate.seconds !== transmit.seconds || packet.originate.fraction !== transmit.fraction) return;
      if (packet.mode !== modeServer) return finish(new SntpError('bad_reply', `${address}:${port}: mode ${packet.mode}, not a server reply`));
      if (packet.version < 1 || packet.version > 4) return finish(new SntpError('bad_reply', `${address}:${port}: NTP version ${packet.version}`));
      // Stratum 0 is a kiss-o'-death (RFC 4330 §8): the server refuses us and says why in the reference id.
      if (packet.stratum === 0) {
        const code = referenceIdText(packet.referenceId);
        return finish(new SntpError('kiss', `${address}:${port}: kiss-o'-death ${code}`, code));
      }
      if (packet.leap === leapAlarm || packet.stratum > 15) {
        return finish(new SntpError('unsynchronized', `${address}:${port}: the server's clock is not synchronized`));
      }
      if (isZeroTimestamp(packet.transmit) || isZeroTimestamp(packet.receive)) {
        return finish(new SntpError('bad_reply', `${address}:${port}: empty timestamps`));
      }
      const t2 = fromNtpTimestamp(packet.receive);
      const t3 = fromNtpTimestamp(packet.transmit);
      const { offsetMs, delayMs } = offsetAndDelay(t1, t2, t3, t4);
      finish(null, {
        host, address, port, time: t4 + offsetMs, offsetMs, delayMs: Math.max(0, delayMs), stratum: packet.stratum, referenceId: referenceIdText(packet.referenceId),
      });
    });
    socket.send(buildRequest(transmit), port, address, (error) => {
      if (error) finish(new SntpError('network', `${address}:${port}: ${error.message}`));
    });
  });
}

function sameAddress(a: string, b: string): boolean {
  const strip = (s: string) => s.toLowerCase().replace(/^::ffff:/, '');
  return strip(a) === strip(b);
}

/**
 * Asks one server for the time: each of its addresses in turn (a host name may have IPv6 and
 * IPv4 ones) until one answers. Rejects with the last address's SntpError.
 */
export async function querySntp(target: SntpTarget, options: SntpOptions = {}): Promise<SntpResult> {
  const port = target.port ?? defaultPort;
  const addresses = await resolve(target.host, options);
  let last: SntpError | undefined;
  for (const { address, family } of addresses) {
    try {
      return await queryAddress(target.host, address, family, port, options);
    } catch (error) {
      last = error instanceof SntpError ? error : new SntpError('network', String(error));
      // A server that refuses us by a kiss code refuses on every address; don't hammer it.
      if (last.code === 'kiss') break;
    }
  }
  throw last ?? new SntpError('dns', `no address for ${target.host}`);
}

/** Failure of every server: each one's reason, in order. */
export class SntpAllFailedError extends Error {
  readonly failures: ReadonlyArray<{ target: SntpTarget; error: SntpError }>;

  constructor(failures: ReadonlyArray<{ target: SntpTarget; error: SntpError }>) {
    super(failures.length === 0 ? 'no NTP server configured' : failures.map((f) => f.error.message).join('; '));
    this.name = 'SntpAllFailedError';
    this.failures = failures;
  }
}

/** The first server that answers, trying them in the given order (the administrator's order of preference). */
export async function queryFirst(targets: readonly SntpTarget[], options: SntpOptions = {}): Promise<SntpResult> {
  const failures: Array<{ target: SntpTarget; error: SntpError }> = [];
  for (const target of targets) {
    try {
      return await querySntp(target, options);
    } catch (error) {
      failures.push({ target, error: error instanceof SntpError ? error : new SntpError('network', String(error)) });
    }
  }
  throw new SntpAllFailedError(failures);
}
