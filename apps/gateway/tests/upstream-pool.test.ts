import { describe, expect, it } from 'vitest';
import { UpstreamPool } from '../src/upstream-pool.ts';

describe('UpstreamPool', () => {
  it('goes round robin and skips a failed origin until its pause is over', () => {
    const pool = new UpstreamPool(['http://127.0.0.1:1', 'http://127.0.0.1:2', 'http://127.0.0.1:3'], 10_000, 1000);
    const ports = (now: number, n: number) => Array.from({ length: n }, () => pool.pick(now)?.url.port);
    expect(ports(0, 4)).toEqual(['1', '2', '3', '1']);
    pool.markFailed(pool.upstreams[1]!, 1000);
    expect(ports(2000, 4)).toEqual(['3', '1', '3', '1']);
    expect(ports(11_001, 3)).toContain('2');
    pool.destroy();
  });
  it('still offers the least recently failed origin when all are down', () => {
    const pool = new UpstreamPool(['http://127.0.0.1:1', 'http://127.0.0.1:2'], 10_000, 1000);
    pool.markFailed(pool.upstreams[0]!, 5000);
    pool.markFailed(pool.upstreams[1]!, 1000);
    expect(pool.pick(6000)?.url.port).toBe('2');
    expect(pool.pick(6000, new Set([pool.upstreams[1]!]))?.url.port).toBe('1');
    pool.destroy();
  });
});
