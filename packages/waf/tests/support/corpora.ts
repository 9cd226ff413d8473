import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shared corpora folder, read in place (never copied into the repo): RAMPART_CORPORA, else
 * `<repo root>/../shared/corpora`, else /work/shared/corpora. Null when none exists, so corpus
 * tests can skip with a message.
 */
export function corporaRoot(): string | null {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
  const candidates = [process.env.RAMPART_CORPORA, join(repoRoot, '..', 'shared', 'corpora'), '/work/shared/corpora'];
  for (const candidate of candidates) if (candidate && existsSync(join(candidate, 'waf'))) return candidate;
  return null;
}
