import { z } from 'zod';
import { areaCodeSchema } from './areas.ts';
import { addressEntrySchema, firewallChangeSchema, firewallGuardSchema } from './firewall.ts';
import { trustDaysSchema } from './firewall-api.ts';
import { parseAddressEntry } from './ip-address.ts';
import { keywordParam, pageSizeParam, positiveIntParam, stampParam } from './query-params.ts';

/*
 * System settings: the common areas tab (named sets of countries and Chinese provinces that
 * firewall rules reference as `common:<id>`) and the super whitelist tab (trusted terminals; the
 * list itself and its agent calls `trust.*` are the firewall's, in firewall.ts / firewall-api.ts).
 */

/* Common areas. */

export const commonAreaNameMax = 32;
/** Enough for every country and province at once; a rule takes 300 areas too. */
export const commonAreaMembersMax = 300;

export const commonAreaNameSchema = z
  .string({ message: 'area_name_required' })
  .trim()
  .min(1, 'area_name_required')
  .max(commonAreaNameMax, 'area_name_too_long')
  // No control characters: the name is shown in pickers and tags.
  .refine((value) => ![...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), 'area_name_invalid');

/** Members: country codes (JP) and Chinese province codes (CN-GD); duplicates are folded. */
export const commonAreaMembersSchema = z
  .array(areaCodeSchema, { message: 'area_members_required' })
  .min(1, 'area_members_required')
  .max(commonAreaMembersMax, 'area_too_many_members')
  .transform((codes) => [...new Set(codes)]);

const remark = z.string({ message: 'remark_too_long' }).trim().max(200, 'remark_too_long');

/** Add (no id) or edit (the id of the area it replaces). */
export const commonAreaInputSchema = z
  .object({
    id: z.number({ message: 'area_not_found' }).int('area_not_found').positive('area_not_found').optional(),
    name: commonAreaNameSchema,
    members: commonAreaMembersSchema,
    remark: remark.default(''),
  })
  .strict();
export type CommonAreaInput = z.input<typeof commonAreaInputSchema>;
export type CommonAreaFields = z.output<typeof commonAreaInputSchema>;

export const commonAreaSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  members: z.array(z.string()),
  remark: z.string(),
  /** How many firewall rules use it. */
  rules: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type CommonArea = z.infer<typeof commonAreaSchema>;

const areaIds = z.array(z.number().int().positive()).min(1, 'area_select_items').max(1000, 'area_select_items');

/** Agent calls of this area, merged into the agent's call table (agent.ts). */
export const commonAreasAgentParams = {
  'areas.list': z.object({ keyword: z.string().max(100).optional(), offset: z.number().int().min(0), limit: z.number().int().min(1).max(1000) }).strict(),
  /** Editing an area that rules use re-applies them, with the administrator kept reachable (see `guard`). */
  'areas.save': z.object({ area: commonAreaInputSchema, guard: firewallGuardSchema }).strict(),
  /** Refused, whole, when a rule uses one of them. */
  'areas.delete': z.object({ ids: areaIds }).strict(),
} as const;
export const commonAreasAgentResults = {
  'areas.list': z.object({ total: z.number().int(), list: z.array(commonAreaSchema) }),
  'areas.save': firewallChangeSchema.extend({ id: z.number().int().nullable() }),
  'areas.delete': z.object({ changed: z.number().int(), refused: z.literal('area_in_use').nullable(), rules: z.number().int() }),
} as const;

/* Console calls of the common areas tab. */

const pageQuery = { keyword: keywordParam, page: positiveIntParam('bad_request').optional(), size: pageSizeParam, ...stampParam };
/** `id=3` or `id=3,4,5` (bulk), at most 1000 ids. */
const idListParam = (message: 'area_select_items' | 'fw_select_items') =>
  z
    .string({ message })
    .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9}){0,999}$/, message)
    .transform((text) => [...new Set(text.split(',').map(Number))]);

export const commonAreasQuerySchema = z.object(pageQuery).strict();
export const commonAreasDeleteQuerySchema = z.object({ id: idListParam('area_select_items'), ...stampParam }).strict();

/* Console calls of the super whitelist tab. */

/**
 * A trusted address: single, CIDR or range, IPv4 or IPv6 — never `*` or a /0, which would switch
 * every protection off for everyone.
 */
export const trustAddressSchema = addressEntrySchema.refine((value) => {
  const entry = parseAddressEntry(value);
  return entry !== null && entry.kind !== 'any' && !(entry.kind === 'cidr' && entry.prefix === 0);
}, 'trust_address_too_broad');

export const trustListQuerySchema = z.object(pageQuery).strict();
export const trustAddBodySchema = z
  .object({
    ips: z.array(trustAddressSchema, { message: 'fw_address_required' }).min(1, 'fw_address_required').max(1000, 'fw_too_many_addresses'),
    /** Days; 0: permanent. Required: a trusted terminal should not stay trusted by accident. */
    days: trustDaysSchema,
    remark: remark.default(''),
  })
  .strict();
export const trustIdsQuerySchema = z.object({ id: idListParam('fw_select_items'), ...stampParam }).strict();
export const trustRenewBodySchema = z.object({ days: trustDaysSchema }).strict();

/** The automatic add at panel sign-in: the signed-in client's address, for `days` (0: permanent). */
export const trustAutoAddSchema = z.object({ enabled: z.boolean({ message: 'bad_request' }), days: trustDaysSchema }).strict();
export type TrustAutoAdd = z.infer<typeof trustAutoAddSchema>;
export const defaultTrustAutoAdd: TrustAutoAdd = { enabled: false, days: 7 };

/** The validities the add and renewal forms offer (days; 0: permanent); any other number of days may be typed. */
export const trustDayChoices = [1, 7, 30, 90, 365, 0] as const;
