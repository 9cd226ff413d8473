/**
 * The one event type of the pipeline. A line enters as `source` + `raw`; each stage fills in its
 * part (parse: `parsed`, `logTime`; detect: `matched`, `overflows`; decide: `decisions`), so what
 * reaches storage carries its whole story, as a crowdsec event does.
 */

/** Which parser reads a line. */
export const logSources = ['sshd-syslog', 'sshd-journal', 'nginx', 'apache'] as const;
export type LogSource = (typeof logSources)[number];

export const eventKinds = ['ssh_auth_failure', 'ssh_auth_success', 'ssh_notice', 'http_request'] as const;
export type EventKind = (typeof eventKinds)[number];

/** What sshd lines that are not an attempt of their own say (see parse/sshd-message.ts for why they are not counted). */
export const sshNotes = [
  'invalid_user',
  'failed_kbdint',
  'failed_other_method',
  'pam_failure',
  'pam_summary',
  'max_attempts',
  'too_many_failures',
  'closed_preauth',
  'probe',
] as const;
export type SshNote = (typeof sshNotes)[number];

/** Flat on purpose: scenario filters, `group_by` and `distinct` name these keys directly. */
export interface ParsedFields {
  kind: EventKind;
  /** Client address, normalised (IPv4-mapped IPv6 becomes IPv4, IPv6 lower case). */
  ip?: string;
  /** Client port (sshd). */
  port?: number;
  user?: string;
  /** sshd: the user does not exist on this host. */
  invalidUser?: boolean;
  /** sshd: password, keyboard-interactive/pam, publickey, ... */
  authMethod?: string;
  /** sshd: what a non-counted line says. */
  note?: SshNote;
  /** How many events this line stands for: syslog's "message repeated N times" folds N into one line. */
  repeat?: number;
  /** HTTP method; absent when the request line was not HTTP (a TLS hello on a plain port, "-"). */
  method?: string;
  /** Request path without the query string. */
  path?: string;
  query?: string;
  protocol?: string;
  status?: number;
  bytes?: number;
  referer?: string;
  userAgent?: string;
  /** Virtual host (Apache vhost_combined). */
  host?: string;
}

export type FieldName = keyof ParsedFields;
export type FieldValue = string | number | boolean;

/** Why a line produced no parsed fields. */
export const skipReasons = ['malformed', 'other_program', 'unrecognised'] as const;
export type SkipReason = (typeof skipReasons)[number];

/** A scenario's group went over its threshold. */
export interface Overflow {
  scenario: string;
  /** The value of the scenario's `group_by` field (the IP for every shipped scenario). */
  group: string;
  /** Events (or distinct values) in the window when it overflowed. */
  count: number;
  /** Time of the first event in the window, and of the one that tipped it over (ms). */
  firstTime: number;
  time: number;
}

export interface Decision {
  action: 'block';
  ip: string;
  scenario: string;
  /** A message key such as `ssh_bruteforce`; the words come from the catalogue. */
  reason: string;
  durationMinutes: number;
  /** Time of the event that triggered it (ms); the block runs from here. */
  time: number;
  until: number;
  count: number;
  source: LogSource;
}

export interface PipelineEvent {
  source: LogSource;
  raw: string;
  /** The time windows use (ms): the line's own time when replaying, the clock otherwise. */
  time: number;
  /** The time written in the line, when it has one. */
  logTime?: number;
  parsed?: ParsedFields;
  skipped?: SkipReason;
  /** Names of the scenarios whose filter matched. */
  matched: string[];
  overflows: Overflow[];
  decisions: Decision[];
}
