import { z } from 'zod';
import { wizardStates, type WizardState } from '@rampart/contracts';

/** The quick configuration wizard: offered until it is finished or skipped once, for the whole panel. */
export const wizardSettingDefs = {
  wizard_state: { schema: z.enum(wizardStates), default: 'pending' as WizardState },
} as const;
