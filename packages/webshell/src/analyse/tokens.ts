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
