import { checkRecordKeywords, evaluateRequestPolicy, headerValue, type CompiledPolicy, type Decision, type RequestFacts, type WafRequest } from '@rampart/waf';
import type { WebsiteInterceptEntry } from '@rampart/contracts';
import { reportIntercept } from './gateway-events.ts';
import { bodyLimitsFor } from './body-limits.ts';
import { gatherFacts } from './request-facts.ts';
import type { ProxyContext } from './proxy.ts';
import type { SitePolicy, SiteRuntime } from './site-runtime.ts';

/*
 * One request of a site with status on, from its head and inspected body to a verdict, in the
 * order the spec and the engine give:
 *
 *   facts → lists (spec order; 'allow' skips everything after) → request checks (method, sizes,
 *   header rules, time limits, file types, uploads, hotlinking, block keywords) → CC protection →
 *   attack detection (the policy's kinds, the site's block mode) → record keyword library.
 *
 * Without a policy only detection runs, with every kind, as before the settings groups existed.
 * Side effects here are the interception entries the gateway makes itself (CC strict, fake
 * spider strict); the caller answers the client and reports the verdict.
 */

type Block = Extract<Decision, { action: 'block' }>;
type Challenge = Extract<Decision, { action: 'challenge' }>;
type RecordDecision = Extract<Decision, { action: 'record' }>;

export type Verdict =
  /** `trusted`: a list let it in (whitelists, authorization): no counting, no scanning of its answers. */
  | { action: 'forward'; record: RecordDecision | null; facts: RequestFacts | null; trusted: boolean }
  | { action: 'block'; decision: Block; facts: RequestFacts | null }
  | { action: 'challenge'; decision: Challenge; facts: RequestFacts };

const pass: Decision = { action: 'pass' };
/**
 * Headers read whatever the attack tab lists: they shape how the request itself is understood
 * (which site, how the body parses), and taking them out to look again would only make the
 * request malformed.
 */
const alwaysRead = new Set(['host', 'content-type']);
/** A hit in a header the attack tab does not list is dropped and the request looked at again without it, this many times at most. */
const maxHeaderRetries = 8;

/**
 * `again`: the same request judged once more, with the parts of an upload that streamed past the
 * window (upload-tail.ts). It was counted when first judged, so CC protection does not count it twice.
 */
export interface PipelineOptions {
  again?: boolean;
}

export async function runRequestPipeline(ctx: ProxyContext, rt: SiteRuntime, request: WafRequest, options: PipelineOptions = {}): Promise<Verdict> {
  const policy = rt.policy;
  if (!policy) return detectionVerdict(await detect(ctx, rt, request, null), null);

  const facts = gatherFacts(ctx.services, rt.site.id, policy, request, bodyLimitsFor(rt.site));
  const compiled = policy.compiled;
  const timed = ctx.services.timed();
  let listed = evaluateRequestPolicy(compiled, facts, timed);
  // A person who passed the human verification while sending a crawler's user agent (loose
  // fake-spider mode challenged them) is judged as an ordinary visitor from then on.
  if (listed !== 'allow' && listed?.action === 'challenge' && listed.rule === 'lists.fake_spider' && facts.verifiedHuman) {
    listed = evaluateRequestPolicy(compiled, { ...facts, spiderDns: undefined }, timed);
  }
  if (listed === 'allow') return { action: 'forward', record: null, facts, trusted: true };
  if (listed !== null) {
    if (listed.action === 'block') {
      if (listed.rule === 'lists.fake_spider') intercept(ctx, rt, request, facts, listed.rule, fakeSpiderEntry(compiled, facts));
      return { action: 'block', decision: listed, facts };
    }
    if (listed.action === 'challenge') return { action: 'challenge', decision: listed, facts };
  }

  const cc = options.again ? null : ccProtection(ctx, rt, request, compiled, facts);
  if (cc) return cc;

  const detected = await detect(ctx, rt, request, policy);
  if (detected.action === 'block') return { action: 'block', decision: detected, facts };
  if (detected.action === 'record') return { action: 'forward', record: detected, facts, trusted: false };
  return { action: 'forward', record: checkRecordKeywords(compiled.keywords, facts) as RecordDecision | null, facts, trusted: false };
}

