import { buildBundle, generateFeedKeys } from '../src/cloud/bundle.ts';

/** Bundles for cloud tests, signed with real ed25519 keys made here (scripts/feed-bundle.ts uses the same code). */
export const feedKeys = generateFeedKeys();
export const otherKeys = generateFeedKeys();

export function bundleText(
  options: { id?: string; name?: string; version?: number; v4?: string; v6?: string; expiresInMs?: number; keys?: { publicKey: string; privateKey: string } } = {},
): string {
  const now = Date.now();
  return JSON.stringify(
    buildBundle(
      {
        feed_id: options.id ?? 'lab-feed', name: options.name ?? 'Lab feed', version: options.version ?? 1,
        date: new Date(now).toISOString(), expires: new Date(now + (options.expiresInMs ?? 86_400_000)).toISOString(),
        source: 'tests', licence: 'CC0-1.0',
      },
      { v4: options.v4 ?? '198.51.100.0/24\n', v6: options.v6 ?? '' },
      options.keys ?? feedKeys,
    ),
  );
}
