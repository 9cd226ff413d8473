import { defaultDynamicSettings, dynamicSettingsSchema, type DynamicSettings } from '@rampart/contracts';

/** The situational-awareness dashboard's preferences (attack sound, server location): panel state, the console's. */
export const dynamicSettingDefs = {
  dynamic_settings: { schema: dynamicSettingsSchema, default: defaultDynamicSettings as DynamicSettings },
} as const;
