/** One journal entry as the pipeline needs it. */
export interface JournalEntry {
  /** __REALTIME_TIMESTAMP, in ms. */
  time: number;
  message: string;
  /** SYSLOG_IDENTIFIER, else _COMM. */
  identifier?: string;
  pid?: number;
  /** Where to resume: `journalctl --after-cursor`. */
  cursor?: string;
  /** The JSON line journalctl wrote. */
  raw: string;
}

/*
 * journalctl --output=json writes a field as a string when it is printable UTF-8, as an array of
 * byte values when it is not (control characters, invalid UTF-8), and as an array of those when the
 * entry carries the field more than once. null stands for a field too large to show.
 */
function fieldText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    if (value.every((b) => typeof b === 'number')) return Buffer.from(value as number[]).toString('utf8');
    // Several values: the first one is the entry's own.
    return value.length ? fieldText(value[0]) : undefined;
  }
  return undefined;
}

/** Undefined for a line that is not a journal entry with a time and a message. */
export function parseJournalJson(line: string): JournalEntry | undefined {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const record = data as Record<string, unknown>;
  const micros = fieldText(record.__REALTIME_TIMESTAMP);
  const message = fieldText(record.MESSAGE);
  if (micros === undefined || !/^\d+$/.test(micros) || message === undefined) return undefined;
  const entry: JournalEntry = { time: Math.floor(Number(micros) / 1000), message, raw: line };
  const identifier = fieldText(record.SYSLOG_IDENTIFIER) ?? fieldText(record._COMM);
  if (identifier !== undefined) entry.identifier = identifier;
  const pid = fieldText(record._PID) ?? fieldText(record.SYSLOG_PID);
  if (pid !== undefined && /^\d+$/.test(pid)) entry.pid = Number(pid);
  const cursor = fieldText(record.__CURSOR);
  if (cursor !== undefined) entry.cursor = cursor;
  return entry;
}
