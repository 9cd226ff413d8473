/**
 * Path traversal: "../" (and "..\\") in every spelling, Tomcat's "..;/", dot-only segments
 * ("....//" survives a naive "../" strip), absolute sensitive files, Windows admin shares.
 *
 * Location matters (the spec is silent; our choice): browsers resolve dot segments before sending,
 * so any ".." segment in the request path is an attack. In parameters, two or more levels or one
 * level towards a sensitive file is an attack; a single "../" in a path-like value is suspicious.
 * In free-text bodies (prose, documentation that mentions "../docs") a plain traversal with spaces
 * around is only suspicious, while encoded or overlong spellings are attacks everywhere.
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { looksBinary, looksLikeDocument } from '../text-shape.ts';
import { normalizePath } from './normalize.ts';
import { devServerRoute, dumpArchive } from './probed-names.ts';
import { findSensitivePath } from './sensitive-files.ts';

export function detectPathTraversal(value: string, location: InputLocation): DetectorHit | null {
  try {
    return detect(value, location);
  } catch {
    return null;
  }
}

function detect(value: string, location: InputLocation): DetectorHit | null {
  if (location === 'file_content' || !mayContainPath(value)) return null;
  if (location === 'raw_body' && looksBinary(value)) return null;
  const { text, encoded } = normalizePath(value);
  const unc = /(?:^|[\s'"=])\/\/[^/\s]+\/[a-z]\$(?:\/|$)/.exec(text);
  if (unc) return hit('traversal.admin_share', unc[0].trim(), 2);

  const { levels, parameterized } = countDotSegments(text);
  const sensitive = findSensitivePath(text);
  // Prose: a body value with spaces (or '+', form-encoded spaces) is text about paths, not a path.
  const prose = (location === 'body' || location === 'raw_body') && /[\s+]/.test(value.trim());

  if (levels > 0) {
    const evidence = value.slice(0, 120);
    // "/get/..": one level up from a path's last segment, nothing named: odd, not an escape.
    if (location === 'path' && !encoded && levels === 1 && !sensitive && text.endsWith('/..')) return hit('traversal.dot_segments', evidence, 1);
    // A browser sends an upload's base name only: `../1.7z` as a file name is written by hand.
    if (location === 'path' || location === 'file_name' || encoded) return hit('traversal.dot_segments', evidence, 2);
    if (sensitive) return hit('traversal.dot_segments', evidence, 2);
    if (levels >= 2) return hit('traversal.dot_segments', evidence, prose ? 1 : 2);
    // `..;/`: Tomcat drops the `;params` of a segment, so the dots still climb while a filter that
    // looks for "../" sees none. Nobody writes a relative path that way: evasion, like an encoding.
    if (parameterized && !prose) return hit('traversal.dot_segments', evidence, 2);
    if (!prose && text.startsWith('..')) return hit('traversal.dot_segments', evidence, 1);
  }
  if (sensitive) {
    // Tutorials name these files ("check /etc/os-release"); in a written document only the
    // secrets themselves are worth a second look.
    if (prose && looksLikeDocument(value)) return /passwd|shadow|\/proc\/self|win\.ini|id_rsa/.test(sensitive) ? hit('traversal.sensitive_file', sensitive, 1) : null;
    return hit('traversal.sensitive_file', sensitive, prose ? 1 : 2);
  }
  const dump = dumpArchive(value, location);
  if (dump) return hit('traversal.dump_file', dump, 1);
  const route = devServerRoute(value, location);
  return route ? hit('traversal.dev_server_route', route, 1) : null;
}

/** Cheap pre-filter: traversal needs a dot or a separator in some spelling. */
function mayContainPath(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // '.', '/', '\', '%', or anything non-ASCII (full-width and overlong forms)
    if (c === 46 || c === 47 || c === 92 || c === 37 || c > 127) return true;
  }
  return value.includes('0x') || value.includes('0X'); // C-style hex bytes: 0x2e0x2e0x2f
}

/**
 * Counts segments made only of two or more dots that sit between separators, or at the end after
 * a separator: "../", "/..", "....//", "..;/" (Tomcat ignores ";params" in a segment), and tells
 * whether one of them carried such a `;` parameter.
 */
function countDotSegments(text: string): { levels: number; parameterized: boolean } {
  let count = 0;
  let parameterized = false;
  let i = text.indexOf('..');
  while (i >= 0) {
    let end = i;
    while (text[end] === '.') end++;
    const startsSegment = i === 0 || /[/\s'"=:;,(]/.test(text[i - 1]!);
    let after = end;
    const withParams = text[after] === ';';
    if (withParams) {
      while (after < text.length && text[after] !== '/') after++;
    }
    const endsSegment = text[after] === '/' || (after === text.length && i > 0 && text[i - 1] === '/');
    if (startsSegment && endsSegment) {
      count++;
      // The parameter is one token (`..;jsessionid=1/`), not a sentence that happens to reach a '/'.
      if (withParams && !/\s/.test(text.slice(end, after))) parameterized = true;
    }
    i = text.indexOf('..', end);
  }
  return { levels: count, parameterized };
}

function hit(rule: string, evidence: string, severity: 1 | 2): DetectorHit {
  return { kind: 'path_traversal', rule, evidence: evidence.slice(0, 120), severity };
}
