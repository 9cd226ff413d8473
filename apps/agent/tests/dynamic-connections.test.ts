import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { internalArea } from '@rampart/contracts';
import { readConnections, summarizeConnections } from '../src/dynamic/connections.ts';
import { dashboardAreaOf } from '../src/dynamic/dynamic-handlers.ts';
import { parseProcNetTcp, procAddress } from '../src/dynamic/proc-net-tcp.ts';

// Lines as the kernel writes them (header, then one socket per line; addresses little-endian hex).
const tcp = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1A0A 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1001 1 0000000000000000 100 0 0 10 0
   1: 0100007F:1A0A 0100007F:D4C2 01 00000000:00000000 00:00000000 00000000     0        0 1002 1 0000000000000000 20 4 30 10 -1
   2: 0A00000A:0016 08080808:C350 06 00000000:00000000 00:00000000 00000000     0        0 0 1 0000000000000000 20 4 30 10 -1
`;
const tcp6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue
   0: 00000000000000000000000001000000:0016 0000000000000000FFFF00000101A8C0:C350 01 00000000:00000000
   1: 00000000000000000000000000000000:0050 B80D0120000000000000000001000000:C351 08 00000000:00000000
`;

describe('dashboard connections', () => {
  it('reads kernel socket lines: state names and remote addresses, IPv4, IPv6 and mapped IPv4', () => {
    expect(procAddress('0100007F')).toBe('127.0.0.1');
    expect(procAddress('0000000000000000FFFF00000101A8C0')).toBe('192.168.1.1');
    expect(procAddress('B80D0120000000000000000001000000')).toBe('2001:db8::1');
    expect(parseProcNetTcp(tcp).map((s) => [s.state, s.remote])).toEqual([
      ['LISTEN', '0.0.0.0'], ['ESTABLISHED', '127.0.0.1'], ['TIME_WAIT', '8.8.8.8'],
    ]);
    const view = summarizeConnections([...parseProcNetTcp(tcp), ...parseProcNetTcp(tcp6)], (ip) => (ip === '8.8.8.8' ? 'US' : ip === '2001:db8::1' ? '' : internalArea));
    expect(view).toEqual({
      total: 5,
      states: [{ state: 'ESTABLISHED', count: 2 }, { state: 'CLOSE_WAIT', count: 1 }, { state: 'LISTEN', count: 1 }, { state: 'TIME_WAIT', count: 1 }],
      areas: [{ area: internalArea, count: 2 }, { area: '', count: 1 }, { area: 'US', count: 1 }],
    });
  });

  it('counts a real loopback connection from /proc as internal, and calls private addresses internal without geo data', async () => {
    const server = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => client.once('connect', resolve));
    try {
      const view = await readConnections(dashboardAreaOf(null));
      expect(view.states.find((s) => s.state === 'ESTABLISHED')?.count).toBeGreaterThanOrEqual(2);
      expect(view.areas.find((a) => a.area === internalArea)?.count).toBeGreaterThanOrEqual(2);
    } finally {
      client.destroy();
      server.close();
    }
    expect(dashboardAreaOf(null)('8.8.8.8')).toBe('');
  });
});
