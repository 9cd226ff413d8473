// Test helper: a real rsyslogd in the foreground with its own config, writing what it parsed as JSON lines.
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Input {
  transport: 'udp' | 'tcp';
  address: string;
  port: number;
}

/** One message as rsyslog parsed it. Strings are rsyslog's bytes read as latin1; `msgBytes` gives MSG back as bytes. */
export interface Received {
  input: string;
  hostname: string;
  appName: string;
  procId: string;
  msgId: string;
  structuredData: string;
  msg: string;
  msgBytes: Buffer;
  facility: string;
  severity: string;
  time: string;
  version: string;
  tag: string;
}

export const inputName = (i: Input): string => `${i.transport}-${i.address}`;

/** A port nothing listens on right now: bind port 0, note it, let go. */
export async function freePort(transport: 'udp' | 'tcp', address: string): Promise<number> {
  if (transport === 'tcp') {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }
  const socket = dgram.createSocket(net.isIPv6(address) ? 'udp6' : 'udp4');
  await new Promise<void>((resolve) => socket.bind(0, address, resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}

const fields: [string, string, string?][] = [
  ['input', 'inputname'],
  ['hostname', 'hostname'],
  ['appName', 'app-name'],
  ['procId', 'procid'],
  ['msgId', 'msgid'],
  ['structuredData', 'structured-data'],
  ['msg', 'msg'],
  ['facility', 'syslogfacility'],
  ['severity', 'syslogseverity'],
  ['time', 'timereported', 'rfc3339'],
  ['version', 'protocol-version'],
  ['tag', 'syslogtag'],
];

function config(dir: string, inputs: readonly Input[]): string {
  const properties = fields.map(([out, name, date]) => `  property(outname="${out}" name="${name}"${date ? ` dateFormat="${date}"` : ''} format="jsonf")`);
  return [
    // Rampart caps MSG at 8 KiB; rsyslog's default limit (8 KiB for the whole message) would cut the header's share.
    `global(workDirectory="${dir}" maxMessageSize="64k")`,
    'module(load="imudp")',
    'module(load="imtcp")',
    ...inputs.map((i) => `input(type="im${i.transport}" name="${inputName(i)}" address="${i.address}" port="${i.port}")`),
    'template(name="parsed" type="list" option.jsonf="on") {',
    ...properties,
    '}',
    `action(type="omfile" file="${join(dir, 'out.jsonl')}" template="parsed")`,
    '',
  ].join('\n');
}

export class Rsyslog {
  readonly inputs: readonly Input[];
  readonly #dir: string;
  readonly #child: ChildProcess;
  #stderr = '';

  private constructor(dir: string, inputs: readonly Input[], child: ChildProcess) {
    this.#dir = dir;
    this.inputs = inputs;
    this.#child = child;
    child.stderr?.on('data', (chunk: Buffer) => void (this.#stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => void (this.#stderr += chunk.toString()));
  }

  /** Starts rsyslogd and waits until a probe sent to each input has been written out. */
  static async start(inputs: readonly Input[], timeZone: string): Promise<Rsyslog> {
    const dir = mkdtempSync(join(tmpdir(), 'rampart-rsyslog-'));
    writeFileSync(join(dir, 'rsyslog.conf'), config(dir, inputs));
    writeFileSync(join(dir, 'out.jsonl'), '');
    const child = spawn('/usr/sbin/rsyslogd', ['-n', '-f', join(dir, 'rsyslog.conf'), '-i', join(dir, 'rsyslogd.pid')], {
      env: { ...process.env, TZ: timeZone },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const rsyslog = new Rsyslog(dir, inputs, child);
    try {
      await rsyslog.#probe();
    } catch (error) {
      await rsyslog.stop();
      throw error;
    }
    return rsyslog;
  }

  async #probe(): Promise<void> {
    const deadline = Date.now() + 15_000;
    const waiting = new Set(this.inputs.map(inputName));
    while (waiting.size > 0) {
      if (this.#child.exitCode !== null) throw new Error(`rsyslogd exited (${this.#child.exitCode}): ${this.#stderr}`);
      if (Date.now() > deadline) throw new Error(`rsyslogd not ready on ${[...waiting].join(', ')}: ${this.#stderr}`);
      await Promise.all(this.inputs.filter((i) => waiting.has(inputName(i))).map((i) => probe(i)));
      await sleep(100);
      for (const r of this.received()) if (r.msg === `probe ${r.input}`) waiting.delete(r.input);
    }
  }

  received(): Received[] {
    const raw = readFileSync(join(this.#dir, 'out.jsonl'));
    const lines: Received[] = [];
    let start = 0;
    for (let end = raw.indexOf(0x0a); end >= 0; start = end + 1, end = raw.indexOf(0x0a, start)) {
      // latin1 maps bytes to characters one to one, so GBK or Big5 bytes survive JSON.parse untouched.
      const record = JSON.parse(raw.subarray(start, end).toString('latin1')) as Omit<Received, 'msgBytes'>;
      lines.push({ ...record, msgBytes: Buffer.from(record.msg, 'latin1') });
    }
    return lines;
  }

  /** Polls the output until `count` records satisfy `match`. */
  async waitFor(match: (r: Received) => boolean, count = 1, timeoutMs = 10_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received().filter(match);
      if (found.length >= count || Date.now() > deadline) return found;
      await sleep(50);
    }
  }

  async stop(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) {
      const exited = new Promise((resolve) => this.#child.once('exit', resolve));
      this.#child.kill('SIGTERM');
      const timer = setTimeout(() => this.#child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends `probe <input>` with plain sockets (not the code under test); errors mean "not yet". */
async function probe(input: Input): Promise<void> {
  const message = Buffer.from(`<134>1 - probe probe - - - probe ${inputName(input)}`);
  if (input.transport === 'udp') {
    const socket = dgram.createSocket(net.isIPv6(input.address) ? 'udp6' : 'udp4');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.send(message, input.port, input.address, () => resolve()));
    socket.close();
    return;
  }
  await new Promise<void>((resolve) => {
    const socket = net.connect(input.port, input.address, () => socket.end(Buffer.concat([Buffer.from(`${message.length} `), message])));
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
  });
}
