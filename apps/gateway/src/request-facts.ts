import { bodyInputs, claimedSpider, clientAddress, defaultInputLimits, factsFromRequest, formDecode, localMinuteOfDay, setHas, type InputLimits, type RequestFacts, type WafRequest } from '@rampart/waf';
import { hasValidPass } from './gateway-tokens.ts';
import type { WorkerServices } from './services.ts';
import type { SitePolicy } from './site-runtime.ts';

function header(request: WafRequest, name: string): string | undefined {
  for (const [n, v] of request.headers) if (n.length === name.length && n.toLowerCase() === name) return v;
  return undefined;
}

/** Every Cookie header joined, as HTTP/2 and some clients split them. */
function cookieHeader(request: WafRequest): string | undefined {
  const values = request.headers.filter(([n]) => n.toLowerCase() === 'cookie').map(([, v]) => v);
  return values.length === 0 ? undefined : values.join('; ');
}

/**
 * Upload file names and the body as text, from the engine's own body parser (so the keyword
 * libraries and the upload types see the same fields the detectors do). Form fields are
 * form-decoded (`+` is a space there); JSON, XML and multipart values come decoded already.
 */
export function bodyFacts(request: WafRequest, limits: InputLimits = defaultInputLimits): { uploads: string[]; bodyText: string } {
  // The keyword libraries read at most as much body text as the engine reads.
  const maxBodyText = limits.maxBodyBytes;
  if (!request.body || request.body.length === 0) return { uploads: [], bodyText: '' };
  const form = (header(request, 'content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
  const uploads: string[] = [];
  const texts: string[] = [];
  let size = 0;
  for (const input of bodyInputs(request, limits)) {
    if (input.location === 'file_name') uploads.push(input.value);
    else if (input.location === 'body' || input.location === 'xml' || input.location === 'raw_body') {
      if (size >= maxBodyText) continue;
      const text = form ? formDecode(input.value) : input.value;
      texts.push(text);
      size += text.length;
    }
  }
  return { uploads, bodyText: texts.join('\n').slice(0, maxBodyText) };
}

/**
 * What the policy checks read about one request, gathered once: the client's areas (geo-IP), the
 * local minute of day, the multipart file names and body text (only when a settings group reads
 * them: parsing costs), the DNS verdict on a claimed spider, and the CC pass cookie.
 */
export function gatherFacts(services: WorkerServices, siteId: string, policy: SitePolicy, request: WafRequest, limits: InputLimits = defaultInputLimits): RequestFacts {
  const compiled = policy.compiled;
  const needsBody = compiled.uploads !== null || compiled.keywords.block.enabled || compiled.keywords.record.enabled;
  const { uploads, bodyText } = needsBody ? bodyFacts(request, limits) : { uploads: [], bodyText: '' };
  const spider = compiled.lists.spider;
  // A listed crawler address needs no lookup; anyone else claiming a whitelisted spider is checked.
  const claimed = spider.enabled && !setHas(spider.ips, clientAddress(request.clientIp)) ? claimedSpider(spider.spiders, header(request, 'user-agent') ?? '') : null;
  const spiderDns = claimed ? services.spiderDns(request.clientIp, claimed) : undefined;
  const verifiedHuman = hasValidPass(policy.secret, siteId, request.clientIp, request.now, cookieHeader(request));
  return factsFromRequest(request, {
    areas: services.areasOf(request.clientIp),
    minuteOfDay: localMinuteOfDay(request.now),
    uploads,
    bodyText,
    ...(spiderDns ? { spiderDns } : {}),
    verifiedHuman,
  });
}
