import { describe, expect, it } from 'vitest';
import { parseSyslogLine } from '../../src/parse/syslog-line.ts';

// Year-less RFC 3164 stamps are local time: pin the zone.
process.env.TZ = 'Asia/Shanghai';

const now = Date.parse('2026-11-22T12:00:00+08:00');

describe('parseSyslogLine', () => {
  it('reads the traditional format (local time, year from the clock)', () => {
    expect(parseSyslogLine('Nov 22 01:02:03 web-1 sshd[812]: Failed password for root from 203.0.113.9 port 40022 ssh2', now)).toEqual({
      time: Date.parse('2026-11-22T01:02:03+08:00'),
      host: 'web-1',
      program: 'sshd',
      pid: 812,
      message: 'Failed password for root from 203.0.113.9 port 40022 ssh2',
    });
    // Single-digit days are padded with a space.
    expect(parseSyslogLine('Nov  2 01:02:03 h sshd[1]: x', now)!.time).toBe(Date.parse('2026-11-02T01:02:03+08:00'));
  });

  it('puts a December line read in January in the year before, and tolerates a little clock skew', () => {
    const january = Date.parse('2027-01-01T00:00:10+08:00');
    expect(parseSyslogLine('Dec 31 23:59:59 h sshd[1]: x', january)!.time).toBe(Date.parse('2026-12-31T23:59:59+08:00'));
    expect(parseSyslogLine('Jan  1 00:00:30 h sshd[1]: x', january)!.time).toBe(Date.parse('2027-01-01T00:00:30+08:00'));
  });

  it('reads RFC 3339 stamps with their own zone and fraction', () => {
    expect(parseSyslogLine('2026-11-22T01:02:03.123456+00:00 web-1 sshd-session[5]: Accepted publickey for a from ::1 port 1 ssh2', now)).toEqual({
      time: Date.UTC(2026, 10, 22, 1, 2, 3, 123),
      host: 'web-1',
      program: 'sshd-session',
      pid: 5,
      message: 'Accepted publickey for a from ::1 port 1 ssh2',
    });
    expect(parseSyslogLine('2026-11-22T01:02:03Z h sshd: no pid', now)).toMatchObject({ program: 'sshd', pid: undefined, message: 'no pid' });
  });

  it('takes a line with no stamp as a bare message (sshd -E)', () => {
    expect(parseSyslogLine('Failed password for root from 127.0.0.1 port 1 ssh2', now)).toEqual({ message: 'Failed password for root from 127.0.0.1 port 1 ssh2' });
  });

  it('refuses dates that do not exist', () => {
    expect(parseSyslogLine('Feb 30 01:02:03 h sshd[1]: x', now)).toBeUndefined();
    expect(parseSyslogLine('Nov 22 25:02:03 h sshd[1]: x', now)).toBeUndefined();
    expect(parseSyslogLine('2026-13-22T01:02:03Z h sshd[1]: x', now)).toBeUndefined();
  });
});
