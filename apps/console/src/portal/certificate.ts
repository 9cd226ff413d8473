import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import type { CertificateInfo, MessageKey } from '@rampart/contracts';

/* Reading an uploaded certificate and key (PEM), with node:crypto only. */

/** The first certificate of a PEM bundle (the leaf; the chain follows it). Null when there is none. */
export function readCertificate(pem: string): X509Certificate | null {
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) return null;
  try {
    return new X509Certificate(pem);
  } catch {
    return null;
  }
}

/** An unencrypted private key; an encrypted one has no passphrase to open it with and counts as unreadable. */
export function readPrivateKey(pem: string): KeyObject | null {
  if (!pem.includes('PRIVATE KEY-----') || pem.includes('ENCRYPTED')) return null;
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    return null;
  }
}

/** `CN=x\nO=y` → `CN=x, O=y` (how people read a distinguished name on one line). */
const oneLine = (name: string) => name.split('\n').filter(Boolean).join(', ');

export function certificateInfo(cert: X509Certificate): CertificateInfo {
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(cert.subject)?.[1];
  const san = (cert.subjectAltName ?? '')
    .split(', ')
    .map((part) => /^(?:DNS:|IP Address:)(.+)$/.exec(part.trim())?.[1])
    .filter((name): name is string => !!name);
  return {
    issuer: oneLine(cert.issuer),
    subject: oneLine(cert.subject),
    domains: [...new Set([...(cn ? [cn] : []), ...san])],
    not_before: cert.validFromDate.getTime(),
    not_after: cert.validToDate.getTime(),
  };
}

export type PairCheck = { ok: true; info: CertificateInfo } | { ok: false; field: 'https.cert' | 'https.key'; msg: MessageKey };

/** The certificate and the key read, and the key checked against the certificate's public key. */
export function checkPair(certPem: string, keyPem: string): PairCheck {
  const cert = readCertificate(certPem);
  if (!cert) return { ok: false, field: 'https.cert', msg: 'portal_cert_invalid' };
  const key = readPrivateKey(keyPem);
  if (!key) return { ok: false, field: 'https.key', msg: 'portal_key_invalid' };
  if (!cert.checkPrivateKey(key)) return { ok: false, field: 'https.key', msg: 'portal_key_mismatch' };
  return { ok: true, info: certificateInfo(cert) };
}
