import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSender, formatSyslog, SyslogForwarder, type SyslogCharset, type SyslogForwarderConfig, type SyslogMessage, type SyslogProtocol } from '../src/index.ts';
import { freePort, inputName, Rsyslog, type Input, type Received } from './rsyslog.ts';

// Sender and receiver agree on the zone, so RFC 3164's zone-less time can be checked too.
const zone = 'Asia/Shanghai';
process.env.TZ = zone;

let rsyslog: Rsyslog;
let inputs: Input[];
beforeAll(async () => {
  const specs = [
    { transport: 'udp', address: '127.0.0.1' },
    { transport: 'udp', address: '::1' },
    { transport: 'tcp', address: '127.0.0.1' },
    { transport: 'tcp', address: '::1' },
  ] as const;
  inputs = await Promise.all(specs.map(async (s) => ({ ...s, port: await freePort(s.transport, s.address) })));
  rsyslog = await Rsyslog.start(inputs, zone);
});
afterAll(() => rsyslog?.stop());

let serial = 0;
/** Forwards `message` to all four inputs and returns what rsyslog wrote for it, one record per input. */
async function roundTrip(protocol: SyslogProtocol, charset: SyslogCharset, message: Omit<SyslogMessage, 'msgId'>): Promise<Received[]> {
  const msgId = `t${++serial}-${process.pid}`;
  const config: SyslogForwarderConfig = { protocol, charset, servers: inputs.map((i) => ({ host: i.address, port: i.port, transport: i.transport })) };
  const forwarder = new SyslogForwarder(config);
  forwarder.forward({ ...message, msgId });
  await forwarder.close();
  // RFC 3164 has no MSGID: find those records by their procid instead.
  const mark = (r: Received): boolean => (protocol === 'rfc5424' ? r.msgId === msgId : r.procId === message.procId);
  const found = await rsyslog.waitFor(mark, inputs.length);
  expect(found.map((r) => r.input).sort()).toEqual(inputs.map(inputName).sort());
  return found.map((r) => ({ ...r, input: '' })); // identical apart from the input
}

const text = '检测到暴力破解：来自 203.0.113.9 的 SSH 登录失败 5 次';

