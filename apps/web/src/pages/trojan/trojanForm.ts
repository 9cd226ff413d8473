import { isMessageKey, translate, trojanPathSchema, trojanSettingsSchema, webshellWhitelistEntrySchema, type Language, type TrojanSettings } from '@rampart/contracts';

/* Client-side checks of the trojan forms: the same schemas and words as the server's. */

/** A schema message in the page's language (an unknown one reads as a bad request). */
const words = (lang: Language, message: string | undefined) => translate(lang, message && isMessageKey(message) ? message : 'bad_request');

/** Non-empty trimmed lines of a textarea. */
export const linesOf = (text: string): string[] => text.split('\n').map((l) => l.trim()).filter((l) => l !== '');

export interface SettingsDraft {
  realtime: boolean;
  extensions: string[];
  sizeLimitKb: number | null;
  handling: TrojanSettings['handling'];
  whitelist: string;
  isolateRetentionDays: number | null;
  scheduleEnabled: boolean;
  scheduleTime: string;
}

export const draftOf = (s: TrojanSettings): SettingsDraft => ({
  realtime: s.realtime,
  extensions: [...s.extensions],
  sizeLimitKb: s.sizeLimitKb,
  handling: s.handling,
  whitelist: s.whitelist.join('\n'),
  isolateRetentionDays: s.isolateRetentionDays,
  scheduleEnabled: s.schedule.enabled,
  scheduleTime: s.schedule.time,
});

/** The field of the form a settings path belongs to. */
function fieldOf(path: readonly PropertyKey[]): string {
  const [first, second] = path;
  if (first === 'schedule') return second === 'time' ? 'scheduleTime' : 'scheduleEnabled';
  return String(first ?? '');
}

/**
 * The settings to save, or the errors by field in the page's language. A whitelist line is checked on
 * its own so the message names it (partial paths must contain *).
 */
export function checkSettings(d: SettingsDraft, lang: Language, lineWords: (line: number, message: string) => string): { settings: TrojanSettings } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const whitelist = linesOf(d.whitelist);
  whitelist.forEach((entry, i) => {
    const checked = webshellWhitelistEntrySchema.safeParse(entry);
    if (!checked.success && !errors.whitelist) errors.whitelist = lineWords(i + 1, words(lang, checked.error.issues[0]?.message));
  });
  const candidate = {
    realtime: d.realtime,
    extensions: d.extensions.map((e) => e.trim().replace(/^\./, '')).filter((e) => e !== ''),
    sizeLimitKb: d.sizeLimitKb ?? Number.NaN,
    handling: d.handling,
    whitelist,
    isolateRetentionDays: d.isolateRetentionDays ?? Number.NaN,
    schedule: { enabled: d.scheduleEnabled, time: d.scheduleTime.trim() },
  };
  const parsed = trojanSettingsSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path);
      if (!errors[field]) errors[field] = words(lang, issue.message);
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { errors };
  return { settings: parsed.data };
}

/** Audit paths, one per line: the first wrong line's words, or the paths. */
export function checkPaths(text: string, lang: Language, lineWords: (line: number, message: string) => string): { paths: string[] } | { error: string } {
  const paths = linesOf(text);
  if (paths.length === 0) return { error: translate(lang, 'trojan_paths_required') };
  if (paths.length > 64) return { error: translate(lang, 'trojan_paths_too_many') };
  for (const [i, path] of paths.entries()) {
    const checked = trojanPathSchema.safeParse(path);
    if (!checked.success) return { error: lineWords(i + 1, words(lang, checked.error.issues[0]?.message)) };
  }
  return { paths };
}
