/**
 * Helpers for the token-level analyses (JSP, ASP/ASPX, images): the first match of a pattern as a
 * signal at its byte offset (the text is decoded latin1, so a character offset is a byte offset).
 */
import type { WebshellReason } from '@rampart/contracts';
import type { Signal } from '../signals.ts';

export function firstMatch(text: string, pattern: RegExp): RegExpExecArray | null {
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : pattern.flags + 'g');
  return global.exec(text);
}

export function signalAt(match: RegExpExecArray, reason: WebshellReason, weight: number): Signal {
  return { reason, weight, offset: match.index, length: Math.max(match[0].length, 1) };
}

/** The first of several patterns that matches, or null. */
export function anyMatch(text: string, patterns: readonly RegExp[]): RegExpExecArray | null {
  let best: RegExpExecArray | null = null;
  for (const pattern of patterns) {
    const match = firstMatch(text, pattern);
    if (match && (!best || match.index < best.index)) best = match;
  }
  return best;
}

const assignment = /\b([A-Za-z_]\w*)\s*(?::\s*[\w.<>[\]]+\s*)?=(?!=)\s*([^;\r\n]{0,300})/g;

/**
 * Names that hold request input, followed through assignments to a fixed point (bounded rounds):
 * `x1 = Request("a") : x2 = x1`, `String p = request.getParameter("p"); File f = new File(p);`.
 * Token level and flow-insensitive: one assignment from input taints the name everywhere.
 */
export function taintedNames(text: string, source: RegExp): Set<string> {
  const pairs: [string, string][] = [];
  for (const match of text.matchAll(assignment)) if (match[1] && match[2] !== undefined) pairs.push([match[1].toLowerCase(), match[2]]);
  const names = new Set<string>();
  for (let round = 0; round < 5; round += 1) {
    let grew = false;
    for (const [name, value] of pairs) {
      if (names.has(name)) continue;
      if (source.test(value) || mentions(value, names)) { names.add(name); grew = true; }
    }
    if (!grew) break;
  }
  return names;
}

/** Whether an expression mentions any of the names (as whole words, case-insensitive). */
export function mentions(expression: string, names: ReadonlySet<string>): boolean {
  if (names.size === 0) return false;
  for (const word of expression.toLowerCase().matchAll(/[a-z_]\w*/g)) if (names.has(word[0])) return true;
  return false;
}

/**
 * Source text as the compiler reads it, for matching: `\x41` and `\u0041` escapes decoded, and
 * literal pieces joined (`"unsa" + "fe"`, `"Exe" & "cute"`). `rawOffset[i]` is where the i-th
 * character of the result came from, so signals found in it still point into the file.
 */
export function normalizeScript(raw: string): { text: string; rawOffset: (index: number) => number } {
  const out: string[] = [];
  const from: number[] = [];
  const join = /^(["'])\s*[+&]\s*\1/;
  for (let i = 0; i < raw.length;) {
    const c = raw[i] as string;
    if (c === '\\' && (raw[i + 1] === 'x' || raw[i + 1] === 'u')) {
      const width = raw[i + 1] === 'x' ? 2 : 4;
      const hex = raw.slice(i + 2, i + 2 + width);
      if (hex.length === width && /^[0-9a-fA-F]+$/.test(hex)) { out.push(String.fromCharCode(parseInt(hex, 16))); from.push(i); i += 2 + width; continue; }
    }
    if (c === '"' || c === "'") {
      const glue = join.exec(raw.slice(i, i + 64));
      if (glue) { i += glue[0].length; continue; }
    }
    out.push(c);
    from.push(i);
    i += 1;
  }
  return { text: out.join(''), rawOffset: (index) => from[Math.min(index, from.length - 1)] ?? 0 };
}

/** Whether a text has anything normalizeScript would change. */
export const needsNormalizing = (text: string): boolean => /\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|(["'])\s*[+&]\s*\1/.test(text);
