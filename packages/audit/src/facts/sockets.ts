import type { Executor } from '../executor.ts';

/** Listening sockets from `ss -Hltnup`: protocol, address, port and the owning process names. */
export interface ListeningSocket {
  protocol: 'tcp' | 'udp';
  address: string;
  port: number;
  processes: string[];
}

/** Splits `addr:port`, `[v6]:port`, `*:port` and `addr%iface:port`. */
function splitAddress(local: string): { address: string; port: number } | null {
  const colon = local.lastIndexOf(':');
  if (colon < 0) return null;
  const port = Number(local.slice(colon + 1));
  if (!Number.isInteger(port)) return null;
  const address = local.slice(0, colon).replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  return { address, port };
}

export function parseSs(stdout: string): ListeningSocket[] {
  const sockets: ListeningSocket[] = [];
  for (const line of stdout.split('\n')) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 5 || cols[0] === 'Netid') continue;
    const protocol = cols[0] === 'tcp' ? 'tcp' : cols[0] === 'udp' ? 'udp' : null;
    const local = splitAddress(cols[4] ?? '');
    if (!protocol || !local) continue;
    const processes = [...line.matchAll(/\("([^"]+)",pid=/g)].map((m) => m[1] as string);
    sockets.push({ protocol, ...local, processes: [...new Set(processes)] });
  }
  return sockets;
}

export function isLoopback(address: string): boolean {
  return address.startsWith('127.') || address === '::1' || address === 'localhost';
}

export async function collectSockets(exec: Executor): Promise<ListeningSocket[]> {
  const result = await exec('ss', ['-Hltnup']);
  if (result.code !== 0) throw new Error(`ss -Hltnup: ${result.stderr.trim() || `exit ${result.code}`}`);
  return parseSs(result.stdout);
}
