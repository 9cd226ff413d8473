import type { Decision, WafRequest } from '@rampart/waf';
import type { Inspector } from '../../src/inspector.ts';
import type { WorkerServices } from '../../src/services.ts';

/**
 * A test inspector that drives the worker's cluster services directly (worker-main hands them to an
 * inspector module that exports `useServices`), so the shared state can be tested without the
 * policy pipeline:
 *   - an address on the interception list (not expired) is blocked ('test.intercepted');
 *   - `x-cc: <n>` counts the request cluster-wide with threshold n, blocking when over ('test.cc');
 *   - `x-intercept: <minutes>` puts the address on the interception list and blocks;
 *   - `x-spider: <name>` asks the fake-spider DNS check: blocked when the verdict is fake ('test.fake-spider');
 *   - `x-emit: <id>` emits an event with that incident id (rule 'test.emit') and passes;
 *   - `x-probe: <id>` emits, whatever the decision, an event (rule 'test.probe', incident id <id>,
 *     name `pid/generation`, evidence the decision's rule): which worker answered a blocked request,
 *     whose answer carries no X-Rampart-Worker header.
 */
let services: WorkerServices | undefined;

export function useServices(s: WorkerServices): void {
  services = s;
}

const header = (request: WafRequest, name: string) => request.headers.find(([n]) => n.toLowerCase() === name)?.[1];

export const inspector: Inspector = {
  inspect(request, site): Decision {
    const decision = decide(request, site.id);
    const probe = header(request, 'x-probe');
    if (probe && services) {
      const rule = decision.action === 'pass' ? 'pass' : decision.rule;
      services.emit({ type: 'record', site_id: site.id, incident_id: probe, at: request.now, client_ip: request.clientIp, method: request.method, target: request.target, host: '', rule: 'test.probe', kind: 'policy', name: `${process.pid}/${process.env.RAMPART_GATEWAY_GENERATION ?? ''}`, evidence: rule, area: null, alert: false });
    }
    return decision;
  },
};

function decide(request: WafRequest, siteId: string): Decision {
  {
    const site = { id: siteId };
    if (!services) return { action: 'block', rule: 'test.no-services', kind: 'policy' };
    const ip = request.clientIp;
    const until = services.timed().intercepted.get(ip);
    if (until !== undefined && until > request.now) return { action: 'block', rule: 'test.intercepted', kind: 'policy' };
    const cc = header(request, 'x-cc');
    if (cc && services.count('cc', site.id, ip, request.now, Number(cc))) return { action: 'block', rule: 'test.cc', kind: 'policy' };
    const spider = header(request, 'x-spider');
    if (spider && services.spiderDns(ip, spider) === 'fake') return { action: 'block', rule: 'test.fake-spider', kind: 'policy' };
    const minutes = header(request, 'x-intercept');
    if (minutes) {
      services.addTimed('intercepted', { ip, created_at: request.now, expires_at: request.now + Number(minutes) * 60_000, detail: 'test', reason: 'cc' });
      return { action: 'block', rule: 'test.intercept', kind: 'policy' };
    }
    const emit = header(request, 'x-emit');
    if (emit) {
      services.emit({ type: 'record', site_id: site.id, incident_id: emit, at: request.now, client_ip: ip, method: request.method, target: request.target, host: header(request, 'host') ?? '', rule: 'test.emit', kind: 'policy', area: null, alert: false });
    }
    return { action: 'pass' };
  }
}
