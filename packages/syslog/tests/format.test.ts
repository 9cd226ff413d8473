import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { formatSyslog, maxMsgBytes, type SyslogCharset, type SyslogMessage } from '../src/index.ts';

// Golden strings below are in China Standard Time (UTC+8, no daylight saving); some tests switch zones.
const zone = 'Asia/Shanghai';
process.env.TZ = zone;
afterEach(() => void (process.env.TZ = zone));

/** 2024-03-05 06:07:09.123 UTC = 14:07:09.123 in Shanghai. */
const time = Date.UTC(2024, 2, 5, 6, 7, 9, 123);

const base: SyslogMessage = { time, facility: 10, severity: 4, hostname: 'ips-01.example.com', appName: 'rampart', procId: '4242', text: 'blocked' };
const f5424 = (m: Partial<SyslogMessage>, charset: SyslogCharset = 'utf-8'): Buffer => formatSyslog({ ...base, ...m }, { protocol: 'rfc5424', charset });
const f3164 = (m: Partial<SyslogMessage>, charset: SyslogCharset = 'utf-8'): Buffer => formatSyslog({ ...base, ...m }, { protocol: 'rfc3164', charset });
const s5424 = (m: Partial<SyslogMessage>): string => f5424(m).toString('utf8');
const s3164 = (m: Partial<SyslogMessage>): string => f3164(m).toString('utf8');
const hex = (s: string): Buffer => Buffer.from(s.replace(/ /g, ''), 'hex');

describe('RFC 5424', () => {
  it('writes every field in order', () => {
    const sd = { 'rampart@32473': { rule: 'sqli-1', ip: '203.0.113.9' } };
    expect(s5424({ msgId: 'waf.block', structuredData: sd, text: 'blocked SQL injection' })).toBe(
      '<84>1 2024-03-05T14:07:09.123+08:00 ips-01.example.com rampart 4242 waf.block [rampart@32473 rule="sqli-1" ip="203.0.113.9"] blocked SQL injection',
    );
  });

  it('computes PRI as facility × 8 + severity, local0 by default, and refuses values out of range', () => {
    const pri = (facility: number | undefined, severity: number): string => s5424({ facility, severity }).slice(0, s5424({ facility, severity }).indexOf('1 '));
    expect(pri(undefined, 6)).toBe('<134>');
    expect(pri(0, 0)).toBe('<0>');
    expect(pri(4, 2)).toBe('<34>');
    expect(pri(23, 7)).toBe('<191>');
    expect(() => s5424({ facility: 24 })).toThrow(RangeError);
    expect(() => s5424({ facility: -1 })).toThrow(RangeError);
    expect(() => s5424({ severity: 8 })).toThrow(RangeError);
    expect(() => s5424({ severity: 1.5 })).toThrow(RangeError);
  });

  it('writes NILVALUE for empty fields and leaves out an empty MSG', () => {
    expect(s5424({ hostname: '', appName: '', procId: undefined, msgId: '', structuredData: {} })).toBe('<84>1 2024-03-05T14:07:09.123+08:00 - - - - - blocked');
    expect(s5424({ text: '' })).toBe('<84>1 2024-03-05T14:07:09.123+08:00 ips-01.example.com rampart 4242 - -');
    expect(s5424({ time: Number.NaN })).toBe('<84>1 - ips-01.example.com rampart 4242 - - blocked');
    expect(s5424({ time: Date.UTC(10000, 0, 1) })).toMatch(/^<84>1 - /);
  });

  it('escapes PARAM-VALUE and makes names grammatical', () => {
    const sd = {
      'rampart@32473': { path: 'a"b\\c]d', note: 'line1\nline2', '': 'dropped', 'bad name=x': '中' },
      'bad id': {},
    };
    expect(s5424({ structuredData: sd, text: '' })).toBe(
      '<84>1 2024-03-05T14:07:09.123+08:00 ips-01.example.com rampart 4242 - [rampart@32473 path="a\\"b\\\\c\\]d" note="line1 line2" bad_name_x="中"][bad_id]',
    );
    // PARAM-VALUE is UTF-8 whatever the MSG charset (RFC 5424 §6.3.3).
    expect(f5424({ structuredData: { x: { v: '中' } }, text: '' }, 'gbk').subarray(-6).toString('hex')).toBe(Buffer.from('"中"]').toString('hex'));
  });

  it('replaces characters outside PRINTUSASCII and cuts header fields to their RFC lengths', () => {
    expect(s5424({ hostname: 'my host', appName: '入侵防御', procId: 'a\tb', msgId: 'x y' })).toBe(
      '<84>1 2024-03-05T14:07:09.123+08:00 my_host ____ a_b x_y - blocked',
    );
    const long = s5424({ hostname: 'h'.repeat(300), appName: 'a'.repeat(60), procId: 'p'.repeat(200), msgId: 'm'.repeat(40), structuredData: { ['i'.repeat(40)]: { ['n'.repeat(40)]: 'v' } } });
    const [, , host, app, proc, msgId, sd] = long.split(' ');
    expect([host?.length, app?.length, proc?.length, msgId?.length]).toEqual([255, 48, 128, 32]);
    expect(sd).toBe(`[${'i'.repeat(32)}`);
    expect(long).toContain(` ${'n'.repeat(32)}="v"]`);
  });

  it('puts one message on one line', () => {
    expect(s5424({ text: 'a\r\nb\nc\rd' })).toMatch(/ a b c d$/);
  });
});

