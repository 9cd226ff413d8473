/**
 * Perl's `@{[ … ]}`: inside a double-quoted string (a template, a log line handed to eval) the
 * anonymous-array dereference runs its contents as code — `"@{[ system 'id' ]}"`. CRS groups it
 * with the other runtimes of 934. No prose or markup writes `@{` followed by `[`.
 */
import type { DetectorHit } from '../../types.ts';
import { hit } from './hit.ts';

export function findPerlInterpolation(text: string): DetectorHit | null {
  for (let at = text.indexOf('@{'), guard = 0; at >= 0 && guard < 32; at = text.indexOf('@{', at + 2), guard++) {
    let i = at + 2;
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text[i] === '[') return hit('node.perl_interpolation', text, at, 2);
  }
  return null;
}
