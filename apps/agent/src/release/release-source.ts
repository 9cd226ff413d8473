import { signedReleaseSchema, type ReleaseManifest } from '@rampart/contracts';
import { keyIdOf, verifyCanonical } from '../cloud/bundle.ts';

/** A signed release manifest is small; anything larger is not one. */
const manifestMaxBytes = 256 * 1024;

export type SourceAnswer =
  | { ok: true; manifest: ReleaseManifest }
  | { ok: false; state: 'offline' | 'refused'; reason: string; detail: string };

/** Why a fetch failed, in few words (the cause's code when Node gives one: ECONNREFUSED, ENOTFOUND, ...). */
export function fetchFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const text = cause?.code ?? cause?.message ?? (error as Error).message;
  return (error as Error).name === 'TimeoutError' ? 'timeout' : String(text).slice(0, 200);
}

/**
 * Reads the release source's manifest and checks it against the pinned vendor key: its shape,
 * the key id, the ed25519 signature over the canonical manifest (the cloud feeds' code).
 */
export async function readReleaseSource(url: string, publicKey: string, timeoutMs: number): Promise<SourceAnswer> {
  let text: string;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow', headers: { accept: 'application/json' } });
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: false, state: 'offline', reason: 'release_offline', detail: `HTTP ${response.status}` };
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body ?? []) {
      size += (chunk as Uint8Array).byteLength;
      if (size > manifestMaxBytes) return { ok: false, state: 'refused', reason: 'release_invalid', detail: `larger than ${manifestMaxBytes} bytes` };
      chunks.push(chunk as Uint8Array);
    }
    text = Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    return { ok: false, state: 'offline', reason: 'release_offline', detail: fetchFailure(error) };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, state: 'refused', reason: 'release_invalid', detail: 'not JSON' };
  }
  const parsed = signedReleaseSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, state: 'refused', reason: 'release_invalid', detail: issue ? `${issue.path.join('.') || 'release'}: ${issue.message}`.slice(0, 200) : 'release' };
  }
  const release = parsed.data;
  if (release.signature.key_id !== keyIdOf(publicKey)) return { ok: false, state: 'refused', reason: 'release_unknown_key', detail: release.signature.key_id };
  if (!verifyCanonical(release.manifest, publicKey, release.signature.value)) return { ok: false, state: 'refused', reason: 'release_bad_signature', detail: '' };
  return { ok: true, manifest: release.manifest };
}
