import type { Decision } from '../types.ts';
import type { CompiledPolicy } from './compile.ts';
import { headerValue, requestHost, type RequestFacts } from './facts.ts';
import { pathExtension } from './file-types.ts';

/** Does `host` match a whitelist domain? `example.com` covers it and its subdomains; `*.example.com` only subdomains. */
export function hostAllowed(host: string, domain: string): boolean {
  if (domain.startsWith('*.')) return host.endsWith(domain.slice(1));
  return host === domain || host.endsWith(`.${domain}`);
}

/** The host of a Referer value, lower case; '' when it has none. */
export function refererHost(referer: string): string {
  try {
    return new URL(referer).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/**
 * Hotlinking: a file of a protected type fetched with a Referer from another site is refused,
 * unless the referer's host is the site itself or on the whitelist. No Referer at all follows the
 * empty-referer setting (browsers drop it for privacy, so `allow` is the kind default).
 */
export function checkHotlink(policy: CompiledPolicy, facts: RequestFacts): Decision | null {
  const rule = policy.hotlink;
  if (!rule || !rule.extensions.has(pathExtension(facts.path))) return null;
  const referer = (headerValue(facts, 'referer') ?? '').trim();
  const deny: Decision = { action: 'block', rule: 'protect.hotlink', kind: 'policy', evidence: referer.slice(0, 120) };
  if (referer === '') return rule.emptyReferer === 'deny' ? deny : null;
  const host = refererHost(referer);
  if (host !== '' && (host === requestHost(facts) || rule.referers.some((domain) => hostAllowed(host, domain)))) return null;
  return deny;
}
