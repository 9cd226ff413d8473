import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '../src');

/** The zh keys a file declares: `  key: '...'` lines inside its `const zh…= {` block. */
function zhKeys(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const start = text.search(/const zh\w* = \{/);
  const end = text.indexOf('} as const;', start);
  return [...text.slice(start, end).matchAll(/^ {2}(\w+):/gm)].map((m) => m[1]!);
}

describe('message parts', () => {
  // messages.ts merges the parts with object spread, where a repeated key silently wins: two
  // areas naming a message alike would show one of them the other's text.
  it('no two parts (nor the base list) declare the same key', () => {
    const files = [join(src, 'messages.ts'), ...readdirSync(join(src, 'messages')).map((f) => join(src, 'messages', f))];
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const file of files) {
      const keys = zhKeys(file);
      expect(keys.length, file).toBeGreaterThan(0);
      for (const key of keys) {
        const first = owner.get(key);
        if (first) clashes.push(`${key}: ${first} and ${file}`);
        else owner.set(key, file);
      }
    }
    expect(clashes).toEqual([]);
  });
});
