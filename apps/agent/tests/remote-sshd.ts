import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LabNamespace } from '../../../packages/firewall/tests/support/addresses.ts';
import type { Lab } from '../../../packages/firewall/tests/support/lab.ts';
import { assertSucceeded, run } from '../../../packages/firewall/tests/support/run.ts';

/*
 * A real sshd in a lab namespace that lets root in with a throwaway key (an accepted login without
 * touching the host's accounts: the authorized key lives in the temp dir), and an ssh client.
 * sshd needs /run/sshd: as in the firewall's helper, a private tmpfs /run inside `ip netns exec`.
 */

const WITH_PRIVSEP_DIR = 'if [ ! -d /run/sshd ]; then mount -t tmpfs -o mode=0755 tmpfs /run && mkdir -m 0755 /run/sshd; fi; exec "$@"';

export interface KeySshd {
  port: number;
  logFile: string;
  clientKey: string;
  /** Its sshd_config: a test may edit it (sshd -T reads it again) and start another sshd on it. */
  config: string;
  /** argv of `sshd -T` with this config, inside the namespace: what the agent reads the port from. */
  effectiveCommand: string[];
  log(): Promise<string>;
}

/** Another sshd on `config` (as edited by the test), in `ns`; it goes with the lab. */
export async function startAnotherSshd(lab: Lab, ns: LabNamespace, config: string, logFile: string): Promise<void> {
  await writeFile(logFile, '');
  lab.spawn(ns, ['sh', '-c', WITH_PRIVSEP_DIR, 'sshd', '/usr/sbin/sshd', '-D', '-E', logFile, '-f', config], { stdio: 'ignore' });
  const deadline = Date.now() + 5000;
  while (!/Server listening on/.test(await readFile(logFile, 'utf8'))) {
    if (Date.now() > deadline) throw new Error(`sshd did not start:\n${await readFile(logFile, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function startKeySshd(lab: Lab, ns: LabNamespace, port: number): Promise<KeySshd> {
  const dir = await mkdtemp(join(tmpdir(), 'rampart-remote-sshd-'));
  lab.onDestroy(() => rm(dir, { recursive: true, force: true }));
  const hostKey = join(dir, 'host_key');
  const clientKey = join(dir, 'client_key');
  const config = join(dir, 'sshd_config');
  const logFile = join(dir, 'sshd.log');
  assertSucceeded(await run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f', hostKey]), 'ssh-keygen host');
  assertSucceeded(await run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f', clientKey]), 'ssh-keygen client');
  await writeFile(join(dir, 'authorized_keys'), await readFile(`${clientKey}.pub`));
  await writeFile(
    config,
    `${[
      `Port ${port}`,
      'ListenAddress 0.0.0.0',
      `HostKey ${hostKey}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'PubkeyAuthentication yes',
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'UsePAM no',
      'StrictModes no',
      'UseDNS no',
      'LogLevel INFO',
    ].join('\n')}\n`,
  );
  await writeFile(logFile, '');
  lab.spawn(ns, ['sh', '-c', WITH_PRIVSEP_DIR, 'sshd', '/usr/sbin/sshd', '-D', '-E', logFile, '-f', config], { stdio: 'ignore' });
  const log = async () => (await readFile(logFile, 'utf8')).replaceAll('\r\n', '\n');
  const deadline = Date.now() + 5000;
  while (!/Server listening on/.test(await log())) {
    if (Date.now() > deadline) throw new Error(`sshd did not start:\n${await log()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    port,
    logFile,
    clientKey,
    config,
    effectiveCommand: ['ip', 'netns', 'exec', lab.names[ns], 'sh', '-c', WITH_PRIVSEP_DIR, 'sshd', '/usr/sbin/sshd', '-T', '-f', config],
    log,
  };
}

/** One key login as root running `true`; true when it got in (exit 0). A dropped SYN times out after 2 s. */
export async function keyLogin(lab: Lab, from: LabNamespace, host: string, sshd: KeySshd): Promise<boolean> {
  const argv = [
    'ssh', '-F', 'none', '-i', sshd.clientKey, '-o', 'BatchMode=yes', '-o', 'LogLevel=ERROR',
    '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'ConnectTimeout=2',
    '-p', String(sshd.port), `root@${host}`, 'true',
  ];
  const result = await lab.exec(from, argv, { timeoutMs: 10_000 });
  return result.code === 0;
}
