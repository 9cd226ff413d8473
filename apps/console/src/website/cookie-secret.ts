import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { SecretBox } from '../security/secret-box.ts';

/*
 * The gateway's cookie secret (website-gateway.ts policy.cookie_secret): the key of the CC
 * human-verification pass cookie and of the authorization page's form token. Made once, kept
 * sealed with the console's secret box in a row of website_settings that is not a settings group
 * (readWebsiteSettings reads only the groups, so no route ever answers it); only the gateway's file
 * holds it in clear, like the TLS keys. Stable across restarts, so visitors who passed the
 * verification keep their pass when the console or the gateway restarts.
 */
const row = 'gateway_cookie_secret';
const hex64 = /^[0-9a-f]{64}$/;

export function gatewayCookieSecret(db: Db, box: SecretBox): string {
  const stored = db.prepare('SELECT value FROM website_settings WHERE tab = ?').get(row) as { value: string } | undefined;
  const opened = stored ? box.open(stored.value) : '';
  if (hex64.test(opened)) return opened;
  // None yet, or sealed under a key this console no longer has (a copied database): a new one.
  // The only cost is that passes issued with the old one must be earned again.
  const secret = randomBytes(32).toString('hex');
  db.prepare('INSERT INTO website_settings (tab, value) VALUES (?, ?) ON CONFLICT (tab) DO UPDATE SET value = excluded.value').run(row, box.seal(secret));
  return secret;
}
