/*
 * The console's languages, without zod: the web app's first screen needs these names, and a module
 * that also built a schema would pull zod into the sign-in page's JavaScript. The schema is in i18n.ts.
 */
export const languages = ['zh-CN', 'en-US'] as const;
export type Language = (typeof languages)[number];
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
