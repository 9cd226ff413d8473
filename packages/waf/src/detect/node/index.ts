/**
 * Server-side JavaScript injection (CRS 934: Node.js) and its neighbours in that group:
 *  - serialized functions of node-serialize (`_$$ND_FUNC$$_`) and funcster (`__js_function`): the
 *    library calls what it deserializes;
 *  - code that reaches Node's process from an evaluated expression (`process.mainModule`,
 *    `require.main.constructor._load`, `this.constructor.constructor(…)`, `new Function(…)`),
 *    read as member chains (js-members.ts), not as words;
 *  - prototype pollution in parameter names and JSON keys (`__proto__[x]`, `constructor[prototype]`);
 *  - Perl's `@{[ … ]}` interpolation and whole-value infinite loops (`while(true);`) sent to an eval.
 * Prose mentions (a post about `process.env`) stay below the loose threshold: severity follows
 * whether the value IS the expression or merely contains the words.
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { looksBinary, looksLikeDocument } from '../text-shape.ts';
import { hit } from './hit.ts';
import { judgeMemberChains } from './js-members.ts';
import { judgeInfiniteLoop } from './loops.ts';
import { findPerlInterpolation } from './perl-interpolation.ts';
import { judgePrototypePollution } from './prototype.ts';
import { scannedPart } from '../scan-limit.ts';

export function detectNodeInjection(value: string, location: InputLocation, _name?: string): DetectorHit | null {
  try {
    if (location === 'file_content') return null;
    const text = scannedPart(value);
    const found = detect(text, location);
    if (!found) return null;
    // Binary data read as text holds these words by chance: checked only when something was found.
    if ((location === 'raw_body' || location === 'body') && looksBinary(value)) return null;
    if (found.severity < 2 || evasive.has(found.rule)) return found;
    if ((location === 'body' || location === 'raw_body') && looksLikeDocument(text)) return { ...found, severity: 1 };
    return found;
  } catch {
    return null;
  }
}

/** Shapes no post needs to quote verbatim: they stay clear attacks inside documents. */
const evasive = new Set(['node.serialized_function', 'node.flight_reference']);

/** One pass over the value: every check below needs one of these words. */
const anyMarker = /_\$\$ND_FUNC|__js_function|__proto__|constructor|prototype|@\{|while|for|process|require|module|global|console|unction|\\u(?:00[4-7]|\{)/;

function detect(text: string, location: InputLocation): DetectorHit | null {
  if (!anyMarker.test(text)) return null;
  const nd = text.indexOf('_$$ND_FUNC$$_');
  if (nd >= 0) return hit('node.serialized_function', text, nd, 2);
  const funcster = text.indexOf('__js_function');
  if (funcster >= 0) return hit('node.serialized_function', text, funcster, 2);
  return (
    judgePrototypePollution(text, location) ??
    findPerlInterpolation(text) ??
    judgeInfiniteLoop(text) ??
    judgeMemberChains(text)
  );
}

