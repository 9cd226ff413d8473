/**
 * Files and routes asked for by name rather than reached by climbing: what a scanner tries on
 * every site because some site left it there. Both suspicious only (strict mode): each is a name an
 * application of the right kind could serve on purpose.
 */
import type { InputLocation } from '../../types.ts';

const parameterLocations = new Set<InputLocation>(['query', 'body', 'xml', 'cookie']);

/**
 * `?file=backup.sql.zip`, `download=db/site.sql.gz`: a database dump packed in an archive, named in
 * a parameter — the way a file-serving script (`download.php?file=`) is asked to hand over the
 * database. The value is one path, no sentence (no blanks), and ends in the dump's double
 * extension; a bare `schema.sql` is a migration or a code sample and stays out. (The request path
 * itself is judged with the other restricted files, src/protocol/restricted-files.ts.)
 */
export function dumpArchive(value: string, location: InputLocation): string | null {
  if (!parameterLocations.has(location) || value.length > 512) return null;
  const text = value.trim();
  if (/\s/.test(text)) return null;
  const base = text.slice(Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\')) + 1);
  return /^[^.][^?#]*\.sql\.(?:zip|gz|tgz|bz2|xz|7z|rar|tar|zst)$/i.test(base) ? base : null;
}

/**
 * `/@id/__x00__…`, `/@fs/home/…`: the module routes of Vite's development server — `__x00__` is how
 * it writes the NUL that starts a virtual module's id, `/@fs/` serves files by their absolute path
 * (CVE-2025-30208 and its successors read any file through them). Only a development server answers
 * there, and one reachable through the gateway is the finding: a production site has no such route.
 * Read on the request path, which must start with the route. `/@fs/` counts only before a file
 * system's top folder or a drive: `/@fs/…` alone is also a profile named "fs" on Mastodon or Medium.
 */
export function devServerRoute(value: string, location: InputLocation): string | null {
  if (location !== 'path') return null;
  const m = /^\/@(?:id\/__x00__|fs\/(?:(?:etc|home|root|users|usr|var|tmp|opt|srv|proc|sys|mnt|app|workspace)\/|[a-z]:\/))/i.exec(value);
  return m ? value.slice(0, 120) : null;
}
