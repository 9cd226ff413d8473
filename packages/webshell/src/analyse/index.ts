/**
 * Stage 4, analyse: what the code does, by language. PHP is parsed and its data flow followed;
 * JSP, ASP/ASPX and images get token-level checks. Files bigger than the parser bound get
 * signatures only: the parser is synchronous and must not eat a file's whole time budget.
 */
import type { FileScan } from '../file-scan.ts';
import { findingsOfSignals, type Signal } from '../signals.ts';
import { analyseAsp } from './asp.ts';
import { iisMetabaseSignal } from './iis-metabase.ts';
import { analyseJsp } from './jsp.ts';
import { analysePhp } from './php/index.ts';
import { isWorthParsing } from './php/worth.ts';
import { analysePolyglot } from './polyglot.ts';

export interface AnalyseOptions { parserMaxBytes: number }
export const defaultParserMaxBytes = 1024 * 1024;

export function analyse(scan: FileScan, options: AnalyseOptions): FileScan {
  const bytes = scan.bytes;
  if (!bytes || scan.unscanned) return scan;
  // latin1 keeps one character per byte, so offsets in the text are offsets in the file.
  const text = bytes.toString('latin1');
  let signals: Signal[] = [];
  switch (scan.language) {
    case 'php': {
      // Windows-only recon needs no request input, so it is read before the parse pre-check.
      signals = iisMetabaseSignal(text);
      if (bytes.length > options.parserMaxBytes || !isWorthParsing(text)) break;
      const result = analysePhp(text, scan.deadline);
      if (!result.ok) {
        const reason = result.reason === 'timeout' ? 'unscanned_timeout' : result.reason === 'too_complex' ? 'unscanned_too_complex' : 'unscanned_error';
        return { ...scan, unscanned: { reason, detail: result.detail } };
      }
      signals = [...signals, ...result.signals];
      break;
    }
    case 'jsp': signals = analyseJsp(text); break;
    case 'asp': case 'aspx': signals = [...analyseAsp(text), ...iisMetabaseSignal(text)]; break;
    case 'polyglot': signals = analysePolyglot(text); break;
    default: break;
  }
  return signals.length === 0 ? scan : { ...scan, findings: [...scan.findings, ...findingsOfSignals(signals, bytes)] };
}
