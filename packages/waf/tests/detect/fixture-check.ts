/**
 * Shared assertions of the detector fixture tests: every attack is found at (at least) the
 * expected severity with the detector's kind, every benign value passes (or stays below the given
 * severity), and nothing throws on hostile shapes.
 */
import { expect, it } from 'vitest';
import type { AttackKind, Detector, InputLocation } from '../../src/types.ts';

export interface AttackCase {
  value: string;
  location?: InputLocation;
  /** Severity the hit must reach; default 2 (loose mode blocks). */
  severity?: 1 | 2;
  /** The rule id that must fire, when the test pins it. */
  rule?: string;
}

export interface BenignCase {
  value: string;
  location?: InputLocation;
  /** Allow a hit below this severity ("suspicious" is acceptable here); default: no hit at all. */
  below?: 1 | 2;
}

export function checkAttacks(detector: Detector, kind: AttackKind, cases: readonly AttackCase[], fallback: InputLocation = 'query'): void {
  it.each(cases.map((c) => [JSON.stringify(c.value).slice(0, 70), c] as const))('detects %s', (_label, c) => {
    const found = detector(c.value, c.location ?? fallback);
    expect(found, `no hit for ${JSON.stringify(c.value)}`).not.toBeNull();
    expect(found!.kind).toBe(kind);
    expect(found!.severity).toBeGreaterThanOrEqual(c.severity ?? 2);
    expect(found!.evidence.length).toBeLessThanOrEqual(120);
    if (c.rule) expect(found!.rule).toBe(c.rule);
  });
}

export function checkBenign(detector: Detector, cases: readonly BenignCase[], fallback: InputLocation = 'query'): void {
  it.each(cases.map((c) => [JSON.stringify(c.value).slice(0, 70), c] as const))('passes %s', (_label, c) => {
    const found = detector(c.value, c.location ?? fallback);
    if (c.below === undefined) expect(found, `unexpected ${JSON.stringify(found)}`).toBeNull();
    else expect(found?.severity ?? 0).toBeLessThan(c.below);
  });
}

/** Hostile shapes: huge, deeply nested, unbalanced, binary. Must return quickly without throwing. */
export function checkRobust(detector: Detector): void {
  it('never throws and stays fast on hostile shapes', () => {
    const shapes = [
      '',
      '\u0000\uffff\ud800',
      '${'.repeat(5000),
      '{{'.repeat(5000) + '}}'.repeat(10),
      "'".repeat(10000),
      '(' .repeat(10000),
      '../'.repeat(5000),
      '`$('.repeat(3000),
      '<!--#'.repeat(3000),
      '<!DOCTYPE x [' + '<!ENTITY a "&b;">'.repeat(2000),
      'a;'.repeat(20000),
      '%0d%0a'.repeat(5000),
      '$ne:'.repeat(5000),
      'A'.repeat(200000),
    ];
    const started = performance.now();
    for (const s of shapes) {
      for (const loc of ['query', 'body', 'path', 'file_name', 'file_content', 'xml'] as const) {
        expect(() => detector(s, loc)).not.toThrow();
      }
    }
    expect(performance.now() - started).toBeLessThan(3000);
  });
}
