/**
 * Console settings of this area (same shape as settingDefs in settings.ts, which merges them).
 * None: the mode is `login_check_mode` (the portal tab edits it); the code lifetimes, resend
 * countdown and try limits are fixed in sign-in/tickets.ts, and enrolments live in their own table.
 */
export const signInCheckSettingDefs = {} as const;
