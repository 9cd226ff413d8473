/**
 * The SNTP wire format (RFC 4330, NTP version 4 header): 48 bytes, big-endian.
 *
 *  0: LI (2 bits) | VN (3 bits) | Mode (3 bits)
 *  1: stratum   2: poll   3: precision
 *  4: root delay   8: root dispersion   12: reference id
 * 16: reference ts   24: originate ts   32: receive ts   40: transmit ts
 *
 * Timestamps are 64-bit: seconds since 1900-01-01 and a 32-bit binary fraction.
 */
export const packetSize = 48;
export const ntpVersion = 4;
export const modeClient = 3;
export const modeServer = 4;
export const modeBroadcast = 5;
/** Leap indicator 3: the server's clock is not synchronized (RFC 4330 §5). */
export const leapAlarm = 3;

/** Seconds from 1900-01-01 (NTP era 0) to 1970-01-01. */
const ntpToUnixSeconds = 2_208_988_800;
const twoTo32 = 4_294_967_296;

/** An NTP timestamp as its two 32-bit words. */
export interface NtpTimestamp {
  seconds: number;
  fraction: number;
}

/** Unix milliseconds → NTP timestamp (eras wrap the seconds word: 2036 starts era 1). */
export function toNtpTimestamp(unixMs: number): NtpTimestamp {
  const total = unixMs / 1000 + ntpToUnixSeconds;
  const whole = Math.floor(total);
  const fraction = Math.min(twoTo32 - 1, Math.round((total - whole) * twoTo32));
  return { seconds: whole % twoTo32, fraction };
}

/**
 * NTP timestamp → Unix milliseconds. RFC 4330 §3: if the most significant bit of the seconds is
 * clear, the time is in era 1 (from 2036-02-07), so the client keeps working past the rollover.
 */
export function fromNtpTimestamp(ts: NtpTimestamp): number {
  const seconds = ts.seconds >= 0x8000_0000 ? ts.seconds : ts.seconds + twoTo32;
  return (seconds - ntpToUnixSeconds) * 1000 + (ts.fraction / twoTo32) * 1000;
}

export function isZeroTimestamp(ts: NtpTimestamp): boolean {
  return ts.seconds === 0 && ts.fraction === 0;
}

function readTimestamp(buf: Buffer, at: number): NtpTimestamp {
  return { seconds: buf.readUInt32BE(at), fraction: buf.readUInt32BE(at + 4) };
}

function writeTimestamp(buf: Buffer, at: number, ts: NtpTimestamp): void {
  buf.writeUInt32BE(ts.seconds >>> 0, at);
  buf.writeUInt32BE(ts.fraction >>> 0, at + 4);
}

/**
 * A client request: version 4, mode 3, every field zero except the transmit timestamp, which the
 * server copies into the reply's originate field (RFC 4330 §5) — the client matches replies by it.
 */
export function buildRequest(transmit: NtpTimestamp): Buffer {
  const buf = Buffer.alloc(packetSize);
  buf[0] = (0 << 6) | (ntpVersion << 3) | modeClient;
  writeTimestamp(buf, 40, transmit);
  return buf;
}

export interface NtpPacket {
  leap: number;
  version: number;
  mode: number;
  stratum: number;
  poll: number;
  precision: number;
  /** Seconds. */
  rootDelay: number;
  rootDispersion: number;
  /** Four raw bytes: an ASCII code (stratum 0/1: "RATE", "GPS") or an IPv4 / hash of the upstream. */
  referenceId: Buffer;
  reference: NtpTimestamp;
  originate: NtpTimestamp;
  receive: NtpTimestamp;
  transmit: NtpTimestamp;
}

/** Reads a reply's header; throws on a packet shorter than 48 bytes (extension fields are ignored). */
export function parsePacket(buf: Buffer): NtpPacket {
  if (buf.length < packetSize) throw new RangeError(`an NTP packet has at least ${packetSize} bytes, got ${buf.length}`);
  const first = buf[0]!;
  const shortFormat = (at: number) => buf.readUInt16BE(at) + buf.readUInt16BE(at + 2) / 65536;
  return {
    leap: first >> 6,
    version: (first >> 3) & 0b111,
    mode: first & 0b111,
    stratum: buf[1]!,
    poll: buf.readInt8(2),
    precision: buf.readInt8(3),
    rootDelay: shortFormat(4),
    rootDispersion: shortFormat(8),
    referenceId: Buffer.from(buf.subarray(12, 16)),
    reference: readTimestamp(buf, 16),
    originate: readTimestamp(buf, 24),
    receive: readTimestamp(buf, 32),
    transmit: readTimestamp(buf, 40),
  };
}

/** The reference id as text: a kiss code or clock name when printable ASCII, otherwise dotted bytes. */
export function referenceIdText(id: Buffer): string {
  const ascii = id.toString('latin1').replace(/\0+$/, '');
  if (ascii.length > 0 && /^[\x20-\x7e]+$/.test(ascii)) return ascii;
  return [...id].join('.');
}

/**
 * Clock offset and round-trip delay from the four timestamps (RFC 4330 §5), in milliseconds:
 *   offset = ((T2 - T1) + (T3 - T4)) / 2     delay = (T4 - T1) - (T3 - T2)
 * T1 request sent, T2 request received, T3 reply sent (server clock), T4 reply received.
 */
export function offsetAndDelay(t1: number, t2: number, t3: number, t4: number): { offsetMs: number; delayMs: number } {
  return { offsetMs: (t2 - t1 + (t3 - t4)) / 2, delayMs: t4 - t1 - (t3 - t2) };
}
