import type enUS from './en-US.ts';
import type enUSPages from './en-US.pages.ts';

/** The shape of a locale: the English tree with every text widened to string. */
export type Texts<T> = { readonly [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };
/** What the sign-in page, the error pages and the console's frame need (`<lang>.ts`). */
export type CoreTexts = Texts<typeof enUS>;
/** The signed-in console's page texts, loaded after sign-in (`<lang>.pages.ts`). */
export type PageTexts = Texts<typeof enUSPages>;
/** A whole language: both halves. */
export type LocaleTexts = CoreTexts & PageTexts;
