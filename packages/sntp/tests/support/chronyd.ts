// Test helper: Debian's chronyd as a real NTP server on loopback, never touching the host clock.
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * Installing the `chrony` package would remove systemd-timesyncd from the machine, so the test
 * setup (scripts/setup.sh test) only downloads and unpacks it into var/test-peers/chrony; an
 * installed chronyd is used when present. RAMPART_CHRONYD names another binary.
 */
const repo = join(import.meta.dirname, '../../../..');
const candidates = [process.env.RAMPART_CHRONYD, join(repo, 'var/test-peers/chrony/usr/sbin/chronyd'), '/usr/sbin/chronyd'];

export const chronydPath: string | null = candidates.find((c): c is string => !!c && existsSync(c)) ?? null;
export const chronydMissing = chronydPath
  ? ''
  : 'chronyd not found: run `bash scripts/setup.sh test` as root (it unpacks Debian chrony into var/test-peers/chrony) or set RAMPART_CHRONYD';

export interface Chronyd {
  port: number;
  stop(): Promise<void>;
}

/** A UDP port free on both loopbacks right now. */
async function freeUdpPort(): Promise<number> {
  for (;;) {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const { port } = socket.address();
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    const six = dgram.createSocket({ type: 'udp6', ipv6Only: true });
    const free = await new Promise<boolean>((resolve) => {
      six.once('error', () => resolve(false));
      six.bind(port, '::1', () => resolve(true));
    });
    await new Promise<void>((resolve) => six.close(() => resolve()));
    if (free) return port;
  }
}

/** Answers once chronyd replies to a client packet (it binds a moment after start). */
async function answering(port: number, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = dgram.createSocket('udp4');
      const timer = setTimeout(() => {
        socket.close();
        resolve(false);
      }, 200);
      socket.once('message', () => {
        clearTimeout(timer);
        socket.close();
        resolve(true);
      });
      const request = Buffer.alloc(48);
      request[0] = 0x23;
      request.writeUInt32BE(0xe000_0000, 40);
      socket.send(request, port, '127.0.0.1');
    });
    if (ok) return true;
  }
  return false;
}

/**
 * chronyd in the foreground on 127.0.0.1 and ::1 at a high port, serving its own clock at stratum 8:
 * `-x` never touches the system clock, `-u root` skips the `_chrony` user a bare unpack lacks,
 * `cmdport 0` opens no control socket; pid and drift files live in a temp dir.
 */
export async function startChronyd(): Promise<Chronyd> {
  if (!chronydPath) throw new Error(chronydMissing);
  const dir = mkdtempSync(join(tmpdir(), 'rampart-chronyd-'));
  const port = await freeUdpPort();
  const config = join(dir, 'chrony.conf');
  writeFileSync(config, [
    `port ${port}`, 'bindaddress 127.0.0.1', 'bindaddress ::1', 'local stratum 8', 'allow 127.0.0.1', 'allow ::1', 'cmdport 0',
    `pidfile ${join(dir, 'chronyd.pid')}`, `driftfile ${join(dir, 'drift')}`, '',
  ].join('\n'));
  const output: string[] = [];
  const proc: ChildProcess = spawn(chronydPath, ['-x', '-d', '-u', 'root', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  proc.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      await new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  if (!(await answering(port, Date.now() + 10_000))) {
    await stop();
    throw new Error(`chronyd did not answer on port ${port}:\n${output.join('')}`);
  }
  return { port, stop };
}
