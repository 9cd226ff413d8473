import type { ParsedFields, SshNote } from '../event.ts';
import { normalizeIp } from './ip.ts';

/*
 * Which sshd lines count as a failed attempt — one per password guess, never two.
 * Recorded from a real OpenSSH 9.2 with and without PAM (scripts/capture-sshd.sh):
 *
 * Counted (kind ssh_auth_failure):
 * - "Failed password for [invalid user] U from IP port P ssh2": sshd writes one per password
 *   attempt and always at INFO, with PAM or without.
 * - "PAM: Authentication failure for [illegal user] U from IP": one per keyboard-interactive/PAM
 *   attempt, at error level, so always present. The matching "Failed keyboard-interactive/pam"
 *   line is NOT counted: it duplicates this one, and for a valid user sshd logs it only from the
 *   (MaxAuthTries/2)-th failure on (earlier ones are VERBOSE), so it would undercount anyway.
 * - "message repeated N times: [ <a counted line> ]" (rsyslog's reduction) counts N.
 *
 * Parsed but not counted (kind ssh_notice, `note` says which), because each belongs to an attempt
 * already counted or is not a password guess:
 * - "Invalid user U from IP port P": once per connection, before its attempts (which are counted).
 * - "pam_unix(sshd:auth): authentication failure; … rhost=IP user=U": PAM's own line for the same
 *   attempt as a "Failed password"; "PAM N more authentication failures": a summary of those.
 * - "maximum authentication attempts exceeded", "Disconnecting … Too many authentication
 *   failures": written after the attempt that reached MaxAuthTries, which was counted.
 * - "Connection closed by authenticating/invalid user … [preauth]": the client left; its attempts
 *   (if any) were counted.
 * - "Failed publickey/none/hostbased": key offers are not guesses; a client with many keys makes them.
 * - Connections with no authentication at all (port scans, banner grabbing, "Did not receive
 *   identification string", "banner exchange: … invalid format"): note `probe`, for a scenario of
 *   their own, not for the brute-force count.
 *
 * User names are the client's choice and may contain " from 1.2.3.4 port 22": user groups are
 * greedy and patterns anchored at the end of the line (either alone would do), so the address is
 * always the one sshd wrote last and a crafted name cannot frame another address.
 */

interface Rule {
  re: RegExp;
  fields: (m: RegExpExecArray) => ParsedFields | undefined;
}

// With UseDNS yes the PAM line names a host instead of an address: still a failure, but one no
// scenario can group by address.
function failure(authMethod: string, invalid: string | undefined, user: string, host: string, p?: string): ParsedFields {
  const fields: ParsedFields = { kind: 'ssh_auth_failure', authMethod, user, invalidUser: invalid !== undefined };
  const ip = normalizeIp(host);
  if (ip) fields.ip = ip;
  if (p !== undefined) fields.port = Number(p);
  return fields;
}

function note(n: SshNote, ip: string | undefined, user?: string, p?: string, invalid?: boolean): ParsedFields {
  const fields: ParsedFields = { kind: 'ssh_notice', note: n };
  const address = ip === undefined ? undefined : normalizeIp(ip);
  if (address) fields.ip = address;
  if (user !== undefined) fields.user = user;
  if (p !== undefined) fields.port = Number(p);
  if (invalid) fields.invalidUser = true;
  return fields;
}

