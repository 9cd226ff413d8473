import { isIP } from 'node:net';
import type { BackupTarget } from './target.ts';

/** Stable keys: the caller translates them for the administrator. */
export type TargetProblem =
  | 'type_invalid'
  | 'bucket_required'
  | 'bucket_lowercase'
  | 'bucket_invalid'
  | 'host_required'
  | 'host_invalid'
  | 'port_range'
  | 'credentials_required'
  | 'path_invalid'
  | 'region_invalid';

const types: readonly string[] = ['s3', 'ftp', 'sftp'];
const schemePattern = /^[a-z][a-z0-9+.-]*:\/\//i;
const hostNamePattern = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*\.?$/i;
// S3's rules (which Aliyun OSS and Tencent COS share): 3–63 characters, lowercase letters, digits, dots, hyphens.
const bucketPattern = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const regionPattern = /^[a-z0-9-]{1,64}$/i;

/** Lists what is wrong with `target`, in field order; empty when it can be used. Pure. */
export function validateTarget(target: BackupTarget): TargetProblem[] {
  const problems: TargetProblem[] = [];
  // The rule comes from storage: do not trust the declared field types.
  const type = text(target.type);
  if (!types.includes(type)) return ['type_invalid'];

  if (type === 's3') {
    const bucket = text(target.bucket);
    if (bucket === '') problems.push('bucket_required');
    else if (bucket !== bucket.toLowerCase()) problems.push('bucket_lowercase');
    else if (!bucketPattern.test(bucket) || bucket.includes('..') || isIP(bucket) !== 0) problems.push('bucket_invalid');
  }

  const domain = text(target.domain);
  const ip = text(target.ip);
  if (domain === '' && ip === '') problems.push('host_required');
  else if (domain !== '' ? !validDomain(domain, type) : isIP(ip) === 0) problems.push('host_invalid');

  const port = target.port;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) problems.push('port_range');

  const credentials = type === 's3' ? [target.accessId, target.accessSecret] : [target.username, target.password];
  if (credentials.some((value) => text(value) === '')) problems.push('credentials_required');

  const savePath = text(target.savePath);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(savePath) || savePath.split(/[/\\]/).includes('..')) problems.push('path_invalid');

  const region = text(target.region);
  if (type === 's3' && region !== '' && !regionPattern.test(region)) problems.push('region_invalid');

  return problems;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function validDomain(domain: string, type: string): boolean {
  if (type === 's3' && schemePattern.test(domain)) return validEndpoint(domain);
  return isIP(domain) !== 0 || hostNamePattern.test(domain);
}

/** An endpoint given with its scheme is used as is: it must be a bare http(s) origin. */
function validEndpoint(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' &&
    url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '';
}
