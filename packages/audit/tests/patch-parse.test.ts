import { describe, expect, it } from 'vitest';
import { isLockFailure, isPermissionFailure, parseChangelogHead, parseGetLine, parsePackageMeta, parseRelease, parseSimulate, parseStatusLine, patchLevel, releaseKeys } from '../src/index.ts';

/* The pure readers of apt's text, on lines as Debian 12's apt 2.6 prints them. */

describe('patch parsers', () => {
  it('reads apt-get -s dist-upgrade: upgrades, new installs, several origins, multi-arch names', () => {
    const out = [
      'Inst libssl3 [3.0.15-1~deb12u1] (3.0.17-1~deb12u2 Debian:12.11/stable, Debian-Security:12/stable-security [amd64])',
      'Inst linux-image-6.1.0-37-amd64 (6.1.140-1 Debian-Security:12/stable-security [amd64])',
      'Inst libc6:i386 [2.36-9+deb12u9] (2.36-9+deb12u10 Debian:12.11/stable [i386])',
      'Conf libssl3 (3.0.17-1~deb12u2 Debian:12.11/stable [amd64])',
    ].join('\n');
    expect(parseSimulate(out)).toEqual([
      { name: 'libssl3', from: '3.0.15-1~deb12u1', to: '3.0.17-1~deb12u2', origins: ['Debian:12.11/stable', 'Debian-Security:12/stable-security'], arch: 'amd64' },
      { name: 'linux-image-6.1.0-37-amd64', from: null, to: '6.1.140-1', origins: ['Debian-Security:12/stable-security'], arch: 'amd64' },
      { name: 'libc6', from: '2.36-9+deb12u9', to: '2.36-9+deb12u10', origins: ['Debian:12.11/stable'], arch: 'i386' },
    ]);
  });

  it('levels: security is important, critical security emergency, the rest optional', () => {
    expect(patchLevel(['Debian:12.11/stable'], 'critical')).toBe('optional');
    expect(patchLevel(['Debian-Security:12/stable-security'], null)).toBe('important');
    expect(patchLevel(['Debian-Security:12/stable-security'], 'emergency')).toBe('emergency');
    expect(patchLevel(['Debian:bookworm-security'], 'critical')).toBe('emergency');
  });

  it('reads package metadata, status-fd lines, Get lines and lock failures', () => {
    const meta = parsePackageMeta('Package: curl\nVersion: 7.88.1-10+deb12u12\nInstalled-Size: 500\nSize: 315020\nDescription: command line tool for transferring data with URL syntax\n more\n\n');
    expect(meta.get('curl=7.88.1-10+deb12u12')).toEqual({ description: 'command line tool for transferring data with URL syntax', size: 315020, installedSizeKib: 500 });
    expect(parseStatusLine('dlstatus:2:50.0000:Retrieving file 2 of 2')).toEqual({ kind: 'dlstatus', percent: 50, message: 'Retrieving file 2 of 2' });
    expect(parseStatusLine('pmstatus:libssl3:amd64:20.0000:Unpacking libssl3 (amd64)')).toMatchObject({ kind: 'pmstatus', pkg: 'libssl3', percent: 20 });
    expect(parseStatusLine('pmerror:/var/cache/apt/archives/delta_1.1_all.deb:20.0000:cannot copy extracted data')).toMatchObject({ kind: 'pmerror', pkg: 'delta' });
    expect(parseGetLine('Get:1 http://deb.debian.org/debian-security bookworm-security/main amd64 libssl3 amd64 3.0.17-1~deb12u2 [2019 kB]')).toBe('libssl3');
    expect(parseGetLine('Get:1 copy:/tmp/repo/main ./ alpha 1.1 [744 B]')).toBe('alpha');
    expect(isLockFailure('E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1 (apt-get)')).toBe(true);
    expect(isLockFailure('E: Unable to locate package nope')).toBe(false);
    // Not root: the lock file cannot even be opened; that is no other package manager.
    const notRoot = 'E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)\nE: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), are you root?';
    expect([isLockFailure(notRoot), isPermissionFailure(notRoot)]).toEqual([false, true]);
  });

  it('reads Release dates and changelog heads', () => {
    const release = parseRelease('Origin: Debian\nLabel: Debian-Security\nSuite: stable-security\nVersion: 12\nCodename: bookworm-security\nDate: Sat, 05 Dec 2026 10:00:00 UTC\n');
    expect(release?.date).toBe('2026-12-05');
    expect(releaseKeys(release!)).toContain('Debian-Security:12/stable-security');
    expect(parseChangelogHead('openssl (3.0.17-1~deb12u2) bookworm-security; urgency=high\n\n  * Fix.\n\n -- Sec Team <team@security.debian.org>  Tue, 01 Jul 2025 10:00:00 +0000\n')).toEqual({ urgency: 'high', date: '2025-07-01' });
  });
});
