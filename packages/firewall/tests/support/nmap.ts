import type { LabNamespace } from './addresses.ts';
import type { Lab } from './lab.ts';
import { assertSucceeded } from './run.ts';

/** nmap's words for a port: open, closed, filtered, unfiltered, open|filtered, closed|filtered. */
export type NmapPortState = string;

export interface PortScanOptions {
  /** syn: -sS (raw SYN, the usual scanner); connect: -sT (full connects); udp: -sU. Default syn. */
  scan?: 'syn' | 'connect' | 'udp';
  /** Silence per port before nmap gives up; kept short because the links are local. Default 300 ms. */
  timeoutMs?: number;
  extraArgs?: readonly string[];
}

export interface PortScanResult {
  /** port → state, for every port asked about. */
  ports: Record<number, NmapPortState>;
  /** nmap's XML report, for a failing test to print. */
  xml: string;
}

const SCAN_FLAG = { syn: '-sS', connect: '-sT', udp: '-sU' } as const;

/** Runs nmap from `fromNs` against `host` and returns what it thinks of each port. */
export async function portScan(
  lab: Lab,
  fromNs: LabNamespace,
  host: string,
  ports: readonly number[],
  options: PortScanOptions = {},
): Promise<PortScanResult> {
  const timeout = `${options.timeoutMs ?? 300}ms`;
  const argv = [
    'nmap',
    SCAN_FLAG[options.scan ?? 'syn'],
    ...(host.includes(':') ? ['-6'] : []),
    '-Pn',
    '-n',
    '--max-retries',
    '0',
    // nmap's defaults assume the internet (1 s initial RTT timeout); on a veth that only slows filtered ports.
    '--initial-rtt-timeout',
    timeout,
    '--max-rtt-timeout',
    timeout,
    '-p',
    ports.join(','),
    '-oX',
    '-',
    ...(options.extraArgs ?? []),
    host,
  ];
  const { stdout } = assertSucceeded(await lab.exec(fromNs, argv, { timeoutMs: 60_000 }), 'nmap');
  return { ports: parsePorts(stdout), xml: stdout };
}

/**
 * Reads `<port portid="22"><state state="open"/>` entries and, because nmap folds a large group of
 * same-state ports into `<extraports state="closed"><extrareasons ports="1-40"/>`, those groups too.
 */
export function parsePorts(xml: string): Record<number, NmapPortState> {
  const ports: Record<number, NmapPortState> = {};
  for (const [, state = '', block = ''] of xml.matchAll(/<extraports state="([^"]+)"[^>]*>([\s\S]*?)<\/extraports>/g)) {
    for (const [, list = ''] of block.matchAll(/ports="([^"]+)"/g)) {
      for (const port of expandRanges(list)) ports[port] = state;
    }
  }
  for (const [, port, state = ''] of xml.matchAll(/<port protocol="\w+" portid="(\d+)"><state state="([^"]+)"/g)) {
    ports[Number(port)] = state;
  }
  return ports;
}

/** `1-3,7` → 1, 2, 3, 7. */
function expandRanges(list: string): number[] {
  return list.split(',').flatMap((part) => {
    const [from = NaN, to = from] = part.split('-').map(Number);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}
