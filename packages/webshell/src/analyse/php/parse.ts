/**
 * Parses PHP with php-parser in its tolerant mode: shells are often broken or written for PHP 4,
 * and a partial tree is still worth reading. The parser is synchronous and recursive, so the input
 * it gets is bounded (bigger files get signatures only) and a stack overflow on absurd nesting is
 * reported as "too complex" rather than thrown.
 */
import { Engine } from 'php-parser';
import type { PhpNode } from './ast.ts';

const engine = new Engine({
  parser: { extractDoc: false, suppressErrors: true, php8: true },
  ast: { withPositions: true, withSource: false },
  lexer: { short_tags: true, asp_tags: false },
});

export type ParseResult = { ok: true; program: PhpNode } | { ok: false; tooComplex: boolean; detail: string };

export function parsePhp(text: string): ParseResult {
  try {
    return { ok: true, program: engine.parseCode(text, 'scan.php') as unknown as PhpNode };
  } catch (error) {
    const tooComplex = error instanceof RangeError;
    return { ok: false, tooComplex, detail: String((error as Error).message).slice(0, 200) };
  }
}