describe('RFC 3164', () => {
  it('writes PRI, local time with a space-padded day, host, TAG[PID] and MSG', () => {
    expect(s3164({ text: 'blocked SQL injection' })).toBe('<84>Mar  5 14:07:09 ips-01.example.com rampart[4242]: blocked SQL injection');
    expect(s3164({ time: Date.UTC(2024, 9, 15, 20, 0, 0), procId: undefined })).toBe('<84>Oct 16 04:00:00 ips-01.example.com rampart: blocked');
  });

  it('keeps the TAG to 32 alphanumeric characters and drops what 3164 cannot carry', () => {
    expect(s3164({ appName: 'rampart-ips_v2', msgId: 'waf', structuredData: { 'rampart@32473': { a: 'b' } } })).toBe(
      '<84>Mar  5 14:07:09 ips-01.example.com rampartipsv2[4242]: blocked',
    );
    expect(s3164({ appName: 'x'.repeat(40), procId: '' })).toBe(`<84>Mar  5 14:07:09 ips-01.example.com ${'x'.repeat(32)}: blocked`);
    expect(s3164({ procId: '12[3]:4', text: '' })).toBe('<84>Mar  5 14:07:09 ips-01.example.com rampart[12_3__4]:');
  });
});

describe('MSG charset', () => {
  const text = '入侵防御';
  const golden: Record<SyslogCharset, string> = {
    'utf-8': 'e5 85 a5 e4 be b5 e9 98 b2 e5 be a1',
    'utf-8-bom': 'ef bb bf e5 85 a5 e4 be b5 e9 98 b2 e5 be a1',
    gbk: 'c8 eb c7 d6 b7 c0 d3 f9',
    gb18030: 'c8 eb c7 d6 b7 c0 d3 f9',
    big5: 'a4 4a ab 49 a8 be b1 73',
  };
  for (const [charset, bytes] of Object.entries(golden) as [SyslogCharset, string][]) {
    it(`encodes only MSG in ${charset}, in both protocols`, () => {
      expect(f5424({ text }, charset)).toEqual(Buffer.concat([Buffer.from('<84>1 2024-03-05T14:07:09.123+08:00 ips-01.example.com rampart 4242 - - '), hex(bytes)]));
      expect(f3164({ text }, charset)).toEqual(Buffer.concat([Buffer.from('<84>Mar  5 14:07:09 ips-01.example.com rampart[4242]: '), hex(bytes)]));
    });
  }

  it('uses four-byte GB18030 where GBK and Big5 have no character', () => {
    expect(f5424({ text: 'a😀b' }, 'gb18030').subarray(-6)).toEqual(hex('61 94 39 fc 36 62'));
    expect(f5424({ text: 'a😀b' }, 'gbk').subarray(-3)).toEqual(Buffer.from('a?b'));
    expect(f5424({ text: 'a😀b' }, 'big5').subarray(-3)).toEqual(Buffer.from('a?b'));
  });
});

