import { z } from 'zod';

export const languages = ['zh-CN', 'en-US'] as const;
export const languageSchema = z.enum(languages);
export type Language = z.infer<typeof languageSchema>;
export const defaultLanguage: Language = 'zh-CN';

/** Picks a supported language from an Accept-Language style value, or undefined. */
export function pickLanguage(header: string | undefined | null): Language | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase() ?? '';
    if (tag.startsWith('zh')) return 'zh-CN';
    if (tag.startsWith('en')) return 'en-US';
  }
  return undefined;
}
