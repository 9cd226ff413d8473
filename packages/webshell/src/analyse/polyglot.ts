/** An image that carries script: JPEG/PNG/GIF magic bytes with a PHP open tag or ASP code inside. */
import { firstMatch, signalAt } from './tokens.ts';
import { type Signal, strong } from '../signals.ts';
import { embeddedScript } from '../classify.ts';

export function analysePolyglot(text: string): Signal[] {
  const match = firstMatch(text, embeddedScript);
  return match ? [signalAt(match, 'polyglot_image', strong)] : [];
}
