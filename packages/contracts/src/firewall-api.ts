import { z } from 'zod';
import {
  addressEntrySchema,
  attackSettingsSchema,
  blockMinutesSchema,
  firewallChangeSchema,
  firewallDirectionSchema,
  firewallGuardSchema,
  firewallListKindSchema,
  firewallRuleEditSchema,
  firewallRuleInputSchema,
  firewallRuleSchema,
  firewallStatusSchema,
  hostAddressSchema,
  interceptEntrySchema,
  listChunkSize,
  listEntrySchema,
  superWhitelistEntrySchema,
  trustSourceSchema,
} from './firewall.ts';
import { keywordParam, pageSizeParam, positiveIntParam, stampParam } from './query-params.ts';

/* Agent calls and console calls of the firewall. The agent holds the firewall's desired state. */

const ids = z.array(z.number().int().positive()).min(1, 'fw_select_items').max(10_000, 'fw_select_items');
const target = z.union([z.literal('all'), ids]);
const page = { keyword: z.string().max(100).optional(), offset: z.number().int().min(0), limit: z.number().int().min(1).max(listChunkSize) };
const remark = z.string({ message: 'remark_too_long' }).trim().max(200, 'remark_too_long');
/** A validity in days; 0: permanent. */
export const trustDaysSchema = z
  .number({ message: 'trust_validity_required' })
  .int('trust_validity_invalid')
  .min(0, 'trust_validity_invalid')
  .max(3650, 'trust_validity_invalid');
/** An end time in ms, or null for none; a past time is refused. */
const expiresAt = z.number({ message: 'fw_expiry_invalid' }).int('fw_expiry_invalid').positive('fw_expiry_invalid').nullable();

export const firewallAgentParams = {
  'firewall.status': z.object({}).strict(),
  'firewall.rules.list': z.object({ direction: firewallDirectionSchema, ...page }).strict(),
  /** One rule as stored (the event log reads it before an edit to record old → new). */
  'firewall.rules.get': z.object({ id: z.number().int().positive() }).strict(),
  'firewall.rules.add': z.object({ rule: firewallRuleInputSchema, guard: firewallGuardSchema }).strict(),
  'firewall.rules.edit': z.object({ rule: firewallRuleEditSchema, guard: firewallGuardSchema }).strict(),
  'firewall.rules.set_enabled': z.object({ ids, enabled: z.boolean(), guard: firewallGuardSchema }).strict(),
  'firewall.rules.delete': z.object({ ids, guard: firewallGuardSchema }).strict(),
  'firewall.lists.list': z.object({ list: firewallListKindSchema, ...page }).strict(),
  'firewall.lists.add': z
    .object({ list: firewallListKindSchema, addresses: z.array(addressEntrySchema).min(1, 'fw_address_required').max(listChunkSize), remark, expires_at: expiresAt, guard: firewallGuardSchema })
    .strict(),
  'firewall.lists.delete': z.object({ list: firewallListKindSchema, target, guard: firewallGuardSchema }).strict(),
  'firewall.intercept.list': z.object(page).strict(),
  'firewall.intercept.add': z
    .object({ ips: z.array(hostAddressSchema).min(1, 'fw_address_required').max(listChunkSize), minutes: blockMinutesSchema, remark, guard: firewallGuardSchema })
    .strict(),
  'firewall.intercept.delete': z.object({ target }).strict(),
  'firewall.attack.get': z.object({}).strict(),
  'firewall.attack.set': z.object({ settings: attackSettingsSchema }).strict(),
  'firewall.confirm': z.object({ token: z.string().min(1).max(100) }).strict(),
  'trust.list': z.object(page).strict(),
  'trust.add': z
    .object({
      addresses: z.array(addressEntrySchema).min(1, 'fw_address_required').max(1000),
      added_by: z.string().max(64),
      remark,
      expires_at: expiresAt,
      source: trustSourceSchema.default('manual'),
    })
    .strict(),
  'trust.delete': z.object({ target }).strict(),
  /** Extends entries by `days` from the later of now and their end; 0 makes them permanent. A permanent entry stays permanent. */
  'trust.renew': z.object({ ids, days: trustDaysSchema }).strict(),
  /**
   * The trust terminal's hold on its address: adds a `terminal` entry or moves its end to the later
   * of the two. An address another source already lists is left as it is (held: false).
   */
  'trust.hold': z.object({ ip: hostAddressSchema, added_by: z.string().max(64), expires_at: z.number().int().positive() }).strict(),
  /** Ends a terminal's hold: removes the address's entry only if the trust terminal added it. */
  'trust.release': z.object({ ip: hostAddressSchema }).strict(),
  /** Whether a live entry covers `ip`: what every engine asks before acting on an address. */
  'trust.check': z.object({ ip: hostAddressSchema }).strict(),
} as const;