describe('8 KiB MSG cap', () => {
  const msgOf = (buf: Buffer, header: Buffer): Buffer => buf.subarray(header.length + 1);
  const header = f5424({ text: '' });

  it('keeps a message that fits and cuts one that does not', () => {
    expect(maxMsgBytes).toBe(8192);
    expect(msgOf(f5424({ text: 'x'.repeat(8192) }), header).length).toBe(8192);
    expect(msgOf(f5424({ text: 'x'.repeat(8193) }), header)).toEqual(Buffer.from('x'.repeat(8192)));
  });

  it('never cuts a multi-byte character', () => {
    const utf8 = msgOf(f5424({ text: '中'.repeat(3000) }), header);
    expect(utf8.length).toBe(8190);
    expect(utf8.toString('utf8')).toBe('中'.repeat(2730));

    const bom = msgOf(f5424({ text: '中'.repeat(3000) }, 'utf-8-bom'), header);
    expect(bom.length).toBe(8190); // the BOM counts: 3 + 2729 × 3
    expect(bom.subarray(0, 3)).toEqual(hex('ef bb bf'));
    expect(bom.subarray(3).toString('utf8')).toBe('中'.repeat(2729));

    const gbk = msgOf(f5424({ text: `a${'中'.repeat(5000)}` }, 'gbk'), header);
    expect(gbk.length).toBe(8191);
    expect(iconv.decode(gbk, 'gbk')).toBe(`a${'中'.repeat(4095)}`);

    const big5 = msgOf(f5424({ text: `ab${'功'.repeat(5000)}` }, 'big5'), header);
    expect(big5.length).toBe(8192);
    expect(iconv.decode(big5, 'big5')).toBe(`ab${'功'.repeat(4095)}`);

    const emoji = msgOf(f5424({ text: `ab${'😀'.repeat(3000)}` }), header);
    expect(emoji.length).toBe(8190);
    expect(emoji.toString('utf8')).toBe(`ab${'😀'.repeat(2047)}`);

    const gb18030 = msgOf(f5424({ text: `abc${'😀'.repeat(3000)}` }, 'gb18030'), header);
    expect(gb18030.length).toBe(8191);
    expect(iconv.decode(gb18030, 'gb18030')).toBe(`abc${'😀'.repeat(2047)}`);
  });
});

describe('time zones', () => {
  const at = (tz: string, t: number): [string, string] => {
    process.env.TZ = tz;
    return [s5424({ time: t }).split(' ')[1] ?? '', s3164({ time: t }).slice(4, 19)];
  };

  it('writes Z for UTC and the numeric offset elsewhere, daylight saving included', () => {
    const january = Date.UTC(2024, 0, 15, 12, 30, 0, 5);
    const july = Date.UTC(2024, 6, 15, 12, 30, 0, 5);
    expect(at('UTC', january)).toEqual(['2024-01-15T12:30:00.005Z', 'Jan 15 12:30:00']);
    expect(at('Asia/Kolkata', january)).toEqual(['2024-01-15T18:00:00.005+05:30', 'Jan 15 18:00:00']);
    expect(at('America/St_Johns', january)).toEqual(['2024-01-15T09:00:00.005-03:30', 'Jan 15 09:00:00']);
    expect(at('America/St_Johns', july)).toEqual(['2024-07-15T10:00:00.005-02:30', 'Jul 15 10:00:00']);
    expect(at('America/Los_Angeles', Date.UTC(2024, 2, 1, 3, 4, 5, 600))).toEqual(['2024-02-29T19:04:05.600-08:00', 'Feb 29 19:04:05']);
  });

  it('agrees with the offset Date reports for the local zone', () => {
    process.env.TZ = 'Europe/Berlin';
    const t = Date.UTC(2024, 5, 1, 0, 0, 0, 0);
    const offset = -new Date(t).getTimezoneOffset();
    expect(offset).toBe(120);
    expect(s5424({ time: t }).split(' ')[1]).toBe('2024-06-01T02:00:00.000+02:00');
  });
});
