import { spawn } from 'node:child_process';
import type { SshdReading } from '@rampart/contracts';

/* sshd's effective settings from `sshd -T`: the ports remote protection guards come from here. */

/** Parses `sshd -T` output: listening ports (from `listenaddress`, else `port`), password login, root login. */
export function parseSshdEffective(text: string): Omit<SshdReading, 'ok' | 'message'> {
  const ports = new Set<number>();
  const listenPorts = new Set<number>();
  let password: boolean | null = null;
  let root: string | null = null;
  for (const line of text.split('\n')) {
    const [key = '', ...rest] = line.trim().split(/\s+/);
    const value = rest.join(' ');
    if (key === 'port' && /^\d+$/.test(value)) ports.add(Number(value));
    if (key === 'listenaddress') {
      const match = /:(\d+)$/.exec(value);
      if (match) listenPorts.add(Number(match[1]));
    }
    if (key === 'passwordauthentication') password = value === 'yes';
    if (key === 'permitrootlogin') root = value;
  }
  const chosen = listenPorts.size > 0 ? listenPorts : ports;
  return { ports: [...chosen].filter((port) => port >= 1 && port <= 65535).sort((a, b) => a - b), password_authentication: password, permit_root_login: root };
}

const defaultArgv = ['/usr/sbin/sshd', '-T'];

/**
 * sshd -T refuses to run without /run/sshd, which exists only while the ssh service runs. Then it
 * runs again in a private mount namespace with its own empty /run (the host's is not touched).
 */
const withPrivsepDir = ['unshare', '-m', 'sh', '-c', 'mount -t tmpfs -o mode=0755 tmpfs /run && mkdir -m 0755 /run/sshd && exec "$@"', 'sshd'];

/** Runs `sshd -T` (argv given: tests run it inside a namespace with their own config). Never throws. */
export async function readSshd(argv: readonly string[] = defaultArgv, timeoutMs = 5_000): Promise<SshdReading> {
  const first = await runSshdT(argv, timeoutMs);
  if (first.ok || !/privilege separation directory/i.test(first.message)) return first;
  const second = await runSshdT([...withPrivsepDir, ...argv], timeoutMs);
  return second.ok ? second : first;
}

function runSshdT(argv: readonly string[], timeoutMs: number): Promise<SshdReading> {
  return new Promise((resolve) => {
    const [command = 'sshd', ...args] = argv;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const fail = (message: string) => resolve({ ok: false, ports: [], password_authentication: null, permit_root_login: null, message: message.slice(0, 300) });
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(`cannot run sshd: ${error.message}`);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return fail(Buffer.concat(err).toString('utf8').trim() || `sshd -T exited with ${code}`);
      resolve({ ok: true, ...parseSshdEffective(Buffer.concat(out).toString('utf8')), message: '' });
    });
  });
}
