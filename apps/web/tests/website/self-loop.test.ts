import { describe, expect, it } from 'vitest';
import { originOnOwnListener } from '../../src/pages/website/selfLoop.ts';

const site = (listen: [string, number][], upstreams: string[]) => ({ listen: listen.map(([address, port]) => ({ address, port, tls: false })), upstreams });

describe('an origin that is the site\'s own listener', () => {
  it('finds loopback origins on a port the site listens on everywhere or on loopback', () => {
    expect(originOnOwnListener(site([['0.0.0.0', 80]], ['http://127.0.0.1']))).toBe('http://127.0.0.1');
    expect(originOnOwnListener(site([['::', 8080]], ['http://localhost:8080']))).toBe('http://localhost:8080');
    expect(originOnOwnListener(site([['127.0.0.1', 443]], ['https://127.0.0.2']))).toBe('https://127.0.0.2');
    expect(originOnOwnListener(site([['0.0.0.0', 80]], ['http://10.0.0.5:80', 'http://[::1]:80']))).toBe('http://[::1]:80');
    expect(originOnOwnListener(site([['192.0.2.10', 80]], ['http://192.0.2.10:80']))).toBe('http://192.0.2.10:80');
  });

  it('lets other ports, other hosts and a specific listener address with a loopback origin through', () => {
    expect(originOnOwnListener(site([['0.0.0.0', 80]], ['http://127.0.0.1:8080']))).toBeNull();
    expect(originOnOwnListener(site([['0.0.0.0', 80]], ['http://10.0.0.5']))).toBeNull();
    expect(originOnOwnListener(site([['192.0.2.10', 80]], ['http://127.0.0.1:80']))).toBeNull();
    expect(originOnOwnListener(site([['0.0.0.0', 443]], ['http://127.0.0.1']))).toBeNull();
  });
});
