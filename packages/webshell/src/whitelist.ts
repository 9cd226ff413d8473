/**
 * Whitelist entries (the spec: partial paths must contain `*`). A full path without `*` trusts that
 * file or everything under that directory; with `*`, the pattern matches the whole path and `*`
 * stands for any run of characters, `/` included (`*\/vendor/*`, `/var/www/*.min.js`). An entry that
 * matches a folder covers everything inside it.
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
  const matches = (path: string): boolean => prefixes.some((prefix) => path === prefix || path.startsWith(prefix + '/')) || patterns.some((pattern) => pattern.test(path));
  // A pattern that names a folder (`*/vendor`) covers what is inside it: the tree walk never enters
  // such a folder, so the real-time watch, which sees only the file's path, checks its folders too.
  return (path) => {
    for (let end = path.length; end > 0; end = path.lastIndexOf('/', end - 1)) {
      if (matches(path.slice(0, end))) return true;
    }
    return false;
  };
}
