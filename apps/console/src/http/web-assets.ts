import type { FastifyReply } from 'fastify';

/*
 * How the built web app is served (issue 27): compressed, and cached by what its name promises.
 * - The build writes `file.br` and `file.gz` beside every text file (apps/web/vite.config.ts); with
 *   @fastify/static's `preCompressed` the console sends the best one the browser accepts (br, then
 *   gzip) and the file itself to a client that accepts neither, with `Vary: Accept-Encoding`.
 *   Compressed once at build time rather than per request: nothing to compute or cache here.
 * - vite names every file under assets/ `<name>-<8-character hash>.<ext>`: its content never changes
 *   under that name, so browsers keep it a year without asking again.
 * - Everything else (index.html, trust.html) names those files and must be asked for afresh on
 *   every load (`no-cache`: the browser revalidates with its ETag, a 304 when nothing changed), or
 *   an upgrade would leave an open tab on old chunks that are gone.
 */
export const immutableCache = 'public, max-age=31536000, immutable';
export const revalidateCache = 'no-cache';

/** `.../assets/main-B1kII9C_.js` (or its `.br` / `.gz`): a file vite named by its content. */
export function isHashedAsset(path: string): boolean {
  return /(^|[\\/])assets[\\/][^\\/]+-[\w-]{8}\.[a-z0-9]+(\.br|\.gz)?$/i.test(path);
}

/** @fastify/static's `setHeaders`: runs for every file it sends, after its own headers. */
export function setWebAssetHeaders(reply: FastifyReply, path: string): void {
  reply.header('cache-control', isHashedAsset(path) ? immutableCache : revalidateCache);
}
