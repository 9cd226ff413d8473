import { z } from 'zod';
import { languages } from './languages.ts';

export { defaultLanguage, languages, pickLanguage, type Language } from './languages.ts';
export const languageSchema = z.enum(languages);
