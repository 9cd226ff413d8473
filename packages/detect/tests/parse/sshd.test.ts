import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSshdJournal, parseSshdMessage, parseSshdSyslog, type ParsedFields } from '../../src/index.ts';

process.env.TZ = 'UTC';

const now = Date.parse('2026-11-22T12:00:00Z');
const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/sshd/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean);

/**
 * auth.log written by rsyslog for a real OpenSSH 9.2 (scripts/capture-sshd.sh), three configurations
 * in turn, each receiving the same clients:
 *   nopam        (UsePAM no)
 *   pam-password (UsePAM yes, passwords only: Debian's default)
 *   pam-kbdint   (UsePAM yes, KbdInteractiveAuthentication yes)
 * and per configuration: sshpass as root (1 attempt), sshpass as an unknown user over IPv4 and IPv6
 * (1 each), a key login, root with 10 prompts allowed (sshd stops it at MaxAuthTries 6), an unknown
 * user with 3 prompts, then connections without authentication (reset, HTTP request, nmap -sV).
 */
const attemptsPerConnection = {
  nopam: [1, 1, 1, 6, 3],
  'pam-password': [1, 1, 1, 6, 3],
  // Three keyboard-interactive prompts, then ssh falls back to the password method for three more.
  'pam-kbdint': [1, 1, 1, 6, 6],
};

/** Counted failures per sshd process (one per connection), in order, for each configuration. */
function failuresByConnection(lines: string[]): Record<string, number[]> {
  const result: Record<string, number[]> = {};
  let mode = '';
  let perPid = new Map<number, number>();
  for (const line of lines) {
    const marker = /capture: === (\S+)/.exec(line);
    if (marker) {
      if (mode) result[mode] = [...perPid.values()];
      mode = marker[1]!;
      perPid = new Map();
      continue;
    }
    const parsed = parseSshdSyslog(line, now).parsed;
    if (parsed?.kind !== 'ssh_auth_failure') continue;
    const pid = Number(/sshd\[(\d+)\]/.exec(line)![1]);
    perPid.set(pid, (perPid.get(pid) ?? 0) + (parsed.repeat ?? 1));
  }
  result[mode] = [...perPid.values()];
  return result;
}

describe('sshd lines recorded from a real sshd', () => {
  for (const file of ['auth.log', 'auth-rfc3339.log']) {
    it(`${file}: exactly one counted failure per password attempt, with or without PAM`, () => {
      expect(failuresByConnection(fixture(file))).toEqual(attemptsPerConnection);
    });
  }

  it('every authentication line of the recording is recognised, only noise is not', () => {
    const unrecognised = fixture('auth.log')
      .filter((line) => parseSshdSyslog(line, now).skipped === 'unrecognised')
      .map((line) => line.replace(/^.*?sshd\[\d+\]: /, ''));
    for (const line of unrecognised) {
      expect(line).toMatch(
        /^(Server listening|Received signal|error: Could not get shadow|error: kex_exchange_identification|Postponed keyboard-interactive|pam_unix\(sshd:(session|auth\): check pass)|pam_limits|pam_env|pam_systemd|Received disconnect from .* disconnected by user|Disconnected from user|PAM service\(sshd\) ignoring max retries)/,
      );
    }
  });

  it('reads the kinds, addresses, users and times of the recording', () => {
    const kinds = new Map<string, number>();
    for (const line of fixture('auth.log')) {
      const p = parseSshdSyslog(line, now).parsed;
      if (p) kinds.set(p.note ?? p.kind, (kinds.get(p.note ?? p.kind) ?? 0) + 1);
    }
    expect(Object.fromEntries(kinds)).toEqual({
      ssh_auth_failure: 39,
      ssh_auth_success: 3,
      invalid_user: 9,
      closed_preauth: 11,
      failed_kbdint: 8,
      max_attempts: 4,
      too_many_failures: 4,
      pam_failure: 18,
      pam_summary: 3,
      probe: 9,
    });
    const ipv6 = fixture('auth.log').find((l) => l.includes('Failed password for invalid user nosuchuser from ::1'))!;
    expect(parseSshdSyslog(ipv6, now)).toMatchObject({
      parsed: { kind: 'ssh_auth_failure', ip: '::1', user: 'nosuchuser', invalidUser: true, authMethod: 'password' },
    });
    const rfc = fixture('auth-rfc3339.log').find((l) => l.includes('Accepted publickey'))!;
    const r = parseSshdSyslog(rfc, now);
    expect(r.parsed).toMatchObject({ kind: 'ssh_auth_success', authMethod: 'publickey', user: 'root', ip: '127.0.0.1' });
    expect(r.logTime).toBe(Date.parse(rfc.slice(0, 32)));
  });
});

