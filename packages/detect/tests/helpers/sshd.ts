// Test helper: a real OpenSSH server on a loopback port, with a throwaway host key and config,
// logging to a file with -E (bare messages, no syslog prefix).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from './wait.ts';

const run = promisify(execFile);

// sshd refuses to start without its privilege-separation folder (made by the Debian service at boot).
export const canRunSshd = process.getuid?.() === 0 && existsSync('/usr/sbin/sshd') && existsSync('/usr/bin/sshpass');

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export class TestSshd {
  readonly dir: string;
  readonly port: number;
  readonly log: string;
  readonly #proc: ChildProcess;

  private constructor(dir: string, port: number, proc: ChildProcess) {
    this.dir = dir;
    this.port = port;
    this.log = path.join(dir, 'sshd.log');
    this.#proc = proc;
  }

  static async start(dir: string): Promise<TestSshd> {
    mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    const port = await freePort();
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host_key')]);
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'client_key')]);
    writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(path.join(dir, 'client_key.pub')));
    writeFileSync(path.join(dir, 'askpass'), '#!/bin/sh\necho wrong-password\n', { mode: 0o755 });
    const config = [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${dir}/host_key`,
      `PidFile ${dir}/sshd.pid`,
      'UsePAM no',
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin yes',
      `AuthorizedKeysFile ${dir}/authorized_keys`,
      'StrictModes no',
      'LogLevel INFO',
    ];
    writeFileSync(path.join(dir, 'sshd_config'), config.join('\n') + '\n');
    const log = path.join(dir, 'sshd.log');
    const proc = spawn('/usr/sbin/sshd', ['-D', '-f', path.join(dir, 'sshd_config'), '-E', log], { stdio: 'ignore' });
    const sshd = new TestSshd(dir, port, proc);
    await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('Server listening'), 5000, 'sshd to listen');
    return sshd;
  }

  #clientOptions(): string[] {
    return ['-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR', '-p', String(this.port)];
  }

  /** One connection, one wrong password (sshpass answers the prompt once). */
  async wrongPassword(user: string): Promise<void> {
    await run('sshpass', ['-p', 'wrong', 'ssh', ...this.#clientOptions(), '-o', 'PubkeyAuthentication=no', `${user}@127.0.0.1`, 'true'], { timeout: 15_000 }).catch(() => {});
  }

  /** One connection, `attempts` wrong passwords (an askpass program answers every prompt). */
  async wrongPasswords(user: string, attempts: number): Promise<void> {
    const env = { ...process.env, SSH_ASKPASS: path.join(this.dir, 'askpass'), SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0' };
    const args = [...this.#clientOptions(), '-o', 'PubkeyAuthentication=no', '-o', `NumberOfPasswordPrompts=${attempts}`, `${user}@127.0.0.1`, 'true'];
    await run('ssh', args, { env, timeout: 30_000 }).catch(() => {});
  }

  async keyLogin(): Promise<void> {
    await run('ssh', [...this.#clientOptions(), '-o', 'BatchMode=yes', '-i', path.join(this.dir, 'client_key'), 'root@127.0.0.1', 'true'], { timeout: 15_000 });
  }

  async stop(): Promise<void> {
    if (this.#proc.exitCode !== null || this.#proc.signalCode !== null) return;
    const exited = new Promise((resolve) => this.#proc.once('exit', resolve));
    this.#proc.kill('SIGTERM');
    await exited;
  }
}
