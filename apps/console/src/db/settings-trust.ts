import { defaultTrustAutoAdd, trustAutoAddSchema, type TrustAutoAdd } from '@rampart/contracts';

/**
 * Console settings of the super whitelist tab: the automatic add at panel sign-in. It is the
 * console's (it reacts to a console sign-in); the list itself lives in the agent.
 */
export const trustSettingDefs = {
  trust_auto_add: { schema: trustAutoAddSchema, default: defaultTrustAutoAdd as TrustAutoAdd },
} as const;
