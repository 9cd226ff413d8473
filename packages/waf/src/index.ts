export * from './types.ts';
export * from './policy/index.ts';
export { inspect, inspectPhases, inspectResponseHead, blocks, type InspectOptions, type Phase, type WafResponseHead } from './inspect.ts';
export { streamMultipart, type StreamedMultipart } from './streamed-multipart.ts';
/** Content-Disposition parameters as the multipart reader reads them (the gateway's upload scan names files the same way). */
export { dispositionParam, extendedParam } from './parse/multipart.ts';
export { requestInputs, requestLineInputs, headerInputs, bodyInputs, defaultInputLimits, type InputLimits } from './inputs.ts';
export { decodedVariants, defaultVariantLimits, type VariantLimits } from './decode/variants.ts';
export { detectors, type DetectorEntry } from './detect/index.ts';
export { detectSqli, detectSqliValue } from './detect/sqli/index.ts';
export { detectXss, detectXssValue } from './detect/xss/index.ts';