describe('sshd messages', () => {
  const cases: [string, ParsedFields | undefined][] = [
    ['Failed password for root from 203.0.113.9 port 40022 ssh2', { kind: 'ssh_auth_failure', authMethod: 'password', user: 'root', invalidUser: false, ip: '203.0.113.9', port: 40022 }],
    [
      'Failed password for invalid user admin from 2001:DB8::7 port 1 ssh2',
      { kind: 'ssh_auth_failure', authMethod: 'password', user: 'admin', invalidUser: true, ip: '2001:db8::7', port: 1 },
    ],
    ['Failed password for root from ::ffff:203.0.113.9 port 2 ssh2', { kind: 'ssh_auth_failure', authMethod: 'password', user: 'root', invalidUser: false, ip: '203.0.113.9', port: 2 }],
    // A user name that reads like an address: the address is the one sshd wrote last.
    [
      'Failed password for invalid user x from 192.0.2.1 port 22 from 203.0.113.9 port 5 ssh2',
      { kind: 'ssh_auth_failure', authMethod: 'password', user: 'x from 192.0.2.1 port 22', invalidUser: true, ip: '203.0.113.9', port: 5 },
    ],
    ['Invalid user  from 203.0.113.9 port 3', { kind: 'ssh_notice', note: 'invalid_user', user: '', ip: '203.0.113.9', port: 3, invalidUser: true }],
    ['Invalid user oracle from 203.0.113.9', { kind: 'ssh_notice', note: 'invalid_user', user: 'oracle', ip: '203.0.113.9', invalidUser: true }],
    ['error: PAM: Authentication failure for illegal user test from 203.0.113.9', { kind: 'ssh_auth_failure', authMethod: 'keyboard-interactive/pam', user: 'test', invalidUser: true, ip: '203.0.113.9' }],
    // Older builds without the level prefix; a host name (UseDNS yes) leaves the failure without an address.
    ['PAM: Authentication failure for root from scanner.example.net', { kind: 'ssh_auth_failure', authMethod: 'keyboard-interactive/pam', user: 'root', invalidUser: false }],
    ['Failed keyboard-interactive/pam for root from 203.0.113.9 port 4 ssh2', { kind: 'ssh_notice', note: 'failed_kbdint', user: 'root', ip: '203.0.113.9', port: 4 }],
    ['Failed publickey for root from 203.0.113.9 port 4 ssh2: RSA SHA256:abc', { kind: 'ssh_notice', note: 'failed_other_method', user: 'root', ip: '203.0.113.9', port: 4 }],
    ['Failed none for invalid user guest from 203.0.113.9 port 4 ssh2', { kind: 'ssh_notice', note: 'failed_other_method', user: 'guest', ip: '203.0.113.9', port: 4, invalidUser: true }],
    [
      'pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost=203.0.113.9  user=root',
      { kind: 'ssh_notice', note: 'pam_failure', ip: '203.0.113.9', user: 'root' },
    ],
    ['PAM 2 more authentication failures; logname= uid=0 euid=0 tty=ssh ruser= rhost=203.0.113.9', { kind: 'ssh_notice', note: 'pam_summary', ip: '203.0.113.9' }],
    ['Did not receive identification string from 203.0.113.9 port 6', { kind: 'ssh_notice', note: 'probe', ip: '203.0.113.9', port: 6 }],
    ['Did not receive identification string from 203.0.113.9', { kind: 'ssh_notice', note: 'probe', ip: '203.0.113.9' }],
    ['Unable to negotiate with 203.0.113.9 port 7: no matching key exchange method found. Their offer: diffie-hellman-group1-sha1', { kind: 'ssh_notice', note: 'probe', ip: '203.0.113.9', port: 7 }],
    ['Connection closed by authenticating user root 203.0.113.9 port 8 [preauth]', { kind: 'ssh_notice', note: 'closed_preauth', ip: '203.0.113.9', port: 8, user: 'root' }],
    ['Disconnected from invalid user pi 203.0.113.9 port 8 [preauth]', { kind: 'ssh_notice', note: 'closed_preauth', ip: '203.0.113.9', port: 8, user: 'pi', invalidUser: true }],
    ['Received disconnect from 203.0.113.9 port 9:11: Bye Bye [preauth]', { kind: 'ssh_notice', note: 'closed_preauth', ip: '203.0.113.9', port: 9 }],
    [
      'error: maximum authentication attempts exceeded for invalid user a from 203.0.113.9 port 9 ssh2 [preauth]',
      { kind: 'ssh_notice', note: 'max_attempts', ip: '203.0.113.9', port: 9, user: 'a', invalidUser: true },
    ],
    ['Accepted password for deploy from 198.51.100.4 port 51000 ssh2', { kind: 'ssh_auth_success', authMethod: 'password', user: 'deploy', ip: '198.51.100.4', port: 51000 }],
    ['Accepted keyboard-interactive/pam for deploy from 198.51.100.4 port 1 ssh2', { kind: 'ssh_auth_success', authMethod: 'keyboard-interactive/pam', user: 'deploy', ip: '198.51.100.4', port: 1 }],
    ['Server listening on 0.0.0.0 port 22.', undefined],
    ['Failed password for root from not-an-address port 1 ssh2', { kind: 'ssh_auth_failure', authMethod: 'password', user: 'root', invalidUser: false, port: 1 }],
  ];
  for (const [message, expected] of cases) {
    it(message, () => {
      expect(parseSshdMessage(message)).toEqual(expected);
    });
  }

  it('reads rsyslog\'s "message repeated N times" as N attempts', () => {
    expect(parseSshdMessage('message repeated 5 times: [ Failed password for root from 203.0.113.9 port 40022 ssh2]')).toMatchObject({
      kind: 'ssh_auth_failure',
      ip: '203.0.113.9',
      repeat: 5,
    });
  });
});

describe('sshd line sources', () => {
  it('skips other programs in auth.log, and stamped lines without a program', () => {
    expect(parseSshdSyslog('Nov 22 01:02:03 h CRON[5]: pam_unix(cron:session): session opened', now)).toMatchObject({ skipped: 'other_program' });
    expect(parseSshdSyslog('Nov 22 01:02:03 h Failed password for root from 203.0.113.9 port 1 ssh2', now)).toMatchObject({ skipped: 'other_program' });
    expect(parseSshdSyslog('Feb 30 01:02:03 h sshd[1]: x', now)).toEqual({ skipped: 'malformed' });
  });

  it('reads journal entries by their identifier', () => {
    const entry = { time: 1, message: 'Failed password for root from 203.0.113.9 port 1 ssh2', raw: '{}' };
    expect(parseSshdJournal({ ...entry, identifier: 'sshd-session' })).toMatchObject({ parsed: { kind: 'ssh_auth_failure' }, logTime: 1 });
    expect(parseSshdJournal({ ...entry, identifier: 'sudo' })).toMatchObject({ skipped: 'other_program' });
  });
});
