import { defaultWebsiteSettings, websiteSettingsSchema, type WebsiteSettings } from '@rampart/contracts';
import { compilePolicy, type CompiledPolicy, type PolicyContext, type RequestFacts } from '../../src/policy/index.ts';

/** Default settings changed by `edit`, validated by the schema (a test can't use settings the console would refuse). */
export function settingsWith(edit: (s: WebsiteSettings) => void = () => {}): WebsiteSettings {
  const settings = structuredClone(defaultWebsiteSettings);
  edit(settings);
  return websiteSettingsSchema.parse(settings);
}

export function policyWith(edit?: (s: WebsiteSettings) => void, context: Partial<PolicyContext> = {}): CompiledPolicy {
  return compilePolicy(settingsWith(edit), { superWhitelist: [], ...context });
}

export const noon = Date.UTC(2026, 10, 22, 12, 0, 0);

export function facts(overrides: Partial<RequestFacts> & { headers?: RequestFacts['headers'] } = {}): RequestFacts {
  return {
    method: 'GET',
    target: '/index.html',
    path: '/index.html',
    query: '',
    headers: [
      ['Host', 'www.example.com'],
      ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0'],
    ],
    clientIp: '203.0.113.7',
    areas: ['CN', 'CN-GD'],
    now: noon,
    minuteOfDay: 12 * 60,
    bodyBytes: null,
    uploads: [],
    bodyText: '',
    // Tests that set only the query mean the same text as typed (no `+` to read as a space).
    formQuery: overrides.query ?? '',
    ...overrides,
  };
}

export function withHeader(base: RequestFacts, name: string, value: string): RequestFacts {
  return { ...base, headers: [...base.headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase()), [name, value]] };
}
