import { describe, expect, it } from 'vitest';
import { containsAnyOf } from '../../src/detect/contains-any.ts';

describe('containsAnyOf', () => {
  const has = containsAnyOf(['url(', '${', '\\u', '.call`', 'alert']);

  it('finds each word as written, regular-expression characters included', () => {
    expect(has('background: url(x)')).toBe(true);
    expect(has('`${a}`')).toBe(true);
    expect(has('\\u0061lert')).toBe(true);
    expect(has('f.call`x`')).toBe(true);
    expect(has('window.alert(1)')).toBe(true);
  });

  it('does not read the words as patterns', () => {
    expect(has('urlx')).toBe(false); // `(` is no group
    expect(has('$a')).toBe(false); // `$` is no anchor
    expect(has('u0061')).toBe(false); // `\u` needs its backslash
    expect(has('fxcall`x`')).toBe(false); // `.` is no wildcard
    expect(has('')).toBe(false);
  });
});
