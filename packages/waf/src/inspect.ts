import { decodedVariants, defaultVariantLimits, type VariantLimits } from './decode/variants.ts';
import { detectors as registry, type DetectorEntry } from './detect/index.ts';
import { headerValue } from './policy/facts.ts';
import { bodyInputs, defaultInputLimits, headerInputs, requestLineInputs, type InputLimits } from './inputs.ts';
import { protocolHits, viewOf, type RequestView } from './protocol/index.ts';
import { unreadBodyHit, unreadInputsHit, unreadValueHit } from './protocol/unread.ts';
import type { AttackKind, BlockMode, Decision, DetectorContext, DetectorHit, RequestInput, WafRequest } from './types.ts';
import { maxScannedValue } from './detect/scan-limit.ts';

/**
 * The engine's pipeline, phase by phase as coraza runs it: 1 request line, 2 headers, 3 body
 * (4, the response head, is a hook for later). Each phase turns the request into raw inputs,
 * each input into its decoded variants, and runs every enabled detector on every variant. The
 * first hit the block mode blocks on ends the inspection; a hit below the mode's threshold is
 * remembered and reported as `record` if nothing blocks.
 */
export interface InspectOptions {
  /** loose blocks clear attacks (severity 2) only; strict blocks suspicious values too. */
  mode: BlockMode;
  /** Attack kinds to look for; all registered kinds when omitted. */
  kinds?: readonly AttackKind[];
  limits?: Partial<InputLimits & VariantLimits & { maxValueLength: number }>;
  /** The detectors to run (tests swap them); the registry when omitted. */
  detectors?: readonly DetectorEntry[];
  /** Run the request-level checks (`src/protocol`); on unless false. */
  protocol?: boolean;
}

export type Phase = 1 | 2 | 3;

interface ResolvedOptions {
  mode: BlockMode;
  entries: readonly DetectorEntry[];
  /** The enabled kinds, null for all. */
  kinds: ReadonlySet<AttackKind> | null;
  protocol: boolean;
  /** Report what went unread (protocol/unread.ts): on unless the kinds leave out `protocol`. */
  reportsUnread: boolean;
  inputLimits: InputLimits;
  variantLimits: VariantLimits;
  maxValueLength: number;
}

/** Past this length only the head and the tail of a value are read (payloads hide after padding). */
const defaultMaxValueLength = maxScannedValue;

