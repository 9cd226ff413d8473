import type { Decision, WafRequest } from '@rampart/waf';
import type { Inspector } from '../../src/inspector.ts';

/**
 * STANDS IN FOR THE ENGINE (`inspect` of @rampart/waf, being written in parallel): a tiny inspector
 * that blocks on markers only, so the proxy's inspection path can be tested on its own. It blocks
 * when a request has an `x-test-block` header, `attack-marker` in its target, or `EVIL-BODY` in the
 * inspected part of its body; `x-test-record` makes a record decision. It counts its calls.
 */
export const calls: WafRequest[] = [];

export function testInspect(request: WafRequest): Decision {
  calls.push(request);
  if (request.headers.some(([n]) => n.toLowerCase() === 'x-test-block')) return { action: 'block', rule: 'test.header', kind: 'policy' };
  if (request.target.includes('attack-marker')) return { action: 'block', rule: 'test.query', kind: 'sqli', location: 'query' };
  if (request.body && Buffer.from(request.body).includes('EVIL-BODY')) return { action: 'block', rule: 'test.body', kind: 'xss', location: 'body' };
  if (request.headers.some(([n]) => n.toLowerCase() === 'x-test-record')) return { action: 'record', rule: 'test.record' };
  return { action: 'pass' };
}

export const inspector: Inspector = { inspect: testInspect };
