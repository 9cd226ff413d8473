import { randomUUID } from 'node:crypto';
import { attackKinds, type GatewayEventRecord, type WebsiteAuthorEntry, type WebsiteInterceptEntry } from '@rampart/contracts';
import { headerValue, shouldAlert, snapshotBytes, type Decision, type WafRequest } from '@rampart/waf';
import type { GatewayEvent } from './inspector.ts';
import type { ProxyContext } from './proxy.ts';
import type { SiteRuntime } from './site-runtime.ts';

/*
 * Every block, challenge and record becomes a GatewayEventRecord on services.emit (the console's
 * way in), with the client's area, whether the alert settings want it sent, and a snapshot of the
 * request when snapshots are on. The older in-process hook (ctx.onEvent) still gets its shape.
 */

const known = new Set<string>(attackKinds);
const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** The most precise area known (a CN-xx province before its country); null when the geo-IP can't place it. */
export function eventArea(areas: readonly string[]): string | null {
  const province = areas.find((a) => a.includes('-'));
  return cut(province ?? areas[0] ?? '', 16) || null;
}

/** The request as seen (request line, header lines, the inspected body), each cut at `limit` bytes (0 = schema's maximum). */
export function requestSnapshot(request: WafRequest, limit: number): { headers: string; body: string } {
  const lines = [`${request.method} ${request.target} HTTP/1.1`, ...request.headers.map(([n, v]) => `${n}: ${v}`)];
  const headerMax = limit > 0 ? Math.min(limit, 16_384) : 16_384;
  const bodyMax = limit > 0 ? Math.min(limit, 1_000_000) : 1_000_000;
  const headers = Buffer.from(lines.join('\r\n') + '\r\n', 'utf8');
  const body = request.body ? Buffer.from(request.body.buffer, request.body.byteOffset, Math.min(request.body.byteLength, bodyMax)) : Buffer.alloc(0);
  // Cut by bytes, then by characters: a multi-byte character split at the edge becomes one U+FFFD.
  return { headers: cut(headers.subarray(0, headerMax).toString('utf8'), 16_384), body: cut(body.toString('utf8'), 1_000_000) };
}

function kindOf(decision: Decision): string {
  if (decision.action === 'block') return decision.kind;
  // The engine's record carries its detector's kind (`orm.probe_lookup` is SQL injection); an
  // inspector that names none gives it as its rule's first word (`sqli.tautology`).
  if (decision.action === 'record') {
    if (decision.kind) return decision.kind;
    const head = decision.rule.split('.')[0] ?? '';
    return known.has(head) ? head : 'policy';
  }
  return 'policy';
}

export interface DecisionEventInput {
  ctx: ProxyContext;
  rt: SiteRuntime;
  request: WafRequest;
  decision: Exclude<Decision, { action: 'pass' }>;
  /** The client's areas when the policy asked the geo-IP (null without a policy). */
  areas: readonly string[] | null;
}

/** Reports one decision; returns its incident id (shown on the detailed block page). */
export function reportDecision({ ctx, rt, request, decision, areas }: DecisionEventInput): string {
  const incidentId = randomUUID();
  const type: GatewayEventRecord['type'] = decision.action;
  const legacyType: GatewayEvent['type'] = `website.${decision.action}`;
  const host = headerValue(request, 'host') ?? undefined;
  try {
    ctx.onEvent({ type: legacyType, siteId: rt.site.id, incidentId, at: request.now, clientIp: request.clientIp, method: request.method, target: request.target, host, decision });
  } catch {
    // A failing event sink must not take the proxy down.
  }
  const policy = rt.policy?.compiled;
  const bytes = policy ? snapshotBytes(policy) : null;
  const clientAreas = areas ?? [];
  const event: GatewayEventRecord = {
    ...base(rt, request, incidentId),
    type,
    rule: cut(decision.rule, 120),
    kind: kindOf(decision),
    area: eventArea(clientAreas),
    // The alert settings speak of blocked requests; challenges and records are not alerts.
    alert: policy !== undefined && decision.action === 'block' && shouldAlert(policy, clientAreas),
  };
  if (decision.action === 'block') {
    if (decision.location) event.location = decision.location;
    if (decision.name !== undefined) event.name = cut(decision.name, 200);
  }
  if ((decision.action === 'block' || decision.action === 'record') && decision.evidence !== undefined) event.evidence = cut(decision.evidence, 200);
  if (bytes !== null) event.snapshot = requestSnapshot(request, bytes);
  emit(ctx, event);
  return incidentId;
}

function base(rt: SiteRuntime, request: WafRequest, incidentId: string): Omit<GatewayEventRecord, 'type' | 'rule' | 'kind' | 'area' | 'alert'> {
  const host = headerValue(request, 'host') ?? '';
  return {
    site_id: rt.site.id,
    incident_id: incidentId,
    at: request.now,
    client_ip: cut(request.clientIp, 64),
    method: cut(request.method, 32),
    target: cut(request.target, 4096),
    host: cut(host, 300),
  };
}

function emit(ctx: ProxyContext, event: GatewayEventRecord): void {
  try {
    ctx.services.emit(event);
  } catch {
    // Same as above: the outlet failing loses the event, never the request.
  }
}

/** An address the gateway put on the interception list by itself (CC strict, 404 scan, fake spider). */
export function reportIntercept(ctx: ProxyContext, rt: SiteRuntime, request: WafRequest, rule: string, entry: WebsiteInterceptEntry, areas: readonly string[]): void {
  ctx.services.addTimed('intercepted', entry);
  emit(ctx, { ...base(rt, request, randomUUID()), type: 'intercept', rule, kind: 'policy', area: eventArea(areas), alert: false, evidence: cut(entry.detail, 200), intercept: entry });
}

/** An address the authorization password let in. */
export function reportAuthorize(ctx: ProxyContext, rt: SiteRuntime, request: WafRequest, entry: WebsiteAuthorEntry, areas: readonly string[]): void {
  ctx.services.addTimed('authorized', entry);
  emit(ctx, { ...base(rt, request, randomUUID()), type: 'authorize', rule: 'protect.authorization', kind: 'policy', area: eventArea(areas), alert: false, author: entry });
}
