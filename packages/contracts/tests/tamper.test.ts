import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBroadProtectedPath, protectedPathSchema } from '../src/index.ts';

describe('isBroadProtectedPath', () => {
  it('takes / and the whole of /etc however the path is spelt', () => {
    const broad = ['/', '//', '/*', '//*', '/etc', '/etc/', '/etc/*', '//etc', '//etc/', '//etc/*', '/./etc', '/etc/../etc', '/etc/.', '/tmp/..', ' /etc ', '/e*', '/et*', '/etc*', '//e*', '/tmp/../e*'];
    for (const value of broad) expect(isBroadProtectedPath(value), value).toBe(true);
  });

  it('leaves narrower paths, other prefixes and what is no path at all', () => {
    const narrow = ['/etc/nginx', '//etc/nginx', '/etc/nginx/*', '/etc/n*', '/etcx*', '/f*', '/etc/.*', '/srv', '/var/www/*', '', 'etc', 'etc*', '*'];
    for (const value of narrow) expect(isBroadProtectedPath(value), value).toBe(false);
  });

  it('agrees with the guard’s normalisation for every valid spelling of a plain path', () => {
    // cleanPath in @rampart/guard is path.posix.normalize without the trailing slash.
    for (const value of ['//etc', '//etc/', '/etc/', '//', '/etc', '/etc/ssh', '//etc/ssh/']) {
      expect(protectedPathSchema.safeParse(value).success, value).toBe(true);
      const guardReads = path.posix.normalize(value).replace(/(.)\/+$/, '$1');
      expect(isBroadProtectedPath(value), value).toBe(guardReads === '/' || guardReads === '/etc');
    }
  });
});
