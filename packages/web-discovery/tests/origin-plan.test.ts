import { describe, expect, it } from 'vitest';
import { listeningPorts, planOrigins, type CandidateSite } from '../src/index.ts';

/* The origin a found site is offered with, and the move of the web server it needs. */

const site = (name: string, listen: CandidateSite['listen'], proxyPass?: string[]): CandidateSite => ({
  server: 'nginx', name, serverNames: [name], listen, file: '/etc/nginx/sites-enabled/default', line: 1, ...(proxyPass ? { proxyPass } : {}),
});
const reachable = (url: string) => !url.includes('backend_pool');

describe('planOrigins', () => {
  it('moves a site that serves its own pages to a free loopback port, never its own listener', () => {
    const [plan] = planOrigins([site('www.example.com', [{ address: undefined, port: 80, tls: false }])], { busyPorts: new Set([22, 80, 8080]), reachable });
    expect(plan).toEqual({ upstream: 'http://127.0.0.1:8081', move: { from: '0.0.0.0:80', to: '127.0.0.1:8081', tls: false } });
  });

  it('keeps the origin of a site that already proxies, unless it proxies to itself or to a name the gateway cannot resolve', () => {
    const plans = planOrigins(
      [
        site('app.example.com', [{ address: '0.0.0.0', port: 80, tls: false }], ['http://127.0.0.1:3000']),
        site('loop.example.com', [{ address: '0.0.0.0', port: 81, tls: false }], ['http://127.0.0.1:81']),
        site('pool.example.com', [{ address: '0.0.0.0', port: 82, tls: false }], ['http://backend_pool']),
      ],
      { busyPorts: new Set(), reachable },
    );
    expect(plans[0]).toEqual({ upstream: 'http://127.0.0.1:3000', move: null });
    expect(plans[1]!.move).toEqual({ from: '0.0.0.0:81', to: '127.0.0.1:8080', tls: false });
    expect(plans[2]!.move).toEqual({ from: '0.0.0.0:82', to: '127.0.0.1:8081', tls: false });
  });

  it('moves name-based virtual hosts sharing a listener to one port, and skips every port the found sites use', () => {
    const plans = planOrigins(
      [
        site('a.example.com', [{ address: undefined, port: 80, tls: false }]),
        site('b.example.com', [{ address: undefined, port: 80, tls: false }]),
        site('c.example.com', [{ address: '0.0.0.0', port: 443, tls: true }, { address: '0.0.0.0', port: 8080, tls: false }]),
      ],
      { busyPorts: new Set(), reachable },
    );
    expect(plans.map((p) => p.upstream)).toEqual(['http://127.0.0.1:8081', 'http://127.0.0.1:8081', 'http://127.0.0.1:8082']);
    // An HTTPS listener: the gateway serves the certificate, the web server answers plain HTTP on loopback.
    expect(plans[2]!.move).toEqual({ from: '0.0.0.0:443', to: '127.0.0.1:8082', tls: true });
  });
});

describe('listeningPorts', () => {
  it('reads the LISTEN sockets of /proc/net/tcp and tcp6, not the connected ones', () => {
    const tcp = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 00000000:0050 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1234 1 0000000000000000 100 0 0 10 0',
      '   1: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1235 1 0000000000000000 100 0 0 10 0',
      '   2: 0100007F:C350 0100007F:0050 01 00000000:00000000 00:00000000 00000000     0        0 1236 1 0000000000000000 20 4 30 10 -1',
    ].join('\n');
    const tcp6 = [
      '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 00000000000000000000000000000000:01BB 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 99 1 0000000000000000 100 0 0 10 0',
    ].join('\n');
    expect([...listeningPorts(tcp)]).toEqual([80, 8080]);
    expect([...listeningPorts(tcp6)]).toEqual([443]);
    expect(listeningPorts('')).toEqual(new Set());
  });
});
