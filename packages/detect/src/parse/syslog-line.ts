import { classicSyslogTime } from './syslog-time.ts';

/** A syslog file line taken apart: `program[pid]: message` behind a timestamp and host. */
export interface SyslogLine {
  time?: number;
  host?: string;
  program?: string;
  pid?: number;
  message: string;
}

// `Nov 22 01:02:03 host tag: msg`: rsyslog's traditional format (Debian 12's default for files).
const classic = /^([A-Z][a-z]{2}) {1,2}(\d{1,2}) (\d{2}:\d{2}:\d{2}) (\S+) (.*)$/;
// `2026-11-22T01:02:03.123456+00:00 host tag: msg`: rsyslog's RFC 3339 file format (Debian 13 and others).
const rfc3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})) (\S+) (.*)$/;
// `sshd[123]: msg`, `sshd: msg`; the tag stops at the first `[`, `:` or space.
const tagged = /^([^\s[:]+)(?:\[(\d+)\])?: ?(.*)$/;

/**
 * Splits a syslog file line. A line with neither timestamp is taken as a bare message, which is what
 * `sshd -E file` writes. Returns undefined only for a timestamp that names no real date.
 */
export function parseSyslogLine(line: string, now: number): SyslogLine | undefined {
  let time: number | undefined;
  let host: string;
  let rest: string;
  const c = classic.exec(line);
  if (c) {
    time = classicSyslogTime(c[1]!, Number(c[2]), c[3]!, now);
    if (time === undefined) return undefined;
    host = c[4]!;
    rest = c[5]!;
  } else {
    const r = rfc3339.exec(line);
    if (!r) return { message: line };
    time = Date.parse(r[1]!);
    if (Number.isNaN(time)) return undefined;
    host = r[2]!;
    rest = r[3]!;
  }
  const t = tagged.exec(rest);
  if (!t) return { time, host, message: rest };
  return { time, host, program: t[1]!, pid: t[2] === undefined ? undefined : Number(t[2]), message: t[3]! };
}
