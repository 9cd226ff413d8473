import { z } from 'zod';

/*
 * Situational awareness (`/dynamic`): what counts as an attack, where an address comes from, and
 * the shapes of the dashboard's figures. Counts come from rollups the event store keeps as it
 * writes (packages/events/src/rollups.ts), never from scanning events.
 */

/**
 * Event kinds that are an attack stopped: a block, an interception or a denial. Detections that
 * stopped nothing (a challenge, a recorded match, a login, a web shell found) are security events
 * but not attacks.
 */
export const attackEventKinds = [
  'firewall.blocked',
  'website.attack',
  'website.policy_block',
  'website.intercepted',
  'tamper.denied',
  'tamper.name_denied',
  'process.start_denied',
  'process.file_denied',
  'process.net_denied',
  'account.file_denied',
  'account.user_create_denied',
] as const;
const attackEventKindSet: ReadonlySet<string> = new Set(attackEventKinds);

export function isAttackKind(kind: string): boolean {
  return attackEventKindSet.has(kind);
}

/** The area of addresses in private, loopback, link-local and shared ranges. */
export const internalArea = 'internal';

function v4Octets(ip: string): number[] | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  const octets = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return octets.every((n) => n >= 0 && n <= 255) ? octets : null;
}

/** True for RFC 1918, loopback, link-local, CGNAT (100.64/10) and the IPv6 equivalents (::1, fc00::/7, fe80::/10). */
export function isInternalAddress(ip: string): boolean {
  const text = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  const o = v4Octets(mapped ? mapped[1]! : text);
  if (o) {
    const [a, b] = o as [number, number, number, number];
    return a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (!text.includes(':')) return false;
  return text === '::1' || /^f[cd][0-9a-f]{0,2}:/.test(text) || /^fe[89ab][0-9a-f]?:/.test(text);
}

/** An area as the dashboard shows it: an ISO country code, a Chinese province (ISO 3166-2:CN, CN-GD), `internal`, or '' when unknown. */
const areaSchema = z.string().max(16);
const countSchema = z.number().int().nonnegative();

export const dynamicCountRowSchema = z.object({ module: z.string(), kind: z.string(), count: countSchema });
export const dynamicOverviewSchema = z.object({
  /** The agent's clock when the figures were read (ms). */
  at: z.number().int(),
  counts: z.object({ today: countSchema, yesterday: countSchema, total: countSchema }),
  /** Attacks per local day, oldest first, 7 days ending today; `day` is yyyy-mm-dd. */
  trend: z.array(z.object({ day: z.string(), count: countSchema })),
  /** Attacks in the last 24 h by module and kind, most first. */
  report: z.array(dynamicCountRowSchema),
  /** Attack sources in the last 24 h by area, most first. */
  areas: z.array(z.object({ area: areaSchema, count: countSchema })),
  /** The addresses that attacked most in the last 24 h. */
  ips: z.array(z.object({ ip: z.string(), area: areaSchema, count: countSchema })),
  /** The newest attacks, newest first (at most 30). */
  latest: z.array(z.object({ id: z.number().int(), time: z.number().int(), module: z.string(), kind: z.string(), ip: z.string(), area: areaSchema })),
  /** Security events (attacks and detections) in the last 24 h by module and kind. */
  security: z.array(dynamicCountRowSchema),
  /** Attacks per minute over the last hour, oldest first. */
  minutes: z.array(z.object({ time: z.number().int(), count: countSchema })),
  /** The country of the server's first public address per the geo-IP data; '' when it has none. */
  server_area: areaSchema,
});
export type DynamicOverview = z.infer<typeof dynamicOverviewSchema>;

export const tcpStates = ['ESTABLISHED', 'SYN_SENT', 'SYN_RECV', 'FIN_WAIT1', 'FIN_WAIT2', 'TIME_WAIT', 'CLOSE', 'CLOSE_WAIT', 'LAST_ACK', 'LISTEN', 'CLOSING', 'NEW_SYN_RECV'] as const;
export const dynamicConnectionsSchema = z.object({
  total: countSchema,
  states: z.array(z.object({ state: z.string(), count: countSchema })),
  /** Connections (not listening sockets) by the remote address's area, most first. */
  areas: z.array(z.object({ area: areaSchema, count: countSchema })),
});
export type DynamicConnections = z.infer<typeof dynamicConnectionsSchema>;

export const dynamicLatestSchema = dynamicOverviewSchema.shape.latest;
export type DynamicAttack = z.infer<typeof dynamicLatestSchema>[number];

export const dynamicAgentParams = {
  'dynamic.overview': z.object({}).strict(),
  /** The newest attacks only: what the live feed polls. */
  'dynamic.latest': z.object({}).strict(),
  'dynamic.connections': z.object({}).strict(),
} as const;

export const dynamicAgentResults = {
  'dynamic.overview': dynamicOverviewSchema,
  'dynamic.latest': dynamicLatestSchema,
  'dynamic.connections': dynamicConnectionsSchema,
} as const;

/** Panel preferences of the dashboard, kept by the console. `location` '' = from the server's public address. */
export const dynamicSettingsSchema = z
  .object({
    sound: z.boolean({ message: 'dynamic_sound_invalid' }),
    location: z.string({ message: 'dynamic_location_invalid' }).regex(/^([A-Z]{2})?$/, 'dynamic_location_invalid'),
  })
  .strict();
export type DynamicSettings = z.infer<typeof dynamicSettingsSchema>;
export const defaultDynamicSettings: DynamicSettings = { sound: false, location: '' };

/** POST /dynamic/settings. */
export const dynamicSettingsBodySchema = z.object({ settings: dynamicSettingsSchema }).strict();
