/**
 * Signals from the shape of the code rather than its flow: long high-entropy literals (packed
 * payloads), a file that is almost all one literal, decoders nested in decoders, names spelled with
 * chr(). Each is weak or medium alone: vendor code embeds fonts, images and tables as literals.
 */
import { type PhpNode, argumentsOf, isNode, lengthOf, plainName, startOf } from './ast.ts';
import { decoderNames } from './constant.ts';
import type { Facts } from './facts.ts';
import { type Signal, medium, weak } from '../../signals.ts';

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < text.length; i += 1) { const c = text.charCodeAt(i); counts.set(c, (counts.get(c) ?? 0) + 1); }
  let bits = 0;
  for (const count of counts.values()) { const p = count / text.length; bits -= p * Math.log2(p); }
  return bits;
}

const longLiteral = 600;
/** Base64 of images and fonts is data, not a payload: PNG, JPEG, GIF, WOFF, TTF, ICO, SVG, PDF. */
const mediaBase64 = /^(?:data:|iVBORw0|\/9j\/|R0lGOD|d09GR|d09GMg|AAEAAA|AAABAA|PHN2Zy|PD94bWwg|JVBERi)/;

export function literalSignals(facts: Facts, textLength: number): Signal[] {
  const signals: Signal[] = [];
  let largest: PhpNode | undefined;
  let largestLength = 0;
  for (const node of facts.strings) {
    const value = typeof node.value === 'string' ? node.value : '';
    if (value.length > largestLength) { largest = node; largestLength = value.length; }
    if (value.length < longLiteral) continue;
    const sample = value.slice(0, 4096);
    const compact = sample.replace(/\s+/g, '');
    if (mediaBase64.test(compact)) continue;
    // Payload alphabets: base64, hex, or binary-ish bytes; prose and markup have spaces and lower entropy.
    const spaces = sample.length - compact.length;
    if (spaces / sample.length > 0.05) continue;
    if (entropy(compact) >= 5.0 || (/^[0-9a-f]+$/i.test(compact) && compact.length >= longLiteral)) {
      signals.push({ reason: 'high_entropy_literal', weight: 4, offset: startOf(node), length: lengthOf(node) });
    }
  }
  if (largest && textLength >= 1024 && largestLength / textLength >= 0.7) {
    signals.push({ reason: 'mostly_one_literal', weight: 4, offset: startOf(largest), length: lengthOf(largest) });
  }
  let chrCalls = 0;
  let firstChr: PhpNode | undefined;
  for (const { node } of facts.sites) {
    if (node.kind !== 'call') continue;
    const name = plainName(node.what);
    if (name === 'chr') { chrCalls += 1; firstChr ??= node; continue; }
    if (name === undefined || !decoderNames.has(name) || name === 'urldecode' || name === 'rawurldecode') continue;
    const inner = argumentsOf(node)[0];
    const innerName = isNode(inner) && inner.kind === 'call' ? plainName(inner.what) : undefined;
    if (innerName && decoderNames.has(innerName)) signals.push({ reason: 'decode_chain', weight: medium - 1, offset: startOf(node), length: lengthOf(node) });
  }
  if (chrCalls >= 12 && firstChr) signals.push({ reason: 'chr_concatenation', weight: weak + 1, offset: startOf(firstChr), length: lengthOf(firstChr) });
  return signals;
}
