import { describe, expect, it } from 'vitest';
import { whitelistMatcher } from '../src/whitelist.ts';

describe('whitelist entries', () => {
  it('a full path trusts that file or everything under that folder, and nothing beside it', () => {
    const trusted = whitelistMatcher(['/var/www/site/cache/']);
    expect(trusted('/var/www/site/cache')).toBe(true);
    expect(trusted('/var/www/site/cache/a/b.php')).toBe(true);
    expect(trusted('/var/www/site/cache2/b.php')).toBe(false);
    expect(trusted('/var/www/site/index.php')).toBe(false);
  });

  it('a pattern that names a folder covers the files inside it, as the tree walk that skips the folder does', () => {
    const trusted = whitelistMatcher(['*/vendor', '/var/www/*.min.js']);
    expect(trusted('/var/www/site/vendor/composer/autoload.php')).toBe(true);
    expect(trusted('/var/www/site/vendor')).toBe(true);
    expect(trusted('/var/www/site/vendors/x.php')).toBe(false);
    expect(trusted('/var/www/site/my-vendor/x.php')).toBe(false);
    expect(trusted('/var/www/a/b/jquery.min.js')).toBe(true);
    expect(trusted('/var/www/a/b/jquery.js')).toBe(false);
  });

  it('an empty list trusts nothing', () => {
    expect(whitelistMatcher([])('/var/www/x.php')).toBe(false);
  });
});
