import { afterAll, describe, expect, it } from 'vitest';
import { effectiveSshd, readWrittenSshdConfig, recordedExecutor, RootFs } from '../src/index.ts';
import { collectSshdConfig, recordingReader } from '../src/facts/sshd-config.ts';
import { makeRoot, removeRoots } from './fixture-root.ts';

afterAll(removeRoots);

describe('reading sshd_config the way sshd does', () => {
  const root = makeRoot({
    '/etc/ssh/sshd_config': [
      '# comment',
      'Include /etc/ssh/sshd_config.d/*.conf',
      'PermitRootLogin yes',
      'passwordauthentication=yes',
      'Match User deploy',
      '  PasswordAuthentication no',
      '  X11Forwarding no',
      'Match all',
      'X11Forwarding yes',
      '',
    ].join('\n'),
    '/etc/ssh/sshd_config.d/20-b.conf': 'PermitRootLogin prohibit-password\nMaxAuthTries 3\n',
    '/etc/ssh/sshd_config.d/10-a.conf': 'PermitRootLogin no\nCiphers "aes256-ctr,aes128-cbc"\n',
    '/etc/ssh/sshd_config.d/90-c.conf.disabled': 'MaxAuthTries 9\n',
    '/etc/ssh/sshd_config.d/30-match.conf': 'Match Address 10.0.0.0/8\n  LoginGraceTime 10\n',
    '/etc/ssh/sshd_config.d/40-after.conf': 'ClientAliveInterval 300\n',
  });
  const { written, files } = readWrittenSshdConfig(recordingReader(new RootFs(root)));

  it('splices Include files in lexical order at the Include line, only *.conf', () => {
    expect(files).toEqual([
      '/etc/ssh/sshd_config',
      '/etc/ssh/sshd_config.d/10-a.conf',
      '/etc/ssh/sshd_config.d/20-b.conf',
      '/etc/ssh/sshd_config.d/30-match.conf',
      '/etc/ssh/sshd_config.d/40-after.conf',
    ]);
  });

  it('keeps the first value of each keyword, case-insensitively, with = as separator', () => {
    expect(written.get('permitrootlogin')).toEqual({ value: 'no', file: '/etc/ssh/sshd_config.d/10-a.conf', line: 1 });
    expect(written.get('maxauthtries')?.value).toBe('3');
    expect(written.get('passwordauthentication')).toEqual({ value: 'yes', file: '/etc/ssh/sshd_config', line: 4 });
    expect(written.get('ciphers')?.value).toBe('aes256-ctr,aes128-cbc');
  });

  it('leaves Match blocks out of the global values; a Match in an included file ends with that file', () => {
    expect(written.has('logingracetime')).toBe(false);
    expect(written.get('clientaliveinterval')?.file).toBe('/etc/ssh/sshd_config.d/40-after.conf');
    // "Match all" returns to lines that apply to everyone.
    expect(written.get('x11forwarding')).toEqual({ value: 'yes', file: '/etc/ssh/sshd_config', line: 9 });
  });

  it('uses the compiled-in default when nothing is written, and sshd -T when it answers', async () => {
    const fromFiles = await collectSshdConfig(new RootFs(root), recordedExecutor({}));
    expect(effectiveSshd(fromFiles, 'LoginGraceTime')).toEqual({ value: '120', source: 'default' });
    const dumped = await collectSshdConfig(new RootFs(root), recordedExecutor({ 'sshd -T': { stdout: 'permitrootlogin without-password\nlogingracetime 45\n' } }));
    expect(effectiveSshd(dumped, 'PermitRootLogin')).toMatchObject({ value: 'without-password', source: 'sshd -T', file: '/etc/ssh/sshd_config.d/10-a.conf' });
    expect(effectiveSshd(dumped, 'LoginGraceTime').value).toBe('45');
  });

  it('reads Include patterns relative to /etc/ssh and follows symlinks inside the root only', () => {
    const other = makeRoot({
      '/etc/ssh/sshd_config': 'Include extra/*.conf\n',
      '/etc/ssh/extra/a.conf': 'PermitRootLogin no\n',
      '/etc/ssh/extra/b.conf': { link: '/etc/passwd' },
    });
    const read = readWrittenSshdConfig(recordingReader(new RootFs(other)));
    expect(read.files).toEqual(['/etc/ssh/sshd_config', '/etc/ssh/extra/a.conf']);
    expect(read.written.get('permitrootlogin')?.value).toBe('no');
  });
});
