import { z } from 'zod';
import { accountChangeSchema, accountPrivilegedSchema, accountSettingsSchema, accountStatusSchema } from './account.ts';

/* Agent calls and console bodies of user protection. The agent owns the settings and the unlock. */

/** Who made the change, for the event log. */
const account = z.string().max(64).default('');
/** An unlock lasts 1 minute to 24 hours. */
export const accountUnlockMinutesSchema = z.number({ message: 'account_unlock_minutes' }).int('account_unlock_minutes').min(1, 'account_unlock_minutes').max(1440, 'account_unlock_minutes');

export const accountAgentParams = {
  'account.status': z.object({}).strict(),
  'account.settings.set': z.object({ settings: accountSettingsSchema, account }).strict(),
  'account.unlock': z.object({ minutes: accountUnlockMinutesSchema, account }).strict(),
  'account.relock': z.object({ account }).strict(),
  'account.privileged': z.object({}).strict(),
  'account.root_login.set': z.object({ disable: z.boolean(), account }).strict(),
} as const;

export const accountAgentResults = {
  'account.status': accountStatusSchema,
  'account.settings.set': accountChangeSchema,
  'account.unlock': accountChangeSchema,
  'account.relock': accountChangeSchema,
  'account.privileged': accountPrivilegedSchema,
  'account.root_login.set': accountChangeSchema,
} as const;

/* Console bodies (`/magapi/account/...`). */
export const accountSettingsBodySchema = z.object({ settings: accountSettingsSchema }).strict();
export const accountUnlockBodySchema = z.object({ minutes: accountUnlockMinutesSchema }).strict();
export const accountRootLoginBodySchema = z.object({ disable: z.boolean({ message: 'bad_request' }) }).strict();
