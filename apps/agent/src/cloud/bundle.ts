import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson, feedBundleFormat, feedBundleSchema, parseNetset, type FeedBundle, type FeedManifest } from '@rampart/contracts';

/*
 * Signing and checking threat-intel bundles (format in packages/contracts/src/cloud.ts): ed25519
 * over the canonical manifest, which carries the sha256 and count of each netset. Node's own
 * crypto does it all; the repository script (scripts/feed-bundle.ts) signs with the same code.
 */

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A public key's id: the first 16 hex digits of the sha256 of its 32 raw bytes. */
export function keyIdOf(publicKey: string): string {
  return createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('hex').slice(0, 16);
}

function publicKeyObject(publicKey: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey }, format: 'jwk' });
}

/** True when the text is a usable ed25519 public key (not just 43 base64url characters). */
export function isUsablePublicKey(publicKey: string): boolean {
  try {
    publicKeyObject(publicKey);
    return Buffer.from(publicKey, 'base64url').length === 32;
  } catch {
    return false;
  }
}

/** A new key pair: the public key as JWK `x`, the private key as JWK `d` (both base64url). */
export function generateFeedKeys(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  return { publicKey: publicKey.export({ format: 'jwk' }).x ?? '', privateKey: jwk.d ?? '' };
}

/** ed25519 over `canonicalJson(value)`, base64: how feed manifests and release manifests are signed. */
export function signCanonical(value: unknown, keys: { publicKey: string; privateKey: string }): string {
  const key = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x: keys.publicKey, d: keys.privateKey }, format: 'jwk' });
  return sign(null, Buffer.from(canonicalJson(value), 'utf8'), key).toString('base64');
}

/** Whether `signature` (base64) is `publicKey`'s ed25519 signature over `canonicalJson(value)`; false on any malformed part. */
export function verifyCanonical(value: unknown, publicKey: string, signature: string): boolean {
  try {
    return verify(null, Buffer.from(canonicalJson(value), 'utf8'), publicKeyObject(publicKey), Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** Builds and signs a bundle from netset texts; counts and hashes are computed here. */
export function buildBundle(
  meta: Omit<FeedManifest, 'counts' | 'sha256'>,
  netsets: { v4: string; v6: string },
  keys: { publicKey: string; privateKey: string },
): FeedBundle {
  const v4 = parseNetset(netsets.v4, 4);
  const v6 = parseNetset(netsets.v6, 6);
  if (v4.badLine !== null || v6.badLine !== null) throw new Error(`bad netset line: ${v4.badLine !== null ? `IPv4 line ${v4.badLine}` : `IPv6 line ${v6.badLine}`}`);
  const manifest: FeedManifest = { ...meta, counts: { v4: v4.entries.length, v6: v6.entries.length }, sha256: { v4: sha256Hex(netsets.v4), v6: sha256Hex(netsets.v6) } };
  const value = signCanonical(manifest, keys);
  return { format: feedBundleFormat, manifest, netsets, signature: { alg: 'ed25519', key_id: keyIdOf(keys.publicKey), value } };
}

export interface CheckedBundle {
  bundle: FeedBundle;
  keyId: string;
  entries: { v4: string[]; v6: string[] };
}
/** Why a bundle was refused: a message key (cloud_bundle_*) and its `{detail}`. */
export interface BundleRefusal {
  refused: string;
  detail: string;
}

/**
 * Every check before a bundle may change anything: its shape, a trusted key, the signature over
 * the manifest, each netset against the manifest's hash and count, the expiry, and the version
 * against the installed one.
 */
export function checkBundle(text: string, trustedKeys: readonly string[], now: number, installedVersion: (feedId: string) => number | null): CheckedBundle | BundleRefusal {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { refused: 'cloud_bundle_invalid', detail: 'not JSON' };
  }
  const parsed = feedBundleSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { refused: 'cloud_bundle_invalid', detail: issue ? `${issue.path.join('.') || 'bundle'}: ${issue.message}`.slice(0, 200) : 'bundle' };
  }
  const bundle = parsed.data;
  const key = trustedKeys.find((candidate) => keyIdOf(candidate) === bundle.signature.key_id);
  if (!key) return { refused: 'cloud_bundle_unknown_key', detail: bundle.signature.key_id };
  if (!verifyCanonical(bundle.manifest, key, bundle.signature.value)) return { refused: 'cloud_bundle_bad_signature', detail: '' };
  const entries = { v4: [] as string[], v6: [] as string[] };
  for (const fam of [4, 6] as const) {
    const name = fam === 4 ? 'v4' : 'v6';
    if (sha256Hex(bundle.netsets[name]) !== bundle.manifest.sha256[name]) return { refused: 'cloud_bundle_tampered', detail: `IPv${fam}` };
    const netset = parseNetset(bundle.netsets[name], fam);
    if (netset.badLine !== null) return { refused: 'cloud_bundle_bad_line', detail: `IPv${fam} ${netset.badLine}` };
    if (netset.entries.length !== bundle.manifest.counts[name]) return { refused: 'cloud_bundle_tampered', detail: `IPv${fam}` };
    entries[name] = netset.entries;
  }
  if (Date.parse(bundle.manifest.expires) <= now) return { refused: 'cloud_bundle_expired', detail: bundle.manifest.expires };
  const installed = installedVersion(bundle.manifest.feed_id);
  if (installed !== null && bundle.manifest.version <= installed) return { refused: 'cloud_bundle_not_newer', detail: String(bundle.manifest.version) };
  return { bundle, keyId: bundle.signature.key_id, entries };
}
