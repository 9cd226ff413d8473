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
    const result = await querySntp({ host: '127.0.0.1', port: chronyd.port });
    expect(result.stratum).toBe(8);
    expect(Math.abs(result.offsetMs)).toBeLessThan(50);
    expect(result.delayMs).toBeLessThan(100);
    expect(Math.abs(result.time - Date.now())).toBeLessThan(100);
  });

  it('gets the time over IPv6 and through a host name', async () => {
    expect((await querySntp({ host: '::1', port: chronyd.port })).address).toBe('::1');
    expect((await querySntp({ host: 'localhost', port: chronyd.port })).host).toBe('localhost');
  });
});
