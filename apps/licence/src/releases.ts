import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { compareVersions, releaseFileNameSchema, signedReleaseSchema, type SignedRelease } from '@rampart/contracts';

/*
 * Rampart releases, served from a folder the vendor fills with scripts/release-manifest.ts: each
 * release is its package file and a signed manifest (`*.release.json`). The authority signs
 * nothing and holds no key: it hands out what the vendor signed, and the console's agent verifies
 * it against the key its administrator pinned. The package lies beside the manifest's URL.
 */

/** The newest valid signed manifest in the folder, or null (none, or the folder missing). */
export async function latestRelease(dir: string): Promise<SignedRelease | null> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.release.json'));
  } catch {
    return null;
  }
  let latest: SignedRelease | null = null;
  for (const name of names) {
    try {
      const parsed = signedReleaseSchema.safeParse(JSON.parse(await readFile(path.join(dir, name), 'utf8')));
      if (parsed.success && (!latest || compareVersions(parsed.data.manifest.version, latest.manifest.version) > 0)) latest = parsed.data;
    } catch {
      // an unreadable file is not a release
    }
  }
  return latest;
}

export function registerReleases(app: FastifyInstance, dir: string): void {
  app.get('/v1/releases/latest', async (_request, reply) => {
    const latest = await latestRelease(dir);
    return latest ? reply.send(latest) : reply.code(404).send({ error: 'not_found' });
  });

  app.get('/v1/releases/:file', async (request, reply) => {
    const name = (request.params as { file?: string }).file ?? '';
    // Only a plain file name of this folder: nothing can climb out of it.
    if (!releaseFileNameSchema.safeParse(name).success) return reply.code(404).send({ error: 'not_found' });
    const file = path.join(dir, name);
    try {
      const info = await stat(file);
      if (!info.isFile()) return reply.code(404).send({ error: 'not_found' });
      return reply.header('content-type', 'application/octet-stream').header('content-length', info.size).send(createReadStream(file));
    } catch {
      return reply.code(404).send({ error: 'not_found' });
    }
  });
}