const rules: Rule[] = [
  { re: /^Failed password for (invalid user )?(.*) from (\S+) port (\d+)(?: ssh2)?$/, fields: (m) => failure('password', m[1], m[2]!, m[3]!, m[4]) },
  { re: /^PAM: Authentication failure for (illegal user )?(.*) from (\S+)$/, fields: (m) => failure('keyboard-interactive/pam', m[1], m[2]!, m[3]!) },
  {
    re: /^Accepted (\S+) for (.*) from (\S+) port (\d+)(?: ssh2)?(?:: .*)?$/,
    fields: (m) => {
      const ip = normalizeIp(m[3]!);
      return ip ? { kind: 'ssh_auth_success', authMethod: m[1]!, user: m[2]!, ip, port: Number(m[4]) } : undefined;
    },
  },
  { re: /^Invalid user (.*) from (\S+)(?: port (\d+))?$/, fields: (m) => note('invalid_user', m[2], m[1], m[3], true) },
  {
    re: /^Failed keyboard-interactive\/pam for (invalid user )?(.*) from (\S+) port (\d+)(?: ssh2)?$/,
    fields: (m) => note('failed_kbdint', m[3], m[2], m[4], m[1] !== undefined),
  },
  {
    re: /^Failed \S+ for (invalid user )?(.*) from (\S+) port (\d+)(?: ssh2)?(?:: .*)?$/,
    fields: (m) => note('failed_other_method', m[3], m[2], m[4], m[1] !== undefined),
  },
  // rhost= comes before user= (the client's choice), so the first rhost= is PAM's own.
  { re: /^pam_unix\(sshd:auth\): authentication failure;.*? rhost=(\S*)\s*(?:user=(.*))?$/, fields: (m) => note('pam_failure', m[1], m[2]) },
  { re: /^PAM \d+ more authentication failures?;.*? rhost=(\S*)\s*(?:user=(.*))?$/, fields: (m) => note('pam_summary', m[1], m[2]) },
  {
    re: /^maximum authentication attempts exceeded for (invalid user )?(.*) from (\S+) port (\d+)(?: ssh2)?(?: \[preauth\])?$/,
    fields: (m) => note('max_attempts', m[3], m[2], m[4], m[1] !== undefined),
  },
  {
    re: /^Disconnecting (authenticating|invalid) user (.*) (\S+) port (\d+): Too many authentication failures(?: \[preauth\])?$/,
    fields: (m) => note('too_many_failures', m[3], m[2], m[4], m[1] === 'invalid'),
  },
  {
    re: /^(?:Connection (?:closed|reset) by|Disconnected from) (authenticating|invalid) user (.*) (\S+) port (\d+)(?: \[preauth\])?$/,
    fields: (m) => note('closed_preauth', m[3], m[2], m[4], m[1] === 'invalid'),
  },
  { re: /^Received disconnect from (\S+) port (\d+):\d+: .*\[preauth\]$/, fields: (m) => note('closed_preauth', m[1], undefined, m[2]) },
  { re: /^Did not receive identification string from (\S+)(?: port (\d+))?$/, fields: (m) => note('probe', m[1], undefined, m[2]) },
  { re: /^Connection (?:closed|reset) by (\S+) port (\d+)(?: \[preauth\])?$/, fields: (m) => note('probe', m[1], undefined, m[2]) },
  { re: /^banner exchange: Connection from (\S+) port (\d+): invalid format$/, fields: (m) => note('probe', m[1], undefined, m[2]) },
  { re: /^Unable to negotiate with (\S+) port (\d+): /, fields: (m) => note('probe', m[1], undefined, m[2]) },
  { re: /^Bad protocol version identification .* from (\S+)(?: port (\d+))?$/, fields: (m) => note('probe', m[1], undefined, m[2]) },
];

// sshd prefixes error-level messages with "error: " (9.x) and some builds not; both read the same.
const levelPrefix = /^(?:error|fatal|warning): /;
const repeated = /^message repeated (\d+) times: \[ ?(.*)\]$/;

/** The fields of one sshd message (no syslog prefix), or undefined when it says nothing we use. */
export function parseSshdMessage(message: string): ParsedFields | undefined {
  const r = repeated.exec(message);
  if (r) {
    const inner = parseSshdMessage(r[2]!);
    if (inner) inner.repeat = Number(r[1]);
    return inner;
  }
  const text = message.replace(levelPrefix, '');
  for (const rule of rules) {
    const m = rule.re.exec(text);
    if (m) return rule.fields(m);
  }
  return undefined;
}
