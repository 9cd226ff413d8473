export { percentDecode, percentDecodeRepeatedly } from './url.ts';
export { decodeJsEscapes } from './js-escapes.ts';
export { decodeHtmlEntities } from './html-entities.ts';
export { decodeBase64Text, looksLikeBase64 } from './base64.ts';
export { canonicalize } from './canonical.ts';
export { decodeUtf7 } from './utf7.ts';
export { decodedVariants, defaultVariantLimits, type VariantLimits } from './variants.ts';
