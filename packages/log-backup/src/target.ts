/** Where the archives go. The caller maps its stored backup rule to this shape. */
export interface BackupTarget {
  type: 's3' | 'ftp' | 'sftp';
  /** S3 bucket (lowercase); ignored by the other types. */
  bucket: string;
  /** Host name or, for S3, the endpoint (`http://host:port` is used as is); may be ''. */
  domain: string;
  /** Used when `domain` is ''; may be ''. */
  ip: string;
  /** 0 = the type's default: 443 for S3 over https (80 over http), 21 for FTP, 22 for SFTP. */
  port: number;
  username: string;
  password: string;
  accessId: string;
  accessSecret: string;
  /** Remote folder; '' means the login folder (FTP, SFTP) or the bucket root (S3). */
  savePath: string;
  /** S3 signing region; default us-east-1, which S3-compatible services accept. */
  region?: string;
}

export interface BackupOptions {
  /**
   * Longest wait for the server at every step, and the longest a transfer may make no progress
   * (a large archive on a slow link may take longer than this in total). Default 60 s.
   */
  timeoutMs?: number;
  /** FTP only: explicit FTPS (AUTH TLS) before the password is sent. */
  secure?: boolean;
}

export interface UploadResult {
  /** Where the archive now is: the object key for S3, the file path for FTP and SFTP. */
  remotePath: string;
  bytes: number;
  /** SFTP only: the server's host key as OpenSSH prints it (`SHA256:…`), for the caller to record. */
  fingerprint?: string;
}

export const DEFAULT_TIMEOUT_MS = 60_000;

const defaultPorts = { s3: 443, ftp: 21, sftp: 22 } as const;

export function targetHost(target: BackupTarget): string {
  return target.domain.trim() || target.ip.trim();
}

/** The port for FTP and SFTP; S3 derives its own from the endpoint (see s3-endpoint.ts). */
export function targetPort(target: BackupTarget): number {
  return target.port || defaultPorts[target.type];
}

export function timeoutOf(options: BackupOptions): number {
  const ms = options.timeoutMs;
  return ms !== undefined && Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_TIMEOUT_MS;
}

/** `host:port`, with IPv6 addresses bracketed, for messages and URLs. */
export function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
