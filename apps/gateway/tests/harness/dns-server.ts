import dgram from 'node:dgram';
import { isIP } from 'node:net';

/**
 * A tiny authoritative DNS server on loopback UDP for the fake-spider tests: answers PTR, A and
 * AAAA from a table, NXDOMAIN for names it does not know, no data for a known name without the
 * asked type, and nothing at all (the client times out) for names listed as silent.
 */
export interface DnsRecords {
  PTR?: string[];
  A?: string[];
  AAAA?: string[];
}

export interface TestDnsServer {
  port: number;
  /** Queries seen, as `TYPE name`. */
  queries: string[];
  close(): Promise<void>;
}

const types: Record<number, keyof DnsRecords> = { 12: 'PTR', 1: 'A', 28: 'AAAA' };

/** The reverse-lookup name of an address (d.c.b.a.in-addr.arpa, or nibbles.ip6.arpa). */
export function reverseName(ip: string): string {
  if (isIP(ip) === 4) return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  return [...ipv6Bytes(ip)].flatMap((b) => [b >> 4, b & 15]).reverse().map((n) => n.toString(16)).join('.') + '.ip6.arpa';
}

export async function startDnsServer(records: Record<string, DnsRecords>, silent: readonly string[] = []): Promise<TestDnsServer> {
  const table = new Map(Object.entries(records).map(([name, r]) => [name.toLowerCase(), r]));
  const mute = new Set(silent.map((s) => s.toLowerCase()));
  const queries: string[] = [];
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, from) => {
    const question = readName(msg, 12);
    if (!question) return;
    const qtype = msg.readUInt16BE(question.end);
    const name = question.name.toLowerCase();
    const type = types[qtype];
    queries.push(`${type ?? qtype} ${name}`);
    if (mute.has(name)) return;
    const entry = table.get(name);
    const answers = entry && type ? (entry[type] ?? []) : [];
    const head = Buffer.alloc(12);
    msg.copy(head, 0, 0, 2);
    head.writeUInt16BE(0x8400 | 0x0100 | (entry ? 0 : 3), 2); // QR, AA, RD echoed; NXDOMAIN when unknown
    head.writeUInt16BE(1, 4);
    head.writeUInt16BE(answers.length, 6);
    const parts: Buffer[] = [head, msg.subarray(12, question.end + 4)];
    for (const value of answers) {
      const data = type === 'PTR' ? encodeName(value) : type === 'A' ? Buffer.from(value.split('.').map(Number)) : ipv6Bytes(value);
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0);
      rr.writeUInt16BE(qtype, 2);
      rr.writeUInt16BE(1, 4);
      rr.writeUInt32BE(300, 6);
      rr.writeUInt16BE(data.length, 10);
      parts.push(rr, data);
    }
    socket.send(Buffer.concat(parts), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    queries,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

function readName(msg: Buffer, at: number): { name: string; end: number } | null {
  const labels: string[] = [];
  while (at < msg.length) {
    const len = msg[at]!;
    if (len === 0) return { name: labels.join('.'), end: at + 1 };
    if (len > 63) return null;
    labels.push(msg.toString('latin1', at + 1, at + 1 + len));
    at += 1 + len;
  }
  return null;
}

function encodeName(name: string): Buffer {
  const parts = name.replace(/\.$/, '').split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, 'latin1')]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function ipv6Bytes(ip: string): Buffer {
  const [head = '', tail = ''] = ip.includes('::') ? ip.split('::') : [ip, ''];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}
