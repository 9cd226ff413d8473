import { z } from 'zod';
import { parseAddressEntry } from './ip-address.ts';

// The signed bytes are `canonicalJson(manifest)` (config-backup.ts: keys sorted at every level, no spaces).

/*
 * Cloud protection: threat-intel feeds. A feed arrives as a signed bundle — one JSON file (no tar
 * parser needed, and the console can carry it in a JSON body):
 *   { format: 'rampart-feed/1', manifest: {...}, netsets: { v4: '<lines>', v6: '<lines>' },
 *     signature: { alg: 'ed25519', key_id, value } }
 * The signature is ed25519 over `canonicalJson(manifest)`; the manifest holds the sha256 of each
 * netset's UTF-8 text, so changing one netset line breaks the bundle. Public keys are pinned by
 * the administrator (the product ships none, since it ships no feed).
 */

export const feedBundleFormat = 'rampart-feed/1';

/** An ed25519 public key as JWK `x`: 32 bytes in base64url, 43 characters. */
export const cloudPublicKeySchema = z.string().trim().regex(/^[A-Za-z0-9_-]{43}$/, 'cloud_key_invalid');
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const isoDate = z.string().max(40).refine((text) => !Number.isNaN(Date.parse(text)));

export const feedManifestSchema = z.object({
  feed_id: z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/),
  name: z.string().min(1).max(100),
  /** Grows with every release; an update must carry a larger one. */
  version: z.number().int().positive(),
  date: isoDate,
  expires: isoDate,
  source: z.string().max(500),
  licence: z.string().max(200),
  counts: z.object({ v4: z.number().int().min(0), v6: z.number().int().min(0) }).strict(),
  sha256: z.object({ v4: sha256Hex, v6: sha256Hex }).strict(),
}).strict();
export type FeedManifest = z.infer<typeof feedManifestSchema>;

export const feedBundleSchema = z.object({
  format: z.literal(feedBundleFormat),
  manifest: feedManifestSchema,
  netsets: z.object({ v4: z.string(), v6: z.string() }).strict(),
  signature: z.object({ alg: z.literal('ed25519'), key_id: z.string().max(64), value: z.string().max(200) }).strict(),
}).strict();
export type FeedBundle = z.infer<typeof feedBundleSchema>;

/** The entries of a netset: one address or CIDR a line; `#` and `;` start comments. Null + line number when a line is not one of `fam`. */
export function parseNetset(text: string, fam: 4 | 6): { entries: string[]; badLine: number | null } {
  const entries: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').replace(/[#;].*$/, '').trim();
    if (line === '') continue;
    const parsed = parseAddressEntry(line);
    if (!parsed || parsed.kind === 'any' || parsed.family !== fam) return { entries: [], badLine: i + 1 };
    entries.push(line);
  }
  return { entries, badLine: null };
}

export const cloudFeedStates = ['ok', 'failed', 'expired'] as const;

export const cloudKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  public_key: z.string(),
  /** The first 16 hex digits of the key's sha256: what a bundle's `signature.key_id` names. */
  key_id: z.string(),
  created_at: z.number().int(),
});
export type CloudKey = z.infer<typeof cloudKeySchema>;

export const cloudFeedSchema = z.object({
  id: z.number().int(),
  feed_id: z.string(),
  name: z.string(),
  source: z.string(),
  licence: z.string(),
  version: z.number().int(),
  date: z.string(),
  expires: z.string(),
  key_id: z.string(),
  /** Where the agent fetches updates; null for an imported file. */
  url: z.string().nullable(),
  interval_minutes: z.number().int().nullable(),
  enabled: z.boolean(),
  /** Entries in the bundle, and ranges left after subtraction and merging (what the kernel holds). */
  entries_v4: z.number().int(),
  entries_v6: z.number().int(),
  ranges_v4: z.number().int(),
  ranges_v6: z.number().int(),
  /** Packets dropped by this feed's rules since it was installed. */
  hits: z.number().int(),
  last_update: z.number().int(),
  last_check: z.number().int().nullable(),
  state: z.enum(cloudFeedStates),
  /** A message key (cloud_*), with `last_detail`, when the last fetch or check failed. */
  last_error: z.string().nullable(),
  last_detail: z.string(),
});
export type CloudFeed = z.infer<typeof cloudFeedSchema>;

/** The administrator's own ranges: never blocked by a feed, like the super whitelist. */
export const cloudOwnRangesSchema = z.array(
  z.string().trim().max(100).refine((text) => {
    const parsed = parseAddressEntry(text);
    return parsed !== null && parsed.kind !== 'any';
  }, 'cloud_own_range_invalid'),
).max(1000, 'cloud_own_ranges_too_many');
export const cloudSettingsSchema = z.object({ own_ranges: cloudOwnRangesSchema }).strict();
export type CloudSettings = z.infer<typeof cloudSettingsSchema>;

export const cloudStatusSchema = z.object({
  enabled: z.boolean(),
  /** The kernel is not reachable (not root, or no nft): feeds are stored but block nothing. */
  kernel: z.boolean(),
  keys: z.array(cloudKeySchema),
  feeds: z.array(cloudFeedSchema),
  settings: cloudSettingsSchema,
  /** Addresses the agent always keeps out of the sets (private, loopback, ...), for the page to show. */
  always_subtracted: z.array(z.string()),
});
export type CloudStatus = z.infer<typeof cloudStatusSchema>;
