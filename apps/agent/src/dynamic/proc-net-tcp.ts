import { tcpStates } from '@rampart/contracts';

/** One socket of /proc/net/tcp or tcp6: its state name and remote address. */
export interface TcpSocket {
  state: string;
  remote: string;
}

/** Kernel state numbers (include/net/tcp_states.h) are 1-based in the order of `tcpStates`. */
function stateName(hex: string): string {
  return tcpStates[parseInt(hex, 16) - 1] ?? 'UNKNOWN';
}

/** "0100007F" (IPv4, little-endian) or 32 hex digits (IPv6, four little-endian words) → address text. */
export function procAddress(hex: string): string {
  if (hex.length === 8) {
    const n = parseInt(hex, 16);
    return [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, n >>> 24].join('.');
  }
  if (hex.length !== 32) return '';
  const bytes: number[] = [];
  for (let w = 0; w < 4; w++) {
    const word = hex.slice(w * 8, w * 8 + 8);
    for (let b = 3; b >= 0; b--) bytes.push(parseInt(word.slice(b * 2, b * 2 + 2), 16));
  }
  // ::ffff:a.b.c.d reads as the IPv4 address it carries.
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255) return bytes.slice(12).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[i * 2]! << 8) | bytes[i * 2 + 1]!).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

/** The sockets of a /proc/net/tcp{,6} text (header line skipped, malformed lines ignored). */
export function parseProcNetTcp(text: string): TcpSocket[] {
  const out: TcpSocket[] = [];
  for (const line of text.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 4) continue;
    const remote = cols[2]!.split(':')[0] ?? '';
    out.push({ state: stateName(cols[3]!), remote: procAddress(remote) });
  }
  return out;
}
