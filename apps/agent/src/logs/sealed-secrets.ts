import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';

/**
 * Secrets the agent must be able to use again (storage passwords, access keys) are kept sealed
 * with AES-256-GCM under a key in its own root-only file, so the settings file alone (a copy, a
 * config backup) does not give them away.
 */
export class SecretBox {
  readonly #key: Buffer;

  private constructor(key: Buffer) {
    this.#key = key;
  }

  /** Loads the key file, creating it (mode 0600) on first use. */
  static async open(keyFile: string): Promise<SecretBox> {
    try {
      const key = await readFile(keyFile);
      if (key.length !== 32) throw new Error(`${keyFile} is not a 32-byte key`);
      return new SecretBox(key);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const key = randomBytes(32);
      await writeFile(keyFile, key, { mode: 0o600, flag: 'wx' });
      return new SecretBox(key);
    }
  }

  seal(plain: string): string {
    if (plain === '') return '';
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  open(sealed: string): string {
    if (sealed === '') return '';
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('sealed secret has an unknown format');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}