describe('rsyslog parses what Rampart sends, over UDP and TCP, IPv4 and IPv6', () => {
  it('RFC 5424: every header field, structured data and UTF-8 MSG', async () => {
    const time = Date.UTC(2024, 2, 5, 6, 7, 9, 123);
    const sd = { 'rampart@32473': { rule: 'ssh-brute', ip: '203.0.113.9', path: '/a"b\\c]d', 用户: 'x', user: '管理员' } };
    const found = await roundTrip('rfc5424', 'utf-8', {
      time, facility: 10, severity: 4, hostname: 'ips-01.example.com', appName: 'rampart', procId: '4242', structuredData: sd, text: `${text}\nsecond line`,
    });
    const expected = {
      hostname: 'ips-01.example.com', appName: 'rampart', procId: '4242', facility: '10', severity: '4', version: '1',
      time: '2024-03-05T14:07:09.123+08:00',
    };
    for (const r of found) {
      expect(r).toMatchObject(expected);
      // PARAM-VALUE travels as UTF-8; a PARAM-NAME outside the SD-NAME grammar (用户) had its characters replaced.
      expect(Buffer.from(r.structuredData, 'latin1').toString('utf8')).toBe(
        '[rampart@32473 rule="ssh-brute" ip="203.0.113.9" path="/a\\"b\\\\c\\]d" __="x" user="管理员"]',
      );
      expect(r.msgBytes.toString('utf8')).toBe(`${text} second line`);
    }
  });

  it('RFC 3164: time, host, tag, pid and MSG', async () => {
    const time = Math.floor(Date.now() / 1000) * 1000 - 60_000; // this year: 3164 has none, rsyslog assumes the current one
    const procId = `${process.pid}${++serial}`;
    const found = await roundTrip('rfc3164', 'utf-8', { time, facility: 4, severity: 2, hostname: 'ips-01', appName: 'rampart-ips', procId, text });
    const shanghai = new Date(time + 8 * 3600_000).toISOString().slice(0, 19);
    for (const r of found) {
      expect(r).toMatchObject({ hostname: 'ips-01', appName: 'rampartips', procId, tag: `rampartips[${procId}]:`, facility: '4', severity: '2', version: '0', time: `${shanghai}+08:00` });
      // rsyslog keeps the space after "TAG:" as part of MSG.
      expect(r.msgBytes.toString('utf8')).toBe(` ${text}`);
    }
  });

  it('UTF-8 with BOM: MSG starts with EF BB BF in both protocols', async () => {
    const time = Date.now();
    const m5424 = await roundTrip('rfc5424', 'utf-8-bom', { time, severity: 5, hostname: 'h', appName: 'rampart', text });
    for (const r of m5424) {
      expect(r.msgBytes.subarray(0, 3).toString('hex')).toBe('efbbbf');
      expect(r.msgBytes.subarray(3).toString('utf8')).toBe(text);
    }
    const procId = `${process.pid}${++serial}`;
    const m3164 = await roundTrip('rfc3164', 'utf-8-bom', { time, severity: 5, hostname: 'h', appName: 'rampart', procId, text });
    for (const r of m3164) expect(r.msgBytes.toString('hex')).toBe(Buffer.concat([Buffer.from(' \ufeff'), Buffer.from(text)]).toString('hex'));
  });

  for (const charset of ['gbk', 'gb18030', 'big5'] as const) {
    it(`${charset}: the MSG bytes arrive as encoded`, async () => {
      const sample = charset === 'big5' ? '偵測到暴力破解：功能說明' : text;
      const found = await roundTrip('rfc5424', charset, { time: Date.now(), severity: 3, hostname: 'h', appName: 'rampart', text: sample });
      for (const r of found) {
        expect(iconv.decode(r.msgBytes, charset)).toBe(sample);
        expect(r.msgBytes.equals(iconv.encode(sample, charset))).toBe(true);
      }
    });
  }

  it('a message cut to 8 KiB arrives whole', async () => {
    const found = await roundTrip('rfc5424', 'utf-8', { time: Date.now(), severity: 6, hostname: 'h', appName: 'rampart', text: '中'.repeat(5000) });
    for (const r of found) {
      expect(r.msgBytes.length).toBe(8190);
      expect(r.msgBytes.toString('utf8')).toBe('中'.repeat(2730));
    }
  });

  it('looks names up: localhost reaches the IPv4 inputs', async () => {
    const msgId = `localhost-${process.pid}`;
    const forwarder = new SyslogForwarder({
      protocol: 'rfc5424', charset: 'utf-8',
      servers: inputs.filter((i) => i.address === '127.0.0.1').map((i) => ({ host: 'localhost', port: i.port, transport: i.transport })),
    });
    forwarder.forward({ time: Date.now(), severity: 6, hostname: 'h', appName: 'rampart', msgId, text: 'by name' });
    await forwarder.close();
    const found = await rsyslog.waitFor((r) => r.msgId === msgId, 2);
    expect(found.map((r) => r.input).sort()).toEqual(['tcp-127.0.0.1', 'udp-127.0.0.1']);
  });

  it('close() delivers what is still queued, in order, and counts it', async () => {
    const tcp = inputs.find((i) => i.transport === 'tcp' && i.address === '::1') as Input;
    const sender = createSender({ host: '::1', port: tcp.port, transport: 'tcp' });
    const msgId = `flush-${process.pid}`;
    for (let i = 0; i < 500; i++) {
      sender.send(formatSyslog({ time: Date.now(), severity: 6, hostname: 'h', appName: 'rampart', msgId, text: `n=${i}` }, { protocol: 'rfc5424', charset: 'utf-8' }));
    }
    await sender.close(5_000);
    expect(sender.stats()).toEqual({ sent: 500, dropped: 0, failed: 0, connected: false });
    const found = await rsyslog.waitFor((r) => r.msgId === msgId, 500);
    expect(found.map((r) => r.msg)).toEqual(Array.from({ length: 500 }, (_, i) => `n=${i}`));
  });
});
