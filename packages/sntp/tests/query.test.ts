import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { parsePacket, queryFirst, querySntp, SntpAllFailedError, SntpError, toNtpTimestamp, type SntpTarget } from '../src/index.ts';

/*
 * The client against a scripted UDP server on loopback: each test decides what the "server"
 * answers (a good reply, a kiss-o'-death, a stale reply, nothing), so every check can fail.
 */
type Reply = (request: Buffer) => Buffer | Buffer[] | null;

const sockets: dgram.Socket[] = [];
afterEach(() => {
  while (sockets.length) sockets.pop()!.close();
});

async function fakeServer(reply: Reply, family: 'udp4' | 'udp6' = 'udp4'): Promise<SntpTarget & { seen: Buffer[] }> {
  const socket = dgram.createSocket(family);
  sockets.push(socket);
  const seen: Buffer[] = [];
  socket.on('message', (msg, rinfo) => {
    seen.push(msg);
    const out = reply(msg);
    for (const packet of out === null ? [] : Array.isArray(out) ? out : [out]) socket.send(packet, rinfo.port, rinfo.address);
  });
  const host = family === 'udp4' ? '127.0.0.1' : '::1';
  await new Promise<void>((resolve) => socket.bind(0, host, resolve));
  return { host, port: socket.address().port, seen };
}

/** A well-formed server reply to `request`, with the server's clock `skewMs` ahead. */
function serverReply(request: Buffer, patch: { leap?: number; stratum?: number; mode?: number; refId?: string; skewMs?: number; originate?: Buffer } = {}): Buffer {
  const buf = Buffer.alloc(48);
  buf[0] = ((patch.leap ?? 0) << 6) | (4 << 3) | (patch.mode ?? 4);
  buf[1] = patch.stratum ?? 3;
  buf.write((patch.refId ?? 'LOCL').padEnd(4, '\0'), 12, 'latin1');
  (patch.originate ?? request.subarray(40, 48)).copy(buf, 24);
  const now = toNtpTimestamp(Date.now() + (patch.skewMs ?? 0));
  for (const at of [16, 32, 40]) {
    buf.writeUInt32BE(now.seconds, at);
    buf.writeUInt32BE(now.fraction, at + 4);
  }
  return buf;
}

describe('SNTP client against a scripted server', () => {
  it('sends a version 4 client request and computes the offset of a server 90 s ahead', async () => {
    const server = await fakeServer((req) => serverReply(req, { skewMs: 90_000 }));
    const before = Date.now();
    const result = await querySntp(server);
    const after = Date.now();
    const request = parsePacket(server.seen[0]!);
    expect(server.seen[0]).toHaveLength(48);
    expect(request).toMatchObject({ version: 4, mode: 3 });
    // Held to what the round trip allows rather than to fixed margins (a loaded machine can stall the
    // reply past them): on one clock the offset's error is at most half the delay (+1 ms, Date.now()'s
    // resolution), the delay is at most the time the query took, and the server's time at the reply
    // lies within the query's span, 90 s ahead.
    const error = result.delayMs / 2 + 2;
    expect(Math.abs(result.offsetMs - 90_000)).toBeLessThanOrEqual(error);
    expect(result.delayMs).toBeGreaterThanOrEqual(0);
    expect(result.delayMs).toBeLessThanOrEqual(after - before + 1);
    expect(result.time).toBeGreaterThanOrEqual(before + 90_000 - error);
    expect(result.time).toBeLessThanOrEqual(after + 90_000 + error);
    expect(result).toMatchObject({ host: '127.0.0.1', address: '127.0.0.1', stratum: 3, referenceId: 'LOCL' });
  });

  it('works over IPv6 and with a host name', async () => {
    const six = await fakeServer((req) => serverReply(req, { skewMs: -3000 }), 'udp6');
    const result = await querySntp(six);
    expect(result.address).toBe('::1');
    expect(result.offsetMs).toBeLessThan(-2900);
    const four = await fakeServer((req) => serverReply(req));
    const named = await querySntp({ host: 'localhost', port: four.port }, { lookup: async () => [{ address: '127.0.0.1', family: 4 }] });
    expect(named).toMatchObject({ host: 'localhost', address: '127.0.0.1' });
  });

  it('reports a kiss-o\'-death with its code and does not take its timestamps', async () => {
    const server = await fakeServer((req) => serverReply(req, { stratum: 0, refId: 'RATE' }));
    const error = await querySntp(server).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SntpError);
    expect(error).toMatchObject({ code: 'kiss', kissCode: 'RATE' });
  });

  it('refuses a server whose clock is not synchronized (LI 3 or stratum 16)', async () => {
    const alarm = await fakeServer((req) => serverReply(req, { leap: 3 }));
    await expect(querySntp(alarm)).rejects.toMatchObject({ code: 'unsynchronized' });
    const sixteen = await fakeServer((req) => serverReply(req, { stratum: 16 }));
    await expect(querySntp(sixteen)).rejects.toMatchObject({ code: 'unsynchronized' });
  });

  it('ignores a reply that does not echo its request, and a client-mode packet is no answer', async () => {
    const stale = Buffer.alloc(8, 7);
    const server = await fakeServer((req) => [serverReply(req, { originate: stale, skewMs: 1e9 }), serverReply(req)]);
    const result = await querySntp(server);
    // The stale reply claims 1e9 ms ahead; the genuine one is the same clock, off by at most half the delay.
    expect(Math.abs(result.offsetMs)).toBeLessThanOrEqual(result.delayMs / 2 + 2);
    const echo = await fakeServer((req) => serverReply(req, { mode: 3 }));
    await expect(querySntp(echo)).rejects.toMatchObject({ code: 'bad_reply' });
  });

  it('times out on a server that does not answer', async () => {
    const silent = await fakeServer(() => null);
    const started = Date.now();
    await expect(querySntp(silent, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(silent.seen).toHaveLength(1);
  });

  it('an unknown host name is a dns failure', async () => {
    await expect(querySntp({ host: 'no-such-host.invalid' })).rejects.toMatchObject({ code: 'dns' });
  });

  it('queryFirst takes the first server that answers and lists why the others failed', async () => {
    const silent = await fakeServer(() => null);
    const good = await fakeServer((req) => serverReply(req));
    const result = await queryFirst([silent, good], { timeoutMs: 300 });
    expect(result.port).toBe(good.port);
    const error = await queryFirst([silent, { host: 'no-such-host.invalid' }], { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SntpAllFailedError);
    expect((error as SntpAllFailedError).failures.map((f) => f.error.code)).toEqual(['timeout', 'dns']);
    await expect(queryFirst([])).rejects.toThrow('no NTP server configured');
  });
});
