import { hostname } from 'node:os';
import { eventKindDef, renderEvent, type EventRecord, type LogSettings } from '@rampart/contracts';
import { SyslogForwarder, type SyslogMessage } from '@rampart/syslog';

/** Event levels as syslog severities (RFC 5424 table 2). */
const severities: Record<string, number> = { info: 6, warning: 4, critical: 2 };
/** local4: a facility sites commonly route to security tooling; kept fixed so receivers can filter on it. */
const facility = 20;
/** Our SD-ID: the name at the IANA documentation enterprise number (RFC 5612). */
const sdId = 'rampart@32473';

export function syslogMessage(record: EventRecord, lang: LogSettings['syslog']['lang'], host = hostname()): SyslogMessage {
  const { content } = renderEvent(record.kind, record.params, lang);
  const sd: Record<string, string> = { id: String(record.id), module: record.module, level: record.level, source: record.source };
  if (record.ip) sd.ip = record.ip;
  if (record.account) sd.account = record.account;
  return {
    time: record.time,
    facility,
    severity: severities[record.level] ?? 6,
    hostname: host,
    appName: 'rampart',
    procId: String(process.pid),
    msgId: record.kind,
    structuredData: { [sdId]: sd },
    text: record.detail ? `${content} | ${record.detail}` : content,
  };
}

/**
 * Forwards each event as it is stored to the administrator's syslog servers, for the content
 * kinds they chose. A receiver that is down only fills its own bounded queue: the store never waits.
 */
export class SyslogBridge {
  #forwarder: SyslogForwarder | undefined;
  #settings: LogSettings['syslog'] | undefined;
  readonly #log: (line: string) => void;

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  configure(settings: LogSettings['syslog']): void {
    this.#settings = settings;
    const servers = settings.enabled ? settings.servers : [];
    const config = { protocol: settings.protocol, charset: settings.charset, servers };
    try {
      if (this.#forwarder) void this.#forwarder.reconfigure(config);
      else if (servers.length > 0) this.#forwarder = new SyslogForwarder(config);
    } catch (error) {
      this.#log(`syslog settings refused: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  forward(records: readonly EventRecord[]): void {
    const settings = this.#settings;
    if (!settings?.enabled || !this.#forwarder) return;
    for (const record of records) {
      const category = eventKindDef(record.kind)?.category ?? 'security';
      if (!settings.kinds.includes(category)) continue;
      try {
        this.#forwarder.forward(syslogMessage(record, settings.lang));
      } catch (error) {
        this.#log(`syslog forward failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  async close(): Promise<void> {
    await this.#forwarder?.close();
    this.#forwarder = undefined;
  }
}
