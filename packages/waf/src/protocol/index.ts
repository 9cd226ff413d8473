/**
 * Request-level checks (CRS 911-922, 930 files, 943): what is wrong with the request as a whole
 * rather than with one value — its framing, headers, target, multipart structure, scanners'
 * fingerprints, session fixation. Each family is a pure function of the request (and of the
 * phase's parsed inputs where names matter); the pipeline runs the families of each phase and
 * treats their hits like detector hits (severity 2 blocks in loose mode, 1 in strict).
 */
import type { RequestInput } from '../types.ts';
import { checkBodyInflates, checkContentEncoding } from './content-encoding.ts';
import { checkContentType, checkUndeclaredMultipart } from './content-type.ts';
import { checkFraming } from './framing.ts';
import { checkHeaders } from './headers.ts';
import type { ProtocolHit } from './hit.ts';
import { checkMultipart } from './multipart.ts';
import { checkParameters } from './parameters.ts';
import { checkRequestLine } from './request-line.ts';
import { checkRestrictedFiles } from './restricted-files.ts';
import { checkCallbackHosts, checkScanner } from './scanner.ts';
import type { RequestView } from './view.ts';

export type { ProtocolHit } from './hit.ts';
export { viewOf, type RequestView } from './view.ts';

type Family = (view: RequestView, inputs: readonly RequestInput[]) => ProtocolHit | null;

/** The families per phase (1 request line, 2 headers, 3 body), cheapest first. */
const families: Record<1 | 2 | 3, readonly Family[]> = {
  1: [checkRequestLine, checkRestrictedFiles, checkParameters, checkCallbackHosts],
  2: [checkScanner, checkFraming, checkContentType, checkHeaders, checkContentEncoding, checkCallbackHosts],
  3: [checkMultipart, checkUndeclaredMultipart, checkBodyInflates, checkParameters, checkCallbackHosts],
};

/** Every family's hit for the phase (at most one each), in order; a failing family is skipped. */
export function protocolHits(phase: 1 | 2 | 3, view: RequestView, inputs: readonly RequestInput[]): ProtocolHit[] {
  const hits: ProtocolHit[] = [];
  for (const family of families[phase]) {
    try {
      const hit = family(view, inputs);
      if (hit) hits.push(hit);
    } catch {
      // A check bug must not take the request down.
    }
  }
  return hits;
}