function resolve(options: InspectOptions): ResolvedOptions {
  const entries = options.detectors ?? registry;
  const kinds = options.kinds ? new Set(options.kinds) : null;
  const limits = options.limits ?? {};
  return {
    mode: options.mode,
    entries: kinds ? entries.filter((e) => kinds.has(e.kind)) : entries,
    kinds,
    protocol: options.protocol !== false,
    reportsUnread: !kinds || kinds.has('protocol'),
    inputLimits: { ...defaultInputLimits, ...pick(limits, ['maxInputs', 'maxBodyBytes', 'maxFileHead', 'maxJsonDepth']) },
    variantLimits: { ...defaultVariantLimits, ...pick(limits, ['maxVariants', 'maxDepth']) },
    maxValueLength: limits.maxValueLength ?? defaultMaxValueLength,
  };
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

export function blocks(mode: BlockMode, hit: DetectorHit): boolean {
  return mode === 'strict' ? hit.severity >= 1 : hit.severity >= 2;
}

function boundedValue(value: string, max: number): string {
  if (value.length <= max) return value;
  const half = Math.floor(max / 2);
  return value.slice(0, half) + ' ' + value.slice(value.length - half);
}

interface Found {
  hit: DetectorHit;
  input: RequestInput;
}

/** What every detector may read of the request besides the value (types.ts: DetectorContext). */
function detectorContext(request: WafRequest): DetectorContext {
  const host = headerValue(request, 'host');
  return { host: host === null ? null : host.trim().toLowerCase() };
}

/** Runs the detectors over inputs; the first blocking hit, else the first hit at all. */
function scan(inputs: readonly RequestInput[], options: ResolvedOptions, context: DetectorContext): { blocking: Found | null; first: Found | null } {
  let first: Found | null = null;
  for (const input of inputs) {
    const value = boundedValue(input.value, options.maxValueLength);
    if (value.length === 0) continue;
    for (const variant of decodedVariants(value, input.location, options.variantLimits)) {
      for (const entry of options.entries) {
        let hit: DetectorHit | null;
        try {
          hit = entry.detector(variant, input.location, input.name, context);
        } catch {
          // A detector bug must not take the request (or the gateway) down with it.
          hit = null;
        }
        if (hit === null) continue;
        if (blocks(options.mode, hit)) return { blocking: { hit, input }, first };
        first ??= { hit, input };
      }
    }
    // A value too long to read whole (its middle went unread) is a finding of its own.
    const unread = options.reportsUnread ? unreadValueHit(input, options.maxValueLength) : null;
    if (unread) {
      if (blocks(options.mode, unread)) return { blocking: { hit: unread, input }, first };
      first ??= { hit: unread, input };
    }
  }
  return { blocking: null, first };
}

function safeInputs(read: () => RequestInput[]): RequestInput[] {
  try {
    return read();
  } catch {
    return [];
  }
}

function phaseInputs(phase: Phase, request: WafRequest, limits: InputLimits): RequestInput[] {
  if (phase === 1) return safeInputs(() => requestLineInputs(request, limits));
  if (phase === 2) return safeInputs(() => headerInputs(request, limits));
  return safeInputs(() => bodyInputs(request, limits));
}

function blockDecision(found: Found): Decision {
  return {
    action: 'block',
    rule: found.hit.rule,
    kind: found.hit.kind,
    location: found.input.location,
    name: found.input.name,
    evidence: found.hit.evidence,
  };
}

/**
 * The request-level checks of a phase (framing, headers, target, multipart structure, session
 * fixation), after the value detectors: a value's attack is the more telling reason to report.
 */
function scanRequest(phase: Phase, view: RequestView, inputs: readonly RequestInput[], options: ResolvedOptions): { blocking: Found | null; first: Found | null } {
  let first: Found | null = null;
  for (const hit of protocolHits(phase, view, inputs)) {
    if (options.kinds && !options.kinds.has(hit.kind)) continue;
    const found = { hit, input: { location: hit.location, name: hit.name, value: '' } };
    if (blocks(options.mode, hit)) return { blocking: found, first };
    first ??= found;
  }
  return { blocking: null, first };
}

/** Inspects the given phases (the gateway can run 1-2 on the head and 3 once the body is read). */
export function inspectPhases(request: WafRequest, options: InspectOptions, phases: readonly Phase[]): Decision {
  const resolved = resolve(options);
  const view = resolved.protocol ? viewOf(request) : null;
  const context = detectorContext(request);
  let first: Found | null = null;
  let budget = resolved.inputLimits.maxInputs;
  for (const phase of phases) {
    // One value more than the budget is asked for, to know whether any would go unread.
    const read = phaseInputs(phase, request, { ...resolved.inputLimits, maxInputs: budget + 1 });
    const inputs = read.length > budget ? read.slice(0, budget) : read;
    budget -= inputs.length;
    const result = scan(inputs, resolved, context);
    if (result.blocking) return blockDecision(result.blocking);
    first ??= result.first;
    // What was not read is a finding of its own (protocol/unread.ts): padding must not hide a payload.
    const unread = !resolved.reportsUnread ? null : read.length > inputs.length ? unreadInputsHit(phase, resolved.inputLimits.maxInputs) : phase === 3 ? unreadBodyHit(request, resolved.inputLimits) : null;
    if (unread) {
      const found = { hit: unread, input: { location: unread.location, name: unread.name, value: '' } };
      if (blocks(options.mode, unread)) return blockDecision(found);
      first ??= found;
    }
    if (view) {
      const requestResult = scanRequest(phase, view, inputs, resolved);
      if (requestResult.blocking) return blockDecision(requestResult.blocking);
      first ??= requestResult.first;
    }
  }
  return first ? { action: 'record', rule: first.hit.rule, kind: first.hit.kind, evidence: first.hit.evidence } : { action: 'pass' };
}

/** Phases 1 to 3: the whole request. Never throws. */
export function inspect(request: WafRequest, options: InspectOptions): Decision {
  try {
    return inspectPhases(request, options, [1, 2, 3]);
  } catch {
    return { action: 'pass' };
  }
}

/** The response head, as the gateway sees it before forwarding it. */
export interface WafResponseHead {
  status: number;
  headers: readonly (readonly [name: string, value: string])[];
}

/**
 * Phase 4 hook: response-side checks (information leakage, error pages) are not written yet;
 * the gateway can already call it so adding them changes no call site.
 */
export function inspectResponseHead(_request: WafRequest, _response: WafResponseHead, _options: InspectOptions): Decision {
  return { action: 'pass' };
}
