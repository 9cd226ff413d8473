import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCert {
  cert: string;
  key: string;
}

/** A self-signed certificate and its key, made by openssl (the way an administrator would). */
export function makeCert(commonName: string, altNames: string[] = [commonName], days = 30): TestCert {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-cert-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', String(days),
      '-subj', `/O=Rampart Test CA/CN=${commonName}`,
      '-addext', `subjectAltName=${altNames.map((n) => (/^[\d.]+$|:/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',')}`,
    ], { stdio: 'ignore' });
    return { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
