import type { AuditLevel, HashKind } from '@rampart/contracts';

/**
 * The scheme of a shadow password field, judged without ever passing the hash on (crypt(5)).
 * yescrypt (Debian 12's default), scrypt, bcrypt and SHA-512 crypt are acceptable; SHA-256 crypt and
 * SHA-512 with fewer rounds than its default 5000 are weak; MD5 crypt, DES and NT hashes break in
 * minutes on one GPU and are danger.
 */
export function hashKind(field: string): HashKind {
  if (field === '') return 'empty';
  if (field.startsWith('!')) return 'locked';
  if (field.startsWith('*')) return 'none';
  if (field.startsWith('$y$')) return 'yescrypt';
  if (field.startsWith('$gy$')) return 'gost_yescrypt';
  if (field.startsWith('$7$')) return 'scrypt';
  if (/^\$2[abxy]?\$/.test(field)) return 'bcrypt';
  if (field.startsWith('$6$')) return 'sha512';
  if (field.startsWith('$5$')) return 'sha256';
  if (field.startsWith('$1$') || field.startsWith('$md5')) return 'md5';
  if (field.startsWith('$3$')) return 'nthash';
  if (/^[./0-9A-Za-z]{13}$/.test(field) || /^_[./0-9A-Za-z]{19}$/.test(field)) return 'des';
  return 'unknown';
}

/** SHA-crypt's rounds (`$6$rounds=N$`): 5000 when not written. */
function shaRounds(field: string): number {
  const match = /^\$[56]\$rounds=(\d+)\$/.exec(field);
  return match ? Number(match[1]) : 5000;
}

/** The weak-hash judgement: a level and the raw detail for the finding, or null when the scheme is acceptable (or there is no hash). */
export function weakHash(field: string): { level: AuditLevel; detail: string } | null {
  const kind = hashKind(field);
  if (kind === 'md5' || kind === 'des' || kind === 'nthash') return { level: 'danger', detail: kind };
  if (kind === 'sha256') return { level: 'warning', detail: `sha256 rounds=${shaRounds(field)}` };
  if (kind === 'sha512' && shaRounds(field) < 5000) return { level: 'warning', detail: `sha512 rounds=${shaRounds(field)}` };
  if (kind === 'unknown') return { level: 'hint', detail: 'unknown scheme' };
  return null;
}
