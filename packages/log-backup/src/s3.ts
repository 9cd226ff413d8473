import { HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { errorMessage, isConnectFailure, remoteError, type BackupStep } from './errors.ts';
import { readArchive, type LocalArchive } from './local-file.ts';
import { s3Key } from './paths.ts';
import { resolveS3Endpoint } from './s3-endpoint.ts';
import { runStep, type Remote } from './step.ts';
import type { BackupTarget, UploadResult } from './target.ts';

/** The SDK's own timers are a backstop behind the step timer, which fires first with a clearer message. */
const backstopMs = 1_000;

const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

interface S3Connection {
  client: S3Client;
  remote: Remote;
  signal: AbortSignal;
}

function connect(target: BackupTarget, timeoutMs: number): S3Connection {
  const endpoint = resolveS3Endpoint(target);
  const aborter = new AbortController();
  const client = new S3Client({
    endpoint: endpoint.url,
    forcePathStyle: endpoint.forcePathStyle,
    region: target.region?.trim() || 'us-east-1',
    credentials: { accessKeyId: target.accessId.trim(), secretAccessKey: target.accessSecret.trim() },
    // The body is a one-shot stream, and the step timer bounds each call: no SDK retries.
    maxAttempts: 1,
    // Since 3.729 the SDK sends CRC checksums as aws-chunked bodies by default, which S3-compatible
    // servers (OSS, COS, MinIO before 2023, s3rver) store verbatim or refuse. Only send what S3 requires.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: timeoutMs + backstopMs, socketTimeout: timeoutMs + backstopMs },
    // Without a logger the SDK warns on the console about failed streaming requests; the error is reported anyway.
    logger: quietLogger,
  });
  const remote: Remote = {
    protocol: 'S3',
    where: `${endpoint.url}, bucket ${target.bucket.trim()}`,
    timeoutMs,
    abort: () => {
      aborter.abort();
      client.destroy();
    },
    explain,
  };
  return { client, remote, signal: aborter.signal };
}

export async function uploadS3(target: BackupTarget, archive: LocalArchive, timeoutMs: number): Promise<UploadResult> {
  const { client, remote, signal } = connect(target, timeoutMs);
  const bucket = target.bucket.trim();
  const key = s3Key(target.savePath, archive.name);
  try {
    const md5 = await runStep(remote, 'upload', async ({ progress }) => {
      const body = readArchive(archive, progress);
      const put = new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body.stream,
        ContentLength: archive.size,
        ContentType: 'application/gzip',
      });
      await client.send(put, { abortSignal: signal });
      return body.md5();
    });
    await runStep(remote, 'verify', async () => {
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
      if (head.ContentLength !== archive.size) {
        throw remoteError('S3', remote.where, 'verify', `${key} has ${head.ContentLength ?? 'no'} bytes on the server, the archive ${archive.size}`);
      }
      // A single-part upload's ETag is the MD5 of the object, except with KMS or customer-key encryption.
      const encrypted = head.SSECustomerAlgorithm !== undefined || head.ServerSideEncryption?.startsWith('aws:kms');
      const etag = head.ETag?.toLowerCase();
      if (!encrypted && etag !== undefined && /^"[0-9a-f]{32}"$/.test(etag) && etag !== `"${md5}"`) {
        throw remoteError('S3', remote.where, 'verify', `${key} has ETag ${head.ETag} on the server, the archive's MD5 is ${md5}`);
      }
    });
    return { remotePath: key, bytes: archive.size };
  } finally {
    client.destroy();
  }
}

/** HeadBucket: reaches the endpoint, proves the credentials and that the bucket exists. */
export async function checkS3(target: BackupTarget, timeoutMs: number): Promise<void> {
  const { client, remote, signal } = connect(target, timeoutMs);
  try {
    await runStep(remote, 'connect', async () => {
      await client.send(new HeadBucketCommand({ Bucket: target.bucket.trim() }), { abortSignal: signal });
    });
  } finally {
    client.destroy();
  }
}

function explain(err: unknown, step: BackupStep): { step: BackupStep; reason: string } {
  if (err instanceof S3ServiceException) {
    const status = err.$metadata.httpStatusCode ?? 0;
    return { step: status === 401 || status === 403 ? 'auth' : step, reason: serviceReason(err, status) };
  }
  if (isConnectFailure(err) || (err instanceof Error && err.name === 'TimeoutError' && /establish a connection/.test(err.message))) {
    return { step: 'connect', reason: errorMessage(err) };
  }
  return { step, reason: errorMessage(err) };
}

/**
 * The server's code and message; answers to HEAD requests have no body, so the SDK only knows
 * the status (and calls the error "403" or "UnknownError"): say what that status usually means.
 */
function serviceReason(err: S3ServiceException, status: number): string {
  const name = /^\d+$|^Unknown$/.test(err.name) ? '' : err.name;
  const message = err.message === 'UnknownError' ? '' : err.message;
  if (message !== '' && message !== name) return `${name === '' ? '' : `${name}: `}${message} (HTTP ${status})`;
  return `${statusHints[status] ?? (name || 'unexpected answer')} (HTTP ${status})`;
}

const statusHints: Record<number, string> = {
  301: 'the bucket is in another region or needs another endpoint',
  307: 'the bucket is in another region or needs another endpoint',
  400: 'bad request: check the region',
  401: 'access denied: check the access ID and secret',
  403: 'access denied: check the access ID and secret, and the permissions on the bucket',
  404: 'not found: check the bucket name',
};
