import { createHash } from 'node:crypto';
import { releaseFormat, type ReleaseManifest, type SignedRelease } from '@rampart/contracts';
import { keyIdOf, signCanonical } from '../cloud/bundle.ts';

/**
 * The vendor's side (scripts/release-manifest.ts, tests): a package's manifest with its size and
 * SHA-256, signed like a feed manifest (ed25519 over the canonical JSON).
 */
export function signRelease(
  meta: Pick<ReleaseManifest, 'version' | 'date' | 'notes' | 'file'>,
  packageBytes: Uint8Array,
  keys: { publicKey: string; privateKey: string },
): SignedRelease {
  const manifest: ReleaseManifest = { product: 'rampart', ...meta, size: packageBytes.byteLength, sha256: createHash('sha256').update(packageBytes).digest('hex') };
  return { format: releaseFormat, manifest, signature: { alg: 'ed25519', key_id: keyIdOf(keys.publicKey), value: signCanonical(manifest, keys) } };
}
