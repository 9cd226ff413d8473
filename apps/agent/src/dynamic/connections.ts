import { readFile } from 'node:fs/promises';
import type { DynamicConnections } from '@rampart/contracts';
import { parseProcNetTcp, type TcpSocket } from './proc-net-tcp.ts';

const sources = ['/proc/net/tcp', '/proc/net/tcp6'];

/** Counts sockets by state, and connections (not listening sockets) by their remote address's area. */
export function summarizeConnections(sockets: readonly TcpSocket[], areaOf: (ip: string) => string): DynamicConnections {
  const states = new Map<string, number>();
  const areas = new Map<string, number>();
  for (const s of sockets) {
    states.set(s.state, (states.get(s.state) ?? 0) + 1);
    if (s.state === 'LISTEN' || s.remote === '') continue;
    const area = areaOf(s.remote);
    areas.set(area, (areas.get(area) ?? 0) + 1);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return {
    total: sockets.length,
    states: sorted(states).map(([state, count]) => ({ state, count })),
    areas: sorted(areas).map(([area, count]) => ({ area, count })),
  };
}

/** The host's TCP sockets (IPv4 and IPv6); a table the kernel lacks (no IPv6) counts as empty. */
export async function readConnections(areaOf: (ip: string) => string, files: readonly string[] = sources): Promise<DynamicConnections> {
  const texts = await Promise.all(files.map((file) => readFile(file, 'utf8').catch(() => '')));
  return summarizeConnections(texts.flatMap(parseProcNetTcp), areaOf);
}
