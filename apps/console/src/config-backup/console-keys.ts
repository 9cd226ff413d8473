import type { Db } from '../db/database.ts';
import { secretBox } from '../security/secret-box.ts';

/**
 * Whether a sealed secret (`v1:iv:tag:body`, AES-256-GCM — the one format the console seals with)
 * opens under this console's key (security/secret-box.ts). A file from another machine carries
 * seals that do not open here.
 */
export function sealedOpensHere(db: Db, sealed: string): boolean {
  return sealed !== '' && secretBox(db).open(sealed) !== '';
}
