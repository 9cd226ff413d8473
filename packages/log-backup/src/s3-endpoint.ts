import { isIP } from 'node:net';
import { hostPort, type BackupTarget } from './target.ts';

export interface S3Endpoint {
  url: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key`. */
  forcePathStyle: boolean;
}

const schemePattern = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * An endpoint with a scheme is taken as is (a MinIO or a test server); a bare IP address means
 * plain http on the LAN; a domain means https. Path-style addressing only where virtual hosts
 * cannot work (IP addresses, localhost) or the administrator spelled the endpoint out:
 * S3-compatible clouds such as Aliyun OSS and Tencent COS only accept virtual-hosted requests.
 */
export function resolveS3Endpoint(target: BackupTarget): S3Endpoint {
  const domain = target.domain.trim();
  if (schemePattern.test(domain)) return { url: domain.replace(/\/+$/, ''), forcePathStyle: true };
  if (domain === '') return { url: `http://${hostPort(target.ip.trim(), target.port || 80)}`, forcePathStyle: true };
  const host = domain.includes(':') ? `[${domain}]` : domain;
  const port = target.port && target.port !== 443 ? `:${target.port}` : '';
  return { url: `https://${host}${port}`, forcePathStyle: isIP(domain) !== 0 || domain.toLowerCase() === 'localhost' };
}
