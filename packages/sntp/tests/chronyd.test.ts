import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { querySntp } from '../src/index.ts';
import { chronydMissing, startChronyd, type Chronyd } from './support/chronyd.ts';

/* The client against Debian's chronyd on loopback (its own config; it never sets the clock). */
describe.skipIf(chronydMissing !== '')(`SNTP client against a real chronyd${chronydMissing ? ` (skipped: ${chronydMissing})` : ''}`, () => {
  let chronyd: Chronyd;
  beforeAll(async () => {
    chronyd = await startChronyd();
  });
  afterAll(() => chronyd?.stop());

  it('gets the time over IPv4: stratum 8 from the local reference, offset near zero (same clock)', async () => {
    const before = Date.now();
    const result = await querySntp({ host: '127.0.0.1', port: chronyd.port });
    const after = Date.now();
    expect(result.stratum).toBe(8);
    // chronyd reads the same clock, so the offset's only error is the round trip's asymmetry: at most
    // half the delay (+1 ms, Date.now()'s resolution). Fixed bounds (50 ms offset, 100 ms delay) fail
    // when a loaded machine stalls either process; these hold however slow the round trip was.
    const error = result.delayMs / 2 + 2;
    expect(Math.abs(result.offsetMs)).toBeLessThanOrEqual(error);
    expect(result.delayMs).toBeLessThanOrEqual(after - before + 1);
    expect(result.time).toBeGreaterThanOrEqual(before - error);
    expect(result.time).toBeLessThanOrEqual(after + error);
  });

  it('gets the time over IPv6 and through a host name', async () => {
    expect((await querySntp({ host: '::1', port: chronyd.port })).address).toBe('::1');
    expect((await querySntp({ host: 'localhost', port: chronyd.port })).host).toBe('localhost');
  });
});
