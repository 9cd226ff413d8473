import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import S3rver from 's3rver';
import { listen } from './net.ts';

export interface S3TestServer {
  endpoint: string;
  close(): Promise<void>;
}

/** s3rver only knows this access key and never checks a V4 signature: the check below does. */
export const S3_ACCESS_ID = 'S3RVER';

/**
 * s3rver (in-process, storing under `directory`) behind a real SigV4 check with `secret`, so a
 * wrong secret is refused as AWS would refuse it.
 */
export async function startS3Server(directory: string, secret: string, buckets: string[]): Promise<S3TestServer> {
  const s3rver = new S3rver({ directory, silent: true, configureBuckets: buckets.map((name) => ({ name })) });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const server = createServer((req, res) => {
    const problem = checkSignature(req, secret);
    if (problem === undefined) handle(req, res);
    else refuse(req, res, problem);
  });
  const port = await listen(server);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function refuse(req: IncomingMessage, res: ServerResponse, code: string): void {
  // Read the body first: a client still sending it would see a reset instead of the answer.
  req.resume();
  req.on('end', () => {
    res.writeHead(403, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>The request signature we calculated does not match the signature you provided. Check your key and signing method.</Message></Error>`);
  });
}

const authPattern = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

/** Recomputes the AWS Signature Version 4 of a header-signed request; returns an S3 error code when it is wrong. */
function checkSignature(req: IncomingMessage, secret: string): string | undefined {
  const auth = req.headers.authorization;
  if (auth === undefined) return 'AccessDenied';
  const match = authPattern.exec(auth);
  if (match === null) return 'AuthorizationHeaderMalformed';
  const [, accessId = '', date = '', region = '', service = '', signedHeaders = '', signature = ''] = match;
  if (accessId !== S3_ACCESS_ID) return 'InvalidAccessKeyId';

  const url = new URL(req.url ?? '/', 'http://localhost');
  const query = [...url.searchParams]
    .map(([key, value]) => `${encode(key)}=${encode(value)}`)
    .sort()
    .join('&');
  const headers = signedHeaders
    .split(';')
    .map((name) => `${name}:${headerValue(req, name)}\n`)
    .join('');
  const canonicalRequest = [req.method, url.pathname, query, headers, signedHeaders, headerValue(req, 'x-amz-content-sha256')].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', headerValue(req, 'x-amz-date'), scope, sha256(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${secret}`, date);
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part);
  return hmac(key, stringToSign).toString('hex') === signature ? undefined : 'SignatureDoesNotMatch';
}

function headerValue(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return (Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ');
}

function encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function hmac(key: string | Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text).digest();
}
