import { encodeMsg } from './encode.ts';
import { headerField, oneLine, pid, structuredData, tag } from './fields.ts';
import { rfc3164Time, rfc3339 } from './time.ts';

export const syslogProtocols = ['rfc3164', 'rfc5424'] as const;
export type SyslogProtocol = (typeof syslogProtocols)[number];

/** `utf-8-bom` starts MSG with the byte order mark, which RFC 5424 §6.4 uses to say "this is UTF-8". */
export const syslogCharsets = ['utf-8', 'utf-8-bom', 'gbk', 'gb18030', 'big5'] as const;
export type SyslogCharset = (typeof syslogCharsets)[number];

export interface SyslogMessage {
  /** When the event happened, ms since the epoch; written in the local time zone. */
  time: number;
  /** 0-23; 16 (local0) when left out. */
  facility?: number;
  /** 0 (emergency) - 7 (debug). */
  severity: number;
  hostname: string;
  appName: string;
  procId?: string;
  /** RFC 5424 only. */
  msgId?: string;
  /** RFC 5424 only: SD-ID (e.g. `rampart@32473`) → PARAM-NAME → value. */
  structuredData?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  text: string;
}

export interface SyslogFormatOptions {
  protocol: SyslogProtocol;
  charset: SyslogCharset;
}

export const defaultFacility = 16;

function priority(facility: number, severity: number): number {
  if (!Number.isInteger(facility) || facility < 0 || facility > 23) throw new RangeError(`syslog facility must be 0-23, not ${facility}`);
  if (!Number.isInteger(severity) || severity < 0 || severity > 7) throw new RangeError(`syslog severity must be 0-7, not ${severity}`);
  return facility * 8 + severity;
}

/** `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID SD` */
function header5424(m: SyslogMessage, pri: number): string {
  const fields = [
    rfc3339(m.time),
    headerField(m.hostname, 255),
    headerField(m.appName, 48),
    headerField(m.procId, 128),
    headerField(m.msgId, 32),
    structuredData(m.structuredData),
  ];
  return `<${pri}>1 ${fields.join(' ')}`;
}

/** `<PRI>Mmm dd hh:mm:ss HOSTNAME TAG[PID]:` — RFC 3164 has no MSGID or structured data, so they are left out. */
function header3164(m: SyslogMessage, pri: number): string {
  const procId = m.procId ? `[${pid(m.procId)}]` : '';
  return `<${pri}>${rfc3164Time(m.time)} ${headerField(m.hostname, 255)} ${tag(m.appName)}${procId}:`;
}

/**
 * One syslog message, ready for any transport. The header is ASCII (structured-data values are
 * UTF-8, as RFC 5424 requires); only MSG is in `options.charset`, on one line, at most 8 KiB.
 * Throws RangeError for a facility or severity out of range: those come from code, not from events.
 */
export function formatSyslog(message: SyslogMessage, options: SyslogFormatOptions): Buffer {
  const pri = priority(message.facility ?? defaultFacility, message.severity);
  const header = options.protocol === 'rfc5424' ? header5424(message, pri) : header3164(message, pri);
  const text = oneLine(message.text);
  // MSG is optional in both grammars: with no text the message ends after the header.
  if (text === '') return Buffer.from(header, 'utf8');
  return Buffer.concat([Buffer.from(`${header} `, 'utf8'), encodeMsg(text, options.charset)]);
}
