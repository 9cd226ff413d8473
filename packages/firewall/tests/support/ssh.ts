import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LabNamespace } from './addresses.ts';
import type { Lab } from './lab.ts';
import { assertSucceeded, run, type RunResult } from './run.ts';

/*
 * What sshd (OpenSSH 9.2, LogLevel INFO) writes to the -E file: bare messages ending in \r\n, no
 * timestamp and no "sshd[pid]:" prefix as syslog would add. One failed attempt from failedLogins() gives:
 *
 *   Server listening on :: port 2222.                      (twice at start: :: and 0.0.0.0)
 *   Failed password for root from 10.77.1.2 port 45618 ssh2
 *   Connection closed by authenticating user root 10.77.1.2 port 45618 [preauth]
 *
 * and for a user that does not exist:
 *
 *   Invalid user nosuchuser from 10.77.1.2 port 45630
 *   Could not get shadow information for NOUSER
 *   Failed password for invalid user nosuchuser from 10.77.1.2 port 45630 ssh2
 *   Connection closed by invalid user nosuchuser 10.77.1.2 port 45630 [preauth]
 *
 * IPv6 clients appear as e.g. "from fd77:1::2 port 40022". "Failed password" is written before
 * the client hears no; the "Connection closed" line can land just after failedLogins() returns,
 * so read the log with waitForLog.
 */

export interface SshdOptions {
  port: number;
  /** Where sshd writes its log (-E); defaults to sshd.log in its temp dir. */
  logFile?: string;
  maxAuthTries?: number;
}

export interface Sshd {
  port: number;
  logFile: string;
  /** The log so far, with sshd's \r\n line ends made \n. */
  log(): Promise<string>;
  /** Waits until the log has `count` lines matching `pattern`; returns those lines. */
  waitForLog(pattern: RegExp, count: number, timeoutMs?: number): Promise<string[]>;
}

/**
 * sshd insists on its privilege-separation dir /run/sshd. Where the host has none, sshd gets a
 * private tmpfs /run holding one: `ip netns exec` gives each command its own (slave) mount
 * namespace, so the host's /run is not touched.
 */
const WITH_PRIVSEP_DIR =
  'if [ ! -d /run/sshd ]; then mount -t tmpfs -o mode=0755 tmpfs /run && mkdir -m 0755 /run/sshd; fi; exec "$@"';

/** A real sshd inside `ns` with a throwaway host key and config; it goes with the lab. */
export async function startSshd(lab: Lab, ns: LabNamespace, options: SshdOptions): Promise<Sshd> {
  const dir = await mkdtemp(join(tmpdir(), 'rampart-lab-sshd-'));
  lab.onDestroy(() => rm(dir, { recursive: true, force: true }));
  const logFile = options.logFile ?? join(dir, 'sshd.log');
  const config = join(dir, 'sshd_config');
  const hostKey = join(dir, 'host_ed25519_key');
  assertSucceeded(await run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f', hostKey]), 'ssh-keygen');
  await writeFile(config, sshdConfig({ port: options.port, hostKey, pidFile: join(dir, 'sshd.pid'), maxAuthTries: options.maxAuthTries ?? 6 }));
  await writeFile(logFile, '', { flag: 'a' });

  const child = lab.spawn(ns, ['sh', '-c', WITH_PRIVSEP_DIR, 'sshd', '/usr/sbin/sshd', '-D', '-E', logFile, '-f', config], {
    stdio: 'ignore',
  });
  let exit: string | undefined;
  child.once('exit', (code, signal) => (exit = `sshd exited (${signal ?? code})`));
  child.once('error', (error) => (exit = String(error)));

  const log = async () => (await readFile(logFile, 'utf8')).replaceAll('\r\n', '\n');
  const waitForLog = async (pattern: RegExp, count: number, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const lines = (await log()).split('\n').filter((line) => pattern.test(line));
      if (lines.length >= count) return lines;
      if (exit || Date.now() > deadline) {
        throw new Error(`${exit ?? 'timed out'}: wanted ${count} × ${pattern}, log:\n${await log()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await waitForLog(/^Server listening on /, 2);
  return { port: options.port, logFile, log, waitForLog };
}

function sshdConfig(o: { port: number; hostKey: string; pidFile: string; maxAuthTries: number }): string {
  return `${[
    `Port ${o.port}`,
    'ListenAddress 0.0.0.0',
    'ListenAddress ::',
    `HostKey ${o.hostKey}`,
    `PidFile ${o.pidFile}`,
    'PasswordAuthentication yes',
    'KbdInteractiveAuthentication no',
    'PubkeyAuthentication no',
    // Without PAM, sshd checks passwords against /etc/shadow itself: no PAM stack needed in tests.
    'UsePAM no',
    `MaxAuthTries ${o.maxAuthTries}`,
    'LogLevel INFO',
    // The temp dir's permissions are not sshd's business here.
    'StrictModes no',
    'UseDNS no',
  ].join('\n')}\n`;
}

/**
 * `count` password logins with a wrong password, one after another, from `fromNs` (~130 ms each).
 * Each run is one attempt (NumberOfPasswordPrompts=1); ssh exits 255 ("Permission denied").
 */
export async function failedLogins(
  lab: Lab,
  fromNs: LabNamespace,
  host: string,
  port: number,
  count: number,
  user = 'root',
): Promise<RunResult[]> {
  const argv = [
    'sshpass', '-p', 'wrong',
    'ssh', '-F', 'none', '-o', 'LogLevel=ERROR',
    '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null',
    '-o', 'PreferredAuthentications=password', '-o', 'NumberOfPasswordPrompts=1',
    '-o', 'ConnectTimeout=3', '-p', String(port), `${user}@${host}`, 'true',
  ];
  const results: RunResult[] = [];
  for (let i = 0; i < count; i++) results.push(await lab.exec(fromNs, argv, { timeoutMs: 10_000 }));
  return results;
}