const pageOf = <T extends z.ZodType>(row: T) => z.object({ total: z.number().int(), list: z.array(row) });

export const firewallAgentResults = {
  'firewall.status': firewallStatusSchema,
  'firewall.rules.list': pageOf(firewallRuleSchema),
  'firewall.rules.get': firewallRuleSchema.nullable(),
  'firewall.rules.add': firewallChangeSchema,
  'firewall.rules.edit': firewallChangeSchema,
  'firewall.rules.set_enabled': firewallChangeSchema,
  'firewall.rules.delete': firewallChangeSchema,
  'firewall.lists.list': pageOf(listEntrySchema),
  'firewall.lists.add': firewallChangeSchema,
  'firewall.lists.delete': firewallChangeSchema,
  'firewall.intercept.list': pageOf(interceptEntrySchema),
  'firewall.intercept.add': firewallChangeSchema,
  'firewall.intercept.delete': firewallChangeSchema,
  'firewall.attack.get': attackSettingsSchema,
  'firewall.attack.set': z.object({ saved: z.boolean() }),
  'firewall.confirm': z.object({ confirmed: z.boolean() }),
  'trust.list': pageOf(superWhitelistEntrySchema),
  'trust.add': z.object({ changed: z.number().int() }),
  'trust.delete': z.object({ changed: z.number().int() }),
  'trust.renew': z.object({ changed: z.number().int() }),
  'trust.hold': z.object({ held: z.boolean(), expires_at: z.number().int().nullable() }),
  'trust.release': z.object({ changed: z.number().int() }),
  'trust.check': z.object({ trusted: z.boolean() }),
} as const;

/* Console calls. GET queries arrive as strings. */

const pageQuery = { keyword: keywordParam, page: positiveIntParam('bad_request').optional(), size: pageSizeParam, ...stampParam };

export const firewallRulesQuerySchema = z.object({ direction: firewallDirectionSchema, ...pageQuery }).strict();
export const firewallListQuerySchema = z.object({ list: firewallListKindSchema, ...pageQuery }).strict();
export const firewallInterceptQuerySchema = z.object(pageQuery).strict();
export const firewallExportQuerySchema = z.object({ list: z.enum(['white', 'black', 'intercept'], { message: 'bad_request' }), ...stampParam }).strict();
export const firewallPlainQuerySchema = z.object(stampParam).strict();

export const firewallIdsBodySchema = z.object({ ids }).strict();
export const firewallListAddBodySchema = z
  .object({ list: firewallListKindSchema, addresses: z.array(addressEntrySchema).min(1, 'fw_address_required').max(listChunkSize, 'fw_too_many_addresses'), remark: remark.default(''), expires_at: expiresAt.default(null) })
  .strict();
export const firewallListDeleteBodySchema = z.object({ list: firewallListKindSchema, ids: target }).strict();
/** An uploaded list: one address per line; `#` starts a comment. */
export const firewallListImportBodySchema = z
  .object({ list: firewallListKindSchema, content: z.string({ message: 'fw_import_empty' }).max(64 * 1024 * 1024, 'body_too_large'), remark: remark.default('') })
  .strict();
export const firewallInterceptAddBodySchema = z
  .object({ ips: z.array(hostAddressSchema).min(1, 'fw_address_required').max(10_000, 'fw_too_many_addresses'), minutes: blockMinutesSchema, remark: remark.default('') })
  .strict();
export const firewallInterceptDeleteBodySchema = z.object({ ids: target }).strict();
export const firewallConfirmBodySchema = z.object({ token: z.string({ message: 'fw_probation_gone' }).min(1, 'fw_probation_gone').max(100, 'fw_probation_gone') }).strict();


/**
 * `/resource/area`: one area by code (`id`, also `common:<id>`), or a search by name or code
 * (`keywords`); common areas match by name too. `kind=common` lists every common area (pickers name them).
 */
export const areaQuerySchema = z
  .object({
    id: z.string().max(20, 'area_invalid').optional(),
    kind: z.literal('common', { message: 'bad_request' }).optional(),
    keywords: z.string().trim().max(50, 'keyword_too_long').optional(),
    ...stampParam,
  })
  .strict();
