import { describe, expect, it } from 'vitest';
import { parseOsRelease, prettyOsName } from '../src/index.ts';
import { fixture } from './fixtures.ts';

describe('parseOsRelease', () => {
  it('reads PRETTY_NAME and unquotes values', () => {
    const fields = parseOsRelease(fixture('os-release-debian.txt'));
    expect(fields.PRETTY_NAME).toBe('Debian GNU/Linux 12 (bookworm)');
    expect(fields.VERSION_CODENAME).toBe('bookworm');
    expect(prettyOsName(fields, 'x')).toBe('Debian GNU/Linux 12 (bookworm)');
  });

  it('skips comments and junk, undoes escapes, falls back to NAME VERSION', () => {
    const fields = parseOsRelease(fixture('os-release-odd.txt'));
    expect(fields).toEqual({ NAME: 'Odd Linux', VERSION: '1.0 "quoted" $HOME', ID: 'odd' });
    expect(prettyOsName(fields, 'x')).toBe('Odd Linux 1.0 "quoted" $HOME');
    expect(prettyOsName({}, 'Linux 6.1')).toBe('Linux 6.1');
  });
});
