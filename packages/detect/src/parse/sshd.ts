import type { ParsedFields, SkipReason } from '../event.ts';
import type { JournalEntry } from '../sensors/journal-entry.ts';
import { parseSshdMessage } from './sshd-message.ts';
import { parseSyslogLine } from './syslog-line.ts';

export interface LineParse {
  parsed?: ParsedFields;
  logTime?: number;
  skipped?: SkipReason;
}

// OpenSSH 9.8 split the per-connection work into sshd-session (and 10.0 into sshd-auth), which log under those names.
const sshdPrograms = new Set(['sshd', 'sshd-session', 'sshd-auth']);

export const isSshdIdentifier = (name: string | undefined): boolean => name !== undefined && sshdPrograms.has(name);

function fromMessage(message: string, logTime: number | undefined): LineParse {
  const parsed = parseSshdMessage(message);
  return parsed ? { parsed, logTime } : { skipped: 'unrecognised', logTime };
}

/** auth.log / secure lines, RFC 3164 or RFC 3339 stamped, or the bare messages of `sshd -E`. */
export function parseSshdSyslog(line: string, now: number): LineParse {
  const s = parseSyslogLine(line, now);
  if (!s) return { skipped: 'malformed' };
  // A stamped line names its program; only a bare line (sshd -E) is sshd's by being in the file.
  const program = s.time === undefined ? 'sshd' : s.program;
  if (!isSshdIdentifier(program)) return { skipped: 'other_program', logTime: s.time };
  return fromMessage(s.message, s.time);
}

/** A journal entry: the MESSAGE has no syslog prefix; the identifier says who wrote it. */
export function parseSshdJournal(entry: JournalEntry): LineParse {
  if (!isSshdIdentifier(entry.identifier)) return { skipped: 'other_program', logTime: entry.time };
  return fromMessage(entry.message, entry.time);
}