function detectionVerdict(decision: Decision, facts: RequestFacts | null): Verdict {
  if (decision.action === 'block') return { action: 'block', decision, facts };
  if (decision.action === 'record') return { action: 'forward', record: decision, facts, trusted: false };
  // Detection alone never challenges; an inspector stand-in that does is treated as a block.
  if (decision.action === 'challenge') return { action: 'block', decision: { action: 'block', rule: decision.rule, kind: 'policy' }, facts };
  return { action: 'forward', record: null, facts, trusted: false };
}

/**
 * Attack detection. The attack tab's header list says which headers the detectors read (Cookie
 * always): the engine reads every header, so a hit in an unlisted one is dropped and the request
 * inspected again without that header (rare: only when such a header looks like an attack).
 * Protocol findings are about the request's form, not a header's content, and always count.
 */
async function detect(ctx: ProxyContext, rt: SiteRuntime, request: WafRequest, policy: SitePolicy | null): Promise<Decision> {
  if (policy && policy.kinds.length === 0) return pass;
  let current = request;
  for (let attempt = 0; attempt <= maxHeaderRetries; attempt++) {
    let decision: Decision;
    try {
      decision = await ctx.inspector.inspect(current, rt.site, policy ? { kinds: policy.kinds } : undefined);
    } catch {
      // Fail open: an engine bug must not take every site offline. The engine is tested to not throw.
      return pass;
    }
    if (!policy || decision.action !== 'block' || decision.location !== 'header' || decision.kind === 'protocol') return decision;
    const name = (decision.name ?? '').toLowerCase();
    if (policy.attackHeaders.has(name) || alwaysRead.has(name)) return decision;
    current = { ...current, headers: current.headers.filter(([n]) => n.toLowerCase() !== name) };
  }
  return pass;
}

/**
 * CC protection, counted across every worker (services.count, the one CC and 404 counter): loose
 * asks for human verification unless the client holds the pass, strict blocks and puts the
 * address on the interception list.
 */
function ccProtection(ctx: ProxyContext, rt: SiteRuntime, request: WafRequest, policy: CompiledPolicy, facts: RequestFacts): Verdict | null {
  const cc = policy.settings.protect.cc;
  if (!cc.enabled) return null;
  if (!ctx.services.count('cc', rt.site.id, facts.clientIp, facts.now, cc.per_minute)) return null;
  if (cc.mode === 'loose') return facts.verifiedHuman ? null : { action: 'challenge', decision: { action: 'challenge', rule: `protect.cc.${cc.verification}` }, facts };
  ctx.services.resetCount('cc', rt.site.id, facts.clientIp);
  const entry: WebsiteInterceptEntry = { ip: facts.clientIp, reason: 'cc', created_at: facts.now, detail: `> ${cc.per_minute}/min`, expires_at: facts.now + cc.block_minutes * 60_000 };
  intercept(ctx, rt, request, facts, 'protect.cc', entry);
  return { action: 'block', decision: { action: 'block', rule: 'protect.cc', kind: 'policy' }, facts };
}

/**
 * A fake spider blocked in strict mode stays out for the CC block time: the spider group has no
 * duration of its own, and CC's is the gateway's other "this address misbehaves" interval.
 */
function fakeSpiderEntry(policy: CompiledPolicy, facts: RequestFacts): WebsiteInterceptEntry {
  const ua = headerValue(facts, 'user-agent') ?? '';
  return { ip: facts.clientIp, reason: 'fake_spider', created_at: facts.now, detail: ua.slice(0, 120), expires_at: facts.now + policy.settings.protect.cc.block_minutes * 60_000 };
}

function intercept(ctx: ProxyContext, rt: SiteRuntime, request: WafRequest, facts: RequestFacts, rule: string, entry: WebsiteInterceptEntry): void {
  try {
    reportIntercept(ctx, rt, request, rule, entry, facts.areas);
  } catch {
    // The services failing must not fail the request: the block itself still stands.
  }
}
