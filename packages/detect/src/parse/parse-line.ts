import type { LogSource } from '../event.ts';
import { parseJournalJson } from '../sensors/journal-entry.ts';
import { parseAccessLog } from './access-log.ts';
import { parseSshdJournal, parseSshdSyslog, type LineParse } from './sshd.ts';

/**
 * The parse stage: a raw line from `source` to its fields. `now` places year-less syslog stamps.
 * Never throws; a line it cannot read says why in `skipped`.
 */
export function parseLine(raw: string, source: LogSource, now: number): LineParse {
  switch (source) {
    case 'sshd-syslog':
      return parseSshdSyslog(raw, now);
    case 'sshd-journal': {
      const entry = parseJournalJson(raw);
      return entry ? parseSshdJournal(entry) : { skipped: 'malformed' };
    }
    case 'nginx':
    case 'apache': {
      const access = parseAccessLog(raw);
      return access ? { parsed: access.fields, logTime: access.time } : { skipped: 'malformed' };
    }
  }
}
