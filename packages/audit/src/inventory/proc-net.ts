import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProcListeningSocket } from '@rampart/contracts';

/**
 * Listening sockets by inode, from /proc/net/{tcp,tcp6,udp,udp6} of the reader's network namespace:
 * TCP in state 0A (LISTEN), UDP bound with no peer (state 07). Processes in other namespaces
 * (containers) have sockets these tables do not list; they are read as having none.
 */
function hexAddress(hex: string): string {
  if (hex.length === 8) return [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
  // IPv6: four 32-bit words, each in host (little-endian) byte order.
  const bytes: string[] = [];
  for (let w = 0; w < 4; w++) {
    const word = hex.slice(w * 8, w * 8 + 8);
    for (let i = 3; i >= 0; i--) bytes.push(word.slice(i * 2, i * 2 + 2));
  }
  const groups = Array.from({ length: 8 }, (_, i) => parseInt(bytes[i * 2]! + bytes[i * 2 + 1]!, 16).toString(16));
  const text = groups.join(':');
  if (text === '0:0:0:0:0:0:0:0') return '::';
  if (text === '0:0:0:0:0:0:0:1') return '::1';
  if (text.startsWith('0:0:0:0:0:ffff:')) return `::ffff:${text.slice(15)}`;
  return text.replace(/(^|:)0(:0)+(:|$)/, '::');
}

export function parseProcNet(text: string, protocol: ProcListeningSocket['protocol']): Map<number, ProcListeningSocket> {
  const sockets = new Map<number, ProcListeningSocket>();
  for (const line of text.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 10) continue;
    const [localAddr, localPort] = (cols[1] ?? '').split(':');
    const remotePort = (cols[2] ?? '').split(':')[1];
    const state = cols[3];
    const inode = Number(cols[9]);
    const listening = protocol.startsWith('tcp') ? state === '0A' : state === '07' && remotePort === '0000';
    if (!listening || !inode || !localAddr || !localPort) continue;
    sockets.set(inode, { protocol, address: hexAddress(localAddr), port: parseInt(localPort, 16) });
  }
  return sockets;
}

export function readListeningSockets(procDir: string): Map<number, ProcListeningSocket> {
  const all = new Map<number, ProcListeningSocket>();
  for (const protocol of ['tcp', 'tcp6', 'udp', 'udp6'] as const) {
    let text = '';
    try {
      text = readFileSync(path.join(procDir, 'net', protocol), 'utf8');
    } catch {
      continue;
    }
    for (const [inode, socket] of parseProcNet(text, protocol)) all.set(inode, socket);
  }
  return all;
}
