import { describe, expect, it } from 'vitest';
import { BackupError, checkTarget, LOG_BACKUP_SUBDIR, uploadArchive, validateTarget, type BackupTarget } from '../src/index.ts';
import { remoteDir, s3Key } from '../src/paths.ts';
import { resolveS3Endpoint } from '../src/s3-endpoint.ts';
import { target } from './support/target.ts';

const s3 = target('s3', { bucket: 'logs', domain: 'oss-cn-hangzhou.aliyuncs.com', accessId: 'id', accessSecret: 'secret' });
const sftp = target('sftp', { ip: '10.0.0.5', username: 'backup', password: 'pw', savePath: '/srv/backup' });

describe('validateTarget', () => {
  it('accepts complete targets', () => {
    expect(validateTarget(s3)).toEqual([]);
    expect(validateTarget(sftp)).toEqual([]);
    expect(validateTarget({ ...s3, domain: 'http://127.0.0.1:9000', region: 'cn-hangzhou' })).toEqual([]);
    expect(validateTarget(target('ftp', { domain: 'ftp.example.com', port: 2121, username: 'u', password: 'p' }))).toEqual([]);
  });

  it('names each problem by a stable key', () => {
    expect(validateTarget({ ...s3, bucket: 'Logs' })).toEqual(['bucket_lowercase']);
    expect(validateTarget({ ...s3, bucket: '' })).toEqual(['bucket_required']);
    expect(validateTarget({ ...s3, bucket: 'a_b' })).toEqual(['bucket_invalid']);
    expect(validateTarget({ ...s3, domain: '', ip: '' })).toEqual(['host_required']);
    expect(validateTarget({ ...s3, domain: 'host name' })).toEqual(['host_invalid']);
    expect(validateTarget({ ...s3, domain: 'https://s3.example.com/prefix' })).toEqual(['host_invalid']);
    expect(validateTarget({ ...sftp, ip: '10.0.0' })).toEqual(['host_invalid']);
    expect(validateTarget({ ...sftp, port: 70000 })).toEqual(['port_range']);
    expect(validateTarget({ ...sftp, port: 2.5 })).toEqual(['port_range']);
    expect(validateTarget({ ...s3, accessSecret: ' ' })).toEqual(['credentials_required']);
    expect(validateTarget({ ...sftp, password: '' })).toEqual(['credentials_required']);
    expect(validateTarget({ ...sftp, savePath: '/srv/../etc' })).toEqual(['path_invalid']);
    expect(validateTarget({ ...s3, region: 'us east' })).toEqual(['region_invalid']);
    expect(validateTarget({ ...sftp, type: 'smb' } as unknown as BackupTarget)).toEqual(['type_invalid']);
  });

  it('lists every problem at once and ignores the bucket for FTP and SFTP', () => {
    expect(validateTarget(target('s3', { bucket: 'Logs', port: -1 }))).toEqual(['bucket_lowercase', 'host_required', 'port_range', 'credentials_required']);
    expect(validateTarget({ ...sftp, bucket: 'Not A Bucket' })).toEqual([]);
  });

  it('is applied before anything is attempted', async () => {
    const bad = { ...s3, bucket: 'Logs' };
    await expect(checkTarget(bad)).rejects.toThrow(/invalid: bucket_lowercase/);
    const err: unknown = await uploadArchive(bad, '/nonexistent.gz').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackupError);
    expect((err as BackupError).step).toBe('validate');
  });

  it('reports a missing local archive before connecting', async () => {
    const err: unknown = await uploadArchive(sftp, '/nonexistent/x.gz').catch((e: unknown) => e);
    expect((err as BackupError).step).toBe('local');
    expect((err as Error).message).toMatch(/local archive \/nonexistent\/x.gz failed: .*ENOENT/);
  });
});

describe('remote paths', () => {
  it('puts archives in the fixed subfolder of savePath', () => {
    expect(LOG_BACKUP_SUBDIR).toBe('rampart-logs');
    expect(remoteDir('')).toBe('rampart-logs');
    expect(remoteDir('/')).toBe('/rampart-logs');
    expect(remoteDir('/srv/backup/')).toBe('/srv/backup/rampart-logs');
    expect(remoteDir('backup')).toBe('backup/rampart-logs');
    expect(s3Key('', 'a.gz')).toBe('rampart-logs/a.gz');
    expect(s3Key('/', 'a.gz')).toBe('rampart-logs/a.gz');
    expect(s3Key('/x//y/', 'a.gz')).toBe('x/y/rampart-logs/a.gz');
  });
});

describe('resolveS3Endpoint', () => {
  it('uses an endpoint with a scheme as is, path-style', () => {
    expect(resolveS3Endpoint({ ...s3, domain: 'http://minio.lan:9000/', port: 1 })).toEqual({ url: 'http://minio.lan:9000', forcePathStyle: true });
  });
  it('speaks plain http to a bare IP address, path-style', () => {
    expect(resolveS3Endpoint({ ...s3, domain: '', ip: '192.168.1.9', port: 9000 })).toEqual({ url: 'http://192.168.1.9:9000', forcePathStyle: true });
    expect(resolveS3Endpoint({ ...s3, domain: '', ip: '::1', port: 9000 })).toEqual({ url: 'http://[::1]:9000', forcePathStyle: true });
  });
  it('speaks https to a domain, virtual-hosted (OSS, COS) unless it is localhost or an address', () => {
    expect(resolveS3Endpoint(s3)).toEqual({ url: 'https://oss-cn-hangzhou.aliyuncs.com', forcePathStyle: false });
    expect(resolveS3Endpoint({ ...s3, port: 443 })).toEqual({ url: 'https://oss-cn-hangzhou.aliyuncs.com', forcePathStyle: false });
    expect(resolveS3Endpoint({ ...s3, domain: 'cos.ap-guangzhou.myqcloud.com', port: 8443 })).toEqual({ url: 'https://cos.ap-guangzhou.myqcloud.com:8443', forcePathStyle: false });
    expect(resolveS3Endpoint({ ...s3, domain: 'localhost', port: 9000 })).toEqual({ url: 'https://localhost:9000', forcePathStyle: true });
    expect(resolveS3Endpoint({ ...s3, domain: '10.1.2.3' })).toEqual({ url: 'https://10.1.2.3', forcePathStyle: true });
  });
});
