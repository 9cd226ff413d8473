import { describe, expect, it } from 'vitest';
import { buildRequest, fromNtpTimestamp, offsetAndDelay, packetSize, parsePacket, referenceIdText, toNtpTimestamp } from '../src/index.ts';

describe('SNTP packets (RFC 4330)', () => {
  it('a request is 48 bytes: LI 0, version 4, mode 3, only the transmit timestamp set', () => {
    const request = buildRequest({ seconds: 0xe1234567, fraction: 0x80000000 });
    expect(request).toHaveLength(packetSize);
    expect(request[0]).toBe(0b00_100_011);
    expect(request.subarray(1, 40).every((b) => b === 0)).toBe(true);
    expect(request.readUInt32BE(40)).toBe(0xe1234567);
    expect(request.readUInt32BE(44)).toBe(0x80000000);
  });

  it('converts Unix time to NTP time and back (1900 epoch, binary fraction)', () => {
    expect(toNtpTimestamp(0)).toEqual({ seconds: 2_208_988_800, fraction: 0 });
    expect(toNtpTimestamp(1500)).toEqual({ seconds: 2_208_988_801, fraction: 0x80000000 });
    const now = Date.UTC(2026, 10, 22, 3, 0, 0, 250);
    expect(fromNtpTimestamp(toNtpTimestamp(now))).toBeCloseTo(now, 3);
  });

  it('reads timestamps with the top bit clear as era 1 (after 2036-02-07), so the client survives the rollover', () => {
    const after = Date.UTC(2040, 0, 1);
    const ts = toNtpTimestamp(after);
    expect(ts.seconds).toBeLessThan(0x80000000);
    expect(fromNtpTimestamp(ts)).toBeCloseTo(after, 3);
    expect(fromNtpTimestamp({ seconds: 0, fraction: 0 })).toBe(Date.UTC(2036, 1, 7, 6, 28, 16));
  });

  it('parses every header field of a reply', () => {
    const buf = Buffer.alloc(48);
    buf[0] = (0 << 6) | (4 << 3) | 4;
    buf[1] = 2;
    buf.writeInt8(6, 2);
    buf.writeInt8(-20, 3);
    buf.writeUInt16BE(1, 4); buf.writeUInt16BE(0x8000, 6);
    buf.writeUInt16BE(0, 8); buf.writeUInt16BE(0x4000, 10);
    buf.set([192, 0, 2, 7], 12);
    buf.writeUInt32BE(100, 24); buf.writeUInt32BE(200, 28);
    buf.writeUInt32BE(0xe0000001, 40);
    const p = parsePacket(buf);
    expect(p).toMatchObject({ leap: 0, version: 4, mode: 4, stratum: 2, poll: 6, precision: -20, rootDelay: 1.5, rootDispersion: 0.25 });
    expect(p.originate).toEqual({ seconds: 100, fraction: 200 });
    expect(p.transmit.seconds).toBe(0xe0000001);
    expect(referenceIdText(p.referenceId)).toBe('192.0.2.7');
    expect(referenceIdText(Buffer.from('RATE'))).toBe('RATE');
    expect(referenceIdText(Buffer.from([0x47, 0x50, 0x53, 0]))).toBe('GPS');
    expect(() => parsePacket(Buffer.alloc(47))).toThrow(/48 bytes/);
  });

  it('computes offset and delay from the four timestamps', () => {
    // Server 1000 ms ahead, 20 ms each way, 2 ms inside the server.
    expect(offsetAndDelay(0, 1020, 1022, 42)).toEqual({ offsetMs: 1000, delayMs: 40 });
    // Server 500 ms behind.
    expect(offsetAndDelay(10_000, 9_505, 9_505, 10_010)).toEqual({ offsetMs: -500, delayMs: 10 });
  });
});
