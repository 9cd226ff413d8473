/**
 * Whitelist entries (the spec: partial paths must contain `*`). A full path without `*` trusts that
 * file or everything under that directory; with `*`, the pattern matches the whole path and `*`
 * stands for any run of characters, `/` included (`*\/vendor/*`, `/var/www/*.min.js`).
 */
export type PathMatcher = (path: string) => boolean;

const escapeRegExp = (text: string): string => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

export function whitelistMatcher(entries: readonly string[]): PathMatcher {
  const prefixes: string[] = [];
  const patterns: RegExp[] = [];
  for (const entry of entries) {
    if (entry.includes('*')) patterns.push(new RegExp(`^${entry.split('*').map(escapeRegExp).join('.*')}$`));
    else prefixes.push(entry.replace(/\/+$/, ''));
  }
  return (path) => prefixes.some((prefix) => path === prefix || path.startsWith(prefix + '/')) || patterns.some((pattern) => pattern.test(path));
}
