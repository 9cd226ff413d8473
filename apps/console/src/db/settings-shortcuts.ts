/** Console settings of this area (same shape as settingDefs in settings.ts, which merges them). */
export const shortcutSettingDefs = {} as const;
