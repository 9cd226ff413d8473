/** What was being done when an operation failed; `validate` and `local` happen before any connection. */
export type BackupStep = 'validate' | 'local' | 'connect' | 'auth' | 'upload' | 'verify';

const stepWords: Record<BackupStep, string> = {
  validate: 'target check',
  local: 'reading the archive',
  connect: 'connection',
  auth: 'authentication',
  upload: 'upload',
  verify: 'verification',
};

/** Every failure of this package. `message` is written for the administrator; `step` is for code. */
export class BackupError extends Error {
  override name = 'BackupError';
  readonly step: BackupStep;

  constructor(step: BackupStep, message: string, options?: ErrorOptions) {
    super(message, options);
    this.step = step;
  }
}

/** e.g. `FTP authentication failed (ftp.example.com:21): 530 Login incorrect.` */
export function remoteError(protocol: string, where: string, step: BackupStep, reason: string, cause?: unknown): BackupError {
  return new BackupError(step, `${protocol} ${stepWords[step]} failed (${where}): ${reason}`, { cause });
}

export function errorCode(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
  return typeof code === 'string' ? code : undefined;
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/** Failures to reach the server at all (refused, no route, no such host) or to set up TLS with it. */
const connectCodes = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN',
  'ETIMEDOUT', 'EADDRNOTAVAIL', 'EPROTO',
]);

export function isConnectFailure(err: unknown): boolean {
  const code = errorCode(err);
  return code !== undefined && (connectCodes.has(code) || /CERT|^ERR_TLS|^ERR_SSL/.test(code));
}

export function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
