import { createDecipheriv } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Db } from '../db/database.ts';

/**
 * Whether a sealed secret (`v1:iv:tag:body`, AES-256-GCM — the one format every area of the console
 * seals with) opens under one of this console's key files (`*.key` beside the panel database).
 * Each area keeps its own key file; trying them all keeps this generic, so a secret an area adds
 * later is handled without a change here. A file from another machine carries seals none opens.
 */
export function sealedOpensHere(db: Db, sealed: string): boolean {
  const location = db.location();
  // An in-memory database (tests) has no key files to try: its keys live in the process.
  if (!location) return true;
  const [version, iv, tag, body] = sealed.split(':');
  if (version !== 'v1' || !iv || !tag || body === undefined) return false;
  const dir = dirname(location);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.key'));
  } catch {
    return false;
  }
  for (const name of names) {
    try {
      const key = readFileSync(join(dir, name));
      if (key.length !== 32) continue;
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      decipher.update(Buffer.from(body, 'base64'));
      decipher.final();
      return true;
    } catch {
      // Not this key.
    }
  }
  return false;
}
