import type { InputLocation } from '../types.ts';
import { decodeBase64Text } from './base64.ts';
import { canonicalize } from './canonical.ts';
import { decodeHtmlEntities } from './html-entities.ts';
import { decodeJsEscapes } from './js-escapes.ts';
import { percentDecode } from './url.ts';
import { decodeUtf7 } from './utf7.ts';

/**
 * The distinct readings of one raw value that detectors look at: the raw value itself, then
 * every decoding attackers layer (URL, double URL, `%u`, JS escapes, HTML entities, base64) and
 * the canonical form, applied breadth-first to each new reading. Bounded twice — by the number
 * of readings and by the depth of layering — so a hostile value cannot make it explode.
 */
export interface VariantLimits {
  /** Distinct readings, the raw one included. */
  maxVariants: number;
  /** How many decodings may be stacked on top of each other. */
  maxDepth: number;
}

export const defaultVariantLimits: VariantLimits = { maxVariants: 10, maxDepth: 4 };

/**
 * `+` means space in query strings, urlencoded bodies and (by habit of many frameworks) cookies;
 * paths and unlabelled bodies get the reading too, because some applications decode them that
 * way (the raw reading stays, so nothing is lost).
 */
function plusIsSpace(location: InputLocation): boolean {
  return location === 'query' || location === 'query_name' || location === 'body' || location === 'body_name' || location === 'cookie' || location === 'path' || location === 'raw_body';
}

/**
 * Text that went through form encoding: a `+`, at least one `%XX` escape and no blank (the
 * encoder turns every space into `+`). Such text reached the application form-decoded, `+` as a
 * space, where a plain percent-decoding keeps the `+`: a header the client filled with a
 * form-encoded value (`')++OR+JSON_EXTRACT(`), or a parameter encoded twice, whose second layer
 * (`FROM%2B%2560t%2560` → `FROM+%60t%60`) is form encoding too. Base64 and cookie values with `+`
 * carry no escape, URLs typed into headers hold blanks or no `+`: they get no such reading.
 */
function looksFormEncoded(text: string): boolean {
  if (text.indexOf('+') < 0 || text.indexOf(' ') >= 0) return false;
  return /%[0-9a-fA-F]{2}/.test(text);
}

/**
 * A header's value is no form field: its plain percent-decoding stays, the form reading is one
 * more, and only where the value looks form-encoded (a `+` in a token, a URL or base64 is kept).
 */
function headerFormReading(value: string, location: InputLocation): string | null {
  return location === 'header' && looksFormEncoded(value) ? percentDecode(value, true) : null;
}

function hasNonAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return true;
  return false;
}

type Decoder = (value: string, location: InputLocation, depth: number) => string | null;

/**
 * A value that is already markup (it holds a start or end tag: editor HTML, a post) uses entities to
 * escape text: `<code>&lt;script&gt;</code>` shows a tag, a browser does not run it. Decoding such
 * a value would turn the escaped text into markup, so it gets no entity reading; the XSS rules
 * still decode the entities of its attribute values (`href="&#106;avascript:…"`), where browsers
 * decode them too. Entity-encoded payloads without real tags (`&lt;script&gt;…`) keep the reading,
 * and so do XML bodies and uploaded files: an XML parser hands the application `&amp;` as `&`.
 */
function holdsMarkup(value: string): boolean {
  for (let at = value.indexOf('<'); at >= 0; at = value.indexOf('<', at + 1)) {
    const c = value.charCodeAt(at + 1) === 47 ? value.charCodeAt(at + 2) : value.charCodeAt(at + 1);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return true;
  }
  return false;
}

const decoders: readonly Decoder[] = [
  // Past the first layer a `+` of a query or body came from `%2B`: the value was form-encoded
  // twice when it still looks form-encoded, and its `+` is a space as well.
  (v, loc, depth) => percentDecode(v, plusIsSpace(loc) && (depth === 0 || looksFormEncoded(v))),
  (v, loc) => headerFormReading(v, loc),
  (v, loc) => (loc !== 'raw_body' && loc !== 'xml' && loc !== 'file_content' && holdsMarkup(v) ? null : decodeHtmlEntities(v)),
  (v) => decodeJsEscapes(v),
  (v) => canonicalize(v),
  // Fullwidth and compatibility forms (`＜script＞`): servers with best-fit mapping read them as ASCII.
  (v) => (hasNonAscii(v) ? v.normalize('NFKC') : v),
  (v) => decodeUtf7(v),
  // Base64 only on the first two layers: a decoded base64 text that is itself base64 is noise.
  (v, _loc, depth) => (depth <= 1 ? decodeBase64Text(v) : null),
];

export function decodedVariants(raw: string, location: InputLocation, limits: VariantLimits = defaultVariantLimits): string[] {
  const variants = [raw];
  const seen = new Set(variants);
  let layer = [raw];
  for (let depth = 0; depth < limits.maxDepth && layer.length > 0; depth++) {
    const next: string[] = [];
    for (const value of layer) {
      for (const decode of decoders) {
        const decoded = decode(value, location, depth);
        if (decoded === null || decoded === value || decoded.length === 0 || seen.has(decoded)) continue;
        seen.add(decoded);
        variants.push(decoded);
        next.push(decoded);
        if (variants.length >= limits.maxVariants) return variants;
      }
    }
    layer = next;
  }
  return variants;
}
