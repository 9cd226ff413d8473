import { z } from 'zod';
import { cloudPublicKeySchema, cloudSettingsSchema, cloudStatusSchema } from './cloud.ts';

/* Agent calls and console bodies of cloud protection (`/magapi/cloud/...`). */

/** A bundle file's text: it must fit one agent line (8 MB) with room to spare. */
export const cloudBundleMaxChars = 6 * 1024 * 1024;
const ids = z.array(z.number().int().positive()).min(1, 'cloud_select_items').max(1000, 'cloud_select_items');
/** Who made the change, and from where (the address is kept out of every feed). */
const who = { account: z.string().max(64).default(''), ip: z.string().max(64).default('') };
const bundleText = z.string().min(1, 'cloud_bundle_invalid').max(cloudBundleMaxChars, 'cloud_bundle_too_large');
export const cloudUrlSchema = z.string().trim().max(2000, 'cloud_url_invalid').refine((text) => {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}, 'cloud_url_invalid');
export const cloudIntervalSchema = z.number({ message: 'cloud_interval_invalid' }).int('cloud_interval_invalid').min(5, 'cloud_interval_invalid').max(10_080, 'cloud_interval_invalid');
const keyName = z.string().trim().min(1, 'cloud_key_name_required').max(64, 'cloud_key_name_too_long');

export const cloudAgentParams = {
  'cloud.status': z.object({}).strict(),
  'cloud.keys.add': z.object({ name: keyName, public_key: cloudPublicKeySchema, ...who }).strict(),
  'cloud.keys.delete': z.object({ ids, ...who }).strict(),
  'cloud.feeds.import': z.object({ bundle: bundleText, ...who }).strict(),
  'cloud.feeds.add_url': z.object({ url: cloudUrlSchema, interval_minutes: cloudIntervalSchema, ...who }).strict(),
  /** Fetches a URL feed now (the schedule does the same by itself). */
  'cloud.feeds.update': z.object({ id: z.number().int().positive(), ...who }).strict(),
  'cloud.feeds.edit': z.object({ id: z.number().int().positive(), interval_minutes: cloudIntervalSchema, ...who }).strict(),
  'cloud.feeds.set_enabled': z.object({ ids, enabled: z.boolean(), ...who }).strict(),
  'cloud.feeds.delete': z.object({ ids, ...who }).strict(),
  'cloud.settings.set': z.object({ settings: cloudSettingsSchema, ...who }).strict(),
} as const;

/** A change's answer: `refused` is a message key when nothing changed; `detail` fills its `{detail}`. */
export const cloudChangeSchema = z.object({
  changed: z.number().int(),
  ids: z.array(z.number().int()),
  refused: z.string().nullable(),
  detail: z.string().default(''),
});
export type CloudChange = z.infer<typeof cloudChangeSchema>;

export const cloudAgentResults = {
  'cloud.status': cloudStatusSchema,
  'cloud.keys.add': cloudChangeSchema,
  'cloud.keys.delete': cloudChangeSchema,
  'cloud.feeds.import': cloudChangeSchema,
  'cloud.feeds.add_url': cloudChangeSchema,
  'cloud.feeds.update': cloudChangeSchema,
  'cloud.feeds.edit': cloudChangeSchema,
  'cloud.feeds.set_enabled': cloudChangeSchema,
  'cloud.feeds.delete': cloudChangeSchema,
  'cloud.settings.set': cloudChangeSchema,
} as const;

/* Console bodies. */
export const cloudKeyAddBodySchema = z.object({ name: keyName, public_key: cloudPublicKeySchema }).strict();
export const cloudIdsBodySchema = z.object({ ids }).strict();
export const cloudImportBodySchema = z.object({ bundle: bundleText }).strict();
export const cloudAddUrlBodySchema = z.object({ url: cloudUrlSchema, interval_minutes: cloudIntervalSchema }).strict();
export const cloudFeedIdBodySchema = z.object({ id: z.number({ message: 'bad_request' }).int().positive() }).strict();
export const cloudFeedEditBodySchema = z.object({ id: z.number({ message: 'bad_request' }).int().positive(), interval_minutes: cloudIntervalSchema }).strict();
export const cloudSetEnabledBodySchema = z.object({ ids, enabled: z.boolean({ message: 'bad_request' }) }).strict();
export const cloudSettingsBodySchema = z.object({ settings: cloudSettingsSchema }).strict();
