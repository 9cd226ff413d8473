/**
 * Reading the IIS anonymous or application-pool account's password out of the metabase
 * (`IIS://localhost/W3SVC/...` through COM/ADSI, then `AnonymousUserPass`, `WAMUserPass`): the
 * IIS spy pages' way to the next account. Site code has no use for another account's password.
 */
import type { Signal } from '../signals.ts';
import { medium } from '../signals.ts';

const metabase = /["']IIS:\/\/[^"'\r\n]{0,80}/i;
const password = /\b(?:AnonymousUserPass|WAMUserPass|UNCPassword)\b/i;

export function iisMetabaseSignal(text: string): Signal[] {
  const match = metabase.exec(text);
  if (!match || !password.test(text)) return [];
  return [{ reason: 'iis_password_read', weight: medium + 1, offset: match.index, length: match[0].length }];
}
