import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Db } from '../db/database.ts';

/**
 * The portal's secrets: the HTTPS private key is sealed with AES-256-GCM under a key kept in its
 * own file beside the panel database (mode 0600, the console's user), so the settings table alone
 * (a copy, a configuration backup) does not give the key away; the safe-entry cookie is an HMAC
 * under the same key, so the cookie does not reveal the entry and changes when the entry does.
 */
export class KeyBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    this.#key = key;
  }

  /** The key file beside the database, created on first use; an in-memory database gets a key for this process. */
  static forDatabase(db: Db): KeyBox {
    const location = db.location();
    if (!location) return new KeyBox(randomBytes(32));
    const file = join(dirname(location), 'portal.key');
    try {
      const key = readFileSync(file);
      if (key.length === 32) return new KeyBox(key);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const key = randomBytes(32);
    writeFileSync(file, key, { mode: 0o600 });
    return new KeyBox(key);
  }

  seal(plain: string): string {
    if (plain === '') return '';
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  /** The sealed text opened; '' when it is empty or cannot be opened (a backup from another machine). */
  open(sealed: string): string {
    if (sealed === '') return '';
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || body === undefined) return '';
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      return '';
    }
  }

  /** A keyed digest, URL- and cookie-safe. */
  tag(text: string): string {
    return createHmac('sha256', this.#key).update(text).digest('base64url');
  }

  static same(a: string, b: string): boolean {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  }
}
