/**
 * A value that is an endless loop, `while(true);` and its spellings (`while(!0)`, `while(!![])`,
 * `while(Infinity)`, `while(new Date)`): sent to a server that evaluates it, it pins the event
 * loop (CRS 934160, Node.js denial of service). Only the whole value counts, and only with a
 * condition that is a constant — "while (you wait)" is a sentence.
 */
import type { DetectorHit } from '../../types.ts';
import { hit } from './hit.ts';

/** Literals and globals by truthiness (a global object or constructor is truthy). */
const falsy = new Set(['false', 'null', 'undefined', 'nan', '""', "''", '``', '0']);
const truthy = new Set(['true', 'infinity', 'this', 'string', 'object', 'array', 'number', 'boolean', 'date', 'new date', 'new date()', '{}', '[]']);

export function judgeInfiniteLoop(text: string): DetectorHit | null {
  if (text.length > 256) return null;
  const trimmed = text.trim();
  if (!/^(?:while|for)\s*\(/i.test(trimmed)) return null;
  if (/^for\s*\(\s*;\s*;\s*\)/i.test(trimmed)) return hit('node.infinite_loop', text, 0, 2);
  const open = trimmed.indexOf('(');
  let depth = 0;
  let close = -1;
  for (let i = open; i < trimmed.length; i++) {
    if (trimmed[i] === '(') depth++;
    else if (trimmed[i] === ')' && --depth === 0) {
      close = i;
      break;
    }
  }
  if (close < 0) return null;
  // After the condition: nothing, `;`, an empty body, or stray closing parentheses.
  if (!/^[\s;{})]*$/.test(trimmed.slice(close + 1))) return null;
  return isConstant(trimmed.slice(open + 1, close)) ? hit('node.infinite_loop', text, 0, 2) : null;
}

/**
 * Unary operators, parentheses and one literal or global, evaluated: `!0`, `!![]`, `-1`,
 * `new Date` loop forever; `!true`, `!!""` do not (and are no denial of service).
 */
function isConstant(condition: string): boolean {
  let c = condition.trim();
  let negations = 0;
  let numeric = false;
  for (let guard = 0; guard < 16; guard++) {
    if (c.startsWith('(') && c.endsWith(')')) c = c.slice(1, -1).trim();
    else if (c.startsWith('!')) {
      negations++;
      c = c.slice(1).trim();
    } else if (/^[+\-~]/.test(c)) {
      numeric = true;
      c = c.slice(1).trim();
    } else break;
  }
  const atom = c.toLowerCase().replace(/\s+/g, ' ');
  let value: boolean;
  if (/^\d+(?:\.\d+)?$/.test(atom)) value = Number(atom) !== 0;
  else if (falsy.has(atom)) value = false;
  else if (truthy.has(atom)) value = numeric ? atom === 'true' || atom === 'infinity' : true; // +[] is 0, -{} NaN
  else return false;
  return negations % 2 === 0 ? value : !value;
}
