import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Db } from '../db/database.ts';

/**
 * Secrets the console must use again (the SMTP password, SMS keys, the WeCom robot key, TOTP seeds,
 * the HTTPS private key) are kept sealed with AES-256-GCM under one key in its own file beside the
 * panel database (mode 0600), so the database alone (a copy, a config backup) does not give them
 * away. The same scheme as the agent's log-backup secrets (apps/agent/src/logs/sealed-secrets.ts);
 * the console cannot import the agent.
 */
export interface SecretBox {
  seal(plain: string): string;
  /** The plain text, or '' when the sealed value cannot be opened (a lost or replaced key file). */
  open(sealed: string): string;
  /** A keyed digest, URL- and cookie-safe (the safe-entry cookie). */
  tag(text: string): string;
}

/** Compares two texts in constant time. */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const secretKeyFileName = 'console-secrets.key';
const boxes = new Map<string, SecretBox>();
/** An in-memory database (tests) gets a key for the life of the process, like its data. */
const memoryKey = randomBytes(32);

function loadKey(file: string): Buffer {
  try {
    const key = readFileSync(file);
    if (key.length !== 32) throw new Error(`${file} is not a 32-byte key`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const key = randomBytes(32);
    try {
      writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
      return key;
    } catch (raced) {
      // Another console process made it first: use theirs.
      if ((raced as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file);
      throw raced;
    }
  }
}

function makeBox(key: Buffer): SecretBox {
  return {
    seal(plain) {
      if (plain === '') return '';
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
    },
    open(sealed) {
      if (sealed === '') return '';
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== 'v1' || !iv || !tag || body === undefined) return '';
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
        decipher.setAuthTag(Buffer.from(tag, 'base64'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
      } catch {
        return '';
      }
    },
    tag(text) {
      return createHmac('sha256', key).update(text).digest('base64url');
    },
  };
}

/** The box of this panel database: its key file sits in the database's directory. */
export function secretBox(db: Db): SecretBox {
  const location = db.location();
  const file = location ? join(dirname(location), secretKeyFileName) : ':memory:';
  let box = boxes.get(file);
  if (!box) {
    box = makeBox(location ? loadKey(file) : memoryKey);
    boxes.set(file, box);
  }
  return box;
}
