import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSyslog, SyslogForwarder, type SyslogForwarderConfig, type SyslogMessage, type SyslogServer } from '../src/index.ts';

/** Plain UDP sockets standing in for syslog servers: they record the datagrams they get. */
interface Receiver {
  server: SyslogServer;
  got: Buffer[];
  socket: dgram.Socket;
}
const receivers: Receiver[] = [];
beforeAll(async () => {
  for (let i = 0; i < 3; i++) {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const r: Receiver = { server: { host: '127.0.0.1', port: socket.address().port, transport: 'udp' }, got: [], socket };
    socket.on('message', (m) => r.got.push(m));
    receivers.push(r);
  }
});
afterAll(() => Promise.all(receivers.map((r) => new Promise<void>((resolve) => r.socket.close(() => resolve())))));

const receiver = (i: number) => (): Receiver => receivers[i] as Receiver;
const [a, b, c] = [receiver(0), receiver(1), receiver(2)];
const message = (text: string): SyslogMessage => ({ time: Date.now(), severity: 5, hostname: 'h', appName: 'rampart', text });

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('SyslogForwarder', () => {
  it('formats once per message and sends it to every server; reconfigure keeps, adds and retires senders', async () => {
    const first: SyslogForwarderConfig = { protocol: 'rfc5424', charset: 'utf-8', servers: [a().server, b().server, { ...b().server }] };
    const forwarder = new SyslogForwarder(first);
    expect(forwarder.stats().map((s) => s.server.port)).toEqual([a().server.port, b().server.port]); // the duplicate is one server

    const m1 = message('第一条');
    forwarder.forward(m1);
    await until(() => a().got.length === 1 && b().got.length === 1);
    const expected1 = formatSyslog(m1, first);
    expect(a().got).toEqual([expected1]);
    expect(b().got).toEqual([expected1]);

    await forwarder.reconfigure({ protocol: 'rfc3164', charset: 'gbk', servers: [b().server, c().server] });
    expect(forwarder.stats()).toEqual([
      { server: b().server, sent: 1, dropped: 0, failed: 0, connected: true }, // the same sender, still counting
      { server: c().server, sent: 0, dropped: 0, failed: 0, connected: expect.any(Boolean) as boolean },
    ]);

    const m2 = message('第二条');
    forwarder.forward(m2);
    await until(() => b().got.length === 2 && c().got.length === 1);
    const expected2 = formatSyslog(m2, { protocol: 'rfc3164', charset: 'gbk' });
    expect(b().got[1]).toEqual(expected2);
    expect(c().got).toEqual([expected2]);
    expect(a().got).toHaveLength(1);

    await forwarder.close();
    forwarder.forward(message('after close'));
    expect(forwarder.stats()).toEqual([]);
    expect(() => forwarder.reconfigure(first)).toThrow(/closed/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([a().got.length, b().got.length, c().got.length]).toEqual([1, 2, 1]);
  });

  it('refuses an invalid config and leaves the running one as it was', async () => {
    const good: SyslogForwarderConfig = { protocol: 'rfc5424', charset: 'utf-8', servers: [a().server] };
    const forwarder = new SyslogForwarder(good);
    const bad: [Partial<SyslogForwarderConfig> | Partial<SyslogServer>, RegExp][] = [
      [{ protocol: 'rfc9999' as never }, /protocol/],
      [{ charset: 'utf-16' as never }, /charset/],
      [{ host: ' ' }, /host/],
      [{ port: 0 }, /port/],
      [{ port: 65536 }, /port/],
      [{ port: 51.4 }, /port/],
      [{ transport: 'sctp' as never }, /transport/],
    ];
    for (const [change, error] of bad) {
      const config = 'host' in change || 'port' in change || 'transport' in change
        ? { ...good, servers: [b().server, { ...c().server, ...change }] }
        : { ...good, ...change };
      expect(() => forwarder.reconfigure(config as SyslogForwarderConfig)).toThrow(error);
      expect(() => new SyslogForwarder(config as SyslogForwarderConfig)).toThrow(error);
    }
    expect(forwarder.stats().map((s) => s.server)).toEqual([a().server]);
    expect(() => forwarder.forward({ ...message('x'), severity: 9 })).toThrow(RangeError);
    await forwarder.close();
  });
});
