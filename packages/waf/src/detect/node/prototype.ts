/**
 * Prototype pollution: a parameter name or JSON key that walks into `__proto__` or
 * `constructor.prototype` (`?__proto__[isAdmin]=1`, `a[constructor][prototype][x]=…`,
 * `{"__proto__": {…}}`). Query-string and body parsers (qs, lodash.merge, jQuery.extend) turn such
 * paths into writes on Object.prototype. Names are paths, not prose: there it is a clear attack.
 * In a value the same path counts when it is written as one (`__proto__.x=…`, `"__proto__":`).
 */
import type { DetectorHit, InputLocation } from '../../types.ts';
import { hit } from './hit.ts';

const nameLocations = new Set<InputLocation>(['query_name', 'body_name', 'cookie_name']);

export function judgePrototypePollution(text: string, location: InputLocation): DetectorHit | null {
  const isName = nameLocations.has(location);
  let guard = 0;
  for (let at = text.indexOf('__proto__'); at >= 0 && guard < 16; at = text.indexOf('__proto__', at + 9), guard++) {
    if (isIdentChar(text.charCodeAt(at - 1)) || isIdentChar(text.charCodeAt(at + 9))) continue;
    if (isName || text.trim() === '__proto__') return hit('node.prototype_pollution', text, at, 2);
    // In a value: written as a path or a key (`__proto__.x`, `__proto__[x]`, `"__proto__":`).
    if (/^(?:\s*[.[]|["']\s*:|\]\[)/.test(text.slice(at + 9, at + 13))) return hit('node.prototype_pollution', text, at, 2);
  }
  guard = 0;
  for (let at = text.indexOf('constructor'); at >= 0 && guard < 16; at = text.indexOf('constructor', at + 11), guard++) {
    if (isIdentChar(text.charCodeAt(at - 1))) continue;
    // constructor.prototype, constructor[prototype], ["constructor"]["prototype"]
    const gap = /^["'\]]{0,2}\s*(?:\.|\[\s*["']?)\s*prototype\b["'\]]{0,2}/.exec(text.slice(at + 11, at + 30));
    if (!gap) continue;
    // A name is a path; in a value the path must go on (`.x`, `[x]`, `=`): "the constructor.prototype chain" is prose.
    const after = text.slice(at + 11 + gap[0].length, at + 11 + gap[0].length + 2);
    if (isName || /^\s*[.[=]/.test(after)) return hit('node.prototype_pollution', text, at, 2);
  }
  return null;
}

function isIdentChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
}
