/**
 * Server-side includes: an SSI directive <!--#name …--> that the server would run. exec, include,
 * config and printenv act on the server (2); echo / set / fsize / flastmod / if probe it (1).
 */
import type { DetectorHit, InputLocation } from '../../types.ts';

const acting = new Set(['exec', 'include', 'config', 'printenv']);
const probing = new Set(['echo', 'set', 'fsize', 'flastmod', 'if', 'elif', 'else', 'endif']);

export function detectSsi(value: string, _location: InputLocation): DetectorHit | null {
  try {
    let at = value.indexOf('<!--');
    for (let guard = 0; at >= 0 && guard < 100; guard++) {
      const m = /^<!--\s*#\s*([a-z]+)/i.exec(value.slice(at, at + 40));
      if (m) {
        const directive = m[1]!.toLowerCase();
        if (acting.has(directive)) return hit(value.slice(at), 2);
        if (probing.has(directive)) return hit(value.slice(at), 1);
      }
      at = value.indexOf('<!--', at + 4);
    }
    return null;
  } catch {
    return null;
  }
}

function hit(evidence: string, severity: 1 | 2): DetectorHit {
  return { kind: 'ssi', rule: 'ssi.directive', evidence: evidence.slice(0, 120), severity };
}
