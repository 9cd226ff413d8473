import type { Decision } from '../types.ts';
import type { CompiledPolicy } from './compile.ts';
import type { RequestFacts } from './facts.ts';

/* Request tab: denied methods, size limits (0 = no limit), HTTP header limit rules. */

function block(rule: string, evidence?: string): Decision {
  return evidence === undefined ? { action: 'block', rule, kind: 'policy' } : { action: 'block', rule, kind: 'policy', evidence };
}

/** UTF-8 byte length without allocating (header values are mostly ASCII). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

export function checkMethod(policy: CompiledPolicy, facts: RequestFacts): Decision | null {
  return policy.deniedMethods.has(facts.method.toUpperCase()) ? block('request.method', facts.method.slice(0, 20)) : null;
}

/**
 * URL length is the raw request target as sent; header length is every header line as on the
 * wire (`name: value` plus CRLF); POST size is the body's. "More than the limit" is refused.
 */
export function checkLimits(policy: CompiledPolicy, facts: RequestFacts): Decision | null {
  const limits = policy.settings.request.limits;
  if (limits.url_bytes > 0 && utf8Length(facts.target) > limits.url_bytes) return block('request.url_length');
  if (limits.header_bytes > 0) {
    let total = 0;
    for (const [name, value] of facts.headers) total += utf8Length(name) + utf8Length(value) + 4;
    if (total > limits.header_bytes) return block('request.header_length');
  }
  if (limits.post_bytes > 0 && facts.bodyBytes !== null && facts.bodyBytes > limits.post_bytes) return block('request.post_size');
  return null;
}

/** Each enabled rule caps the value of the named header (`*`: of every header), each occurrence alone. */
export function checkHeaderRules(policy: CompiledPolicy, facts: RequestFacts): Decision | null {
  if (policy.headerRules.length === 0) return null;
  for (const [name, value] of facts.headers) {
    const lower = name.toLowerCase();
    for (const rule of policy.headerRules) {
      if ((rule.header === '*' || rule.header === lower) && utf8Length(value) > rule.maxBytes) return block('request.header_rule', lower);
    }
  }
  return null;
}
