/**
 * The two hex digits of an ASCII letter or digit (`30`–`39`, `41`–`5a`, `61`–`7a`), as a pattern
 * source: what a percent or `\u00` escape of a letter reads like. No encoder escapes a letter, so
 * the request-line and parameter checks look for it (CRS 920230, 920540).
 */
export const alnumHexCode = '(?:3[0-9]|[46][1-9a-f]|[57][0-9a])';
