/**
 * PHP analysis: parse, collect facts, run taint to a fixed point, then read the sinks and the
 * literals. Returns signals; the caller turns them into findings.
 */
import { DeadlineExceeded } from './ast.ts';
import { collectFacts } from './facts.ts';
import { fileManagerSignal } from './file-manager.ts';
import { formFieldNames } from './form-fields.ts';
import { ldPreloadSignal } from './ld-preload.ts';
import { literalSignals } from './literals.ts';
import { parsePhp } from './parse.ts';
import { findSinks } from './sinks.ts';
import { Taint } from './taint.ts';
import { sqlClientSignal } from './sql-client.ts';
import { toolkitSignal } from './toolkit.ts';
import { xpathCallbackSignal } from './xpath-callback.ts';
import type { Signal } from '../../signals.ts';

export type PhpAnalysis = { ok: true; signals: Signal[] } | { ok: false; reason: 'too_complex' | 'timeout' | 'error'; detail: string };

/** How deep constant code run by eval is analysed in turn (eval of eval of ...). */
const maxNesting = 2;
const maxNestedBytes = 256 * 1024;

export function analysePhp(text: string, deadline: number, nesting = 0): PhpAnalysis {
  const parsed = parsePhp(text);
  if (!parsed.ok) return { ok: false, reason: parsed.tooComplex ? 'too_complex' : 'error', detail: parsed.detail };
  if (Date.now() > deadline) return { ok: false, reason: 'timeout', detail: 'parse took the whole time budget' };
  try {
    const facts = collectFacts(parsed.program, deadline);
    const taint = new Taint(facts, deadline, nesting === 0 ? formFieldNames(text) : undefined);
    taint.run();
    const nested = nesting < maxNesting ? (code: string): Signal[] => {
      if (code.length > maxNestedBytes) return [];
      const inner = analysePhp(`<?php ${code.replace(/^\s*<\?(?:php)?/i, '')}`, deadline, nesting + 1);
      return inner.ok ? inner.signals : [];
    } : undefined;
    return { ok: true, signals: [...findSinks({ facts, taint, text, ...(nested ? { nested } : {}) }), ...literalSignals(facts, text.length), ...toolkitSignal(text), ...sqlClientSignal(facts, taint), ...fileManagerSignal(facts, taint), ...xpathCallbackSignal(text), ...ldPreloadSignal(text)] };
  } catch (error) {
    if (error instanceof DeadlineExceeded) return { ok: false, reason: 'timeout', detail: error.message };
    if (error instanceof RangeError) return { ok: false, reason: 'too_complex', detail: error.message };
    throw error;
  }
}
