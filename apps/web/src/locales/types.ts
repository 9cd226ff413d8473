import type enUS from './en-US.ts';

/** The shape of a locale: the English tree with every text widened to string. */
export type Texts<T> = { readonly [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };
export type LocaleTexts = Texts<typeof enUS>;
