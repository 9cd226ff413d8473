/**
 * Overlong UTF-8 against legacy-charset text: windows-1251 forms post Cyrillic as single bytes, and
 * some of their letter pairs are the very bytes of an overlong form (`А»` is C0 BB, `АЇ` C0 AF).
 * Those must pass in both modes; the overlong forms that do a lenient decoder's work (traversal,
 * a lone `/` or `<` among ASCII, a letter spelled inside a word) must not.
 */
import { describe, expect, it } from 'vitest';
import { inspect } from '../../src/inspect.ts';
import { protocolHits, viewOf } from '../../src/protocol/index.ts';
import { requestLineInputs } from '../../src/inputs.ts';
import { browser, wire } from './wire.ts';

/** windows-1251 for the Cyrillic and punctuation used below. */
const cp1251Extra: Record<string, number> = { 'Ё': 0xa8, 'ё': 0xb8, 'Ї': 0xaf, 'ї': 0xbf, 'І': 0xb2, 'і': 0xb3, 'Є': 0xaa, 'є': 0xba, 'Ґ': 0xa5, 'ґ': 0xb4, '«': 0xab, '»': 0xbb, '…': 0x85, '—': 0x97, '–': 0x96, '№': 0xb9, '®': 0xae, '\u00a0': 0xa0 };

/** What a windows-1251 page's form puts in the URL for the text: bytes percent-encoded, spaces as '+'. */
function cp1251Form(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (ch === ' ') out += '+';
    else if (/[A-Za-z0-9._-]/.test(ch)) out += ch;
    else {
      const byte = cp >= 0x410 && cp <= 0x44f ? cp - 0x410 + 0xc0 : cp < 0x80 ? cp : cp1251Extra[ch];
      if (byte === undefined) throw new Error(`no windows-1251 byte for ${ch}`);
      out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
    }
  }
  return out;
}

const get = (target: string) => wire(`GET ${target} HTTP/1.1\n${browser}\n\n`);
const overlongHits = (target: string) => {
  const request = get(target);
  return protocolHits(1, viewOf(request), requestLineInputs(request)).filter((h) => h.rule === 'protocol.overlong_utf8');
};

describe('overlong UTF-8: windows-1251 form values pass in both modes', () => {
  const texts = [
    'ООО «РОМАШКА»', // А» is C0 BB, an overlong ';'
    'УКРАЇНА', // АЇ is C0 AF, an overlong '/'
    'БІЛА ЦЕРКВА', // БІ is C1 B2
    '«Литера А»', // А» after a space: an overlong ';' among ASCII
    'Серия А® и корпус Б\u00a05', // C0 AE ('.') and C1 A0 ('`') between ASCII
    'Она сказала: «Да…»', // а…» is E0 85 BB, an overlong of U+017B
    'корпус А\u00a05', // А and a no-break space: C0 A0
    'ТОВ «ЛАЙФ» і «АЄ»', // АЄ is C0 AA, «А» and Є around it
    'вул. Шевченка, 1, кв. А—5',
  ];
  it.each(texts)('%s', (text) => {
    const target = `/search?q=${cp1251Form(text)}&city=${cp1251Form('Київ')}`;
    expect(target).toMatch(/%C[01]%[89AB]|%E0%[89]/);
    expect(overlongHits(target)).toEqual([]);
    expect(inspect(get(target), { mode: 'strict' })).toEqual({ action: 'pass' });
    expect(inspect(get(target), { mode: 'loose' })).toEqual({ action: 'pass' });
  });

  it('all-caps Ukrainian ending in АЇ before an ellipsis (an overlong \'/\' before plain dots)', () => {
    const target = `/search?q=${cp1251Form('ПАЇ... КРАЇ..')}`;
    expect(overlongHits(target)).toEqual([]);
    // The traversal detector reads overlong forms with the same reader: no `/...` segment either.
    expect(inspect(get(target), { mode: 'strict' })).toEqual({ action: 'pass' });
    expect(inspect(get(target), { mode: 'loose' })).toEqual({ action: 'pass' });
  });

  it('in a form body too', () => {
    const body = `company=${cp1251Form('ООО «РОМАШКА»')}&region=${cp1251Form('УКРАЇНА')}`;
    const request = wire(`POST /order HTTP/1.1\n${browser}\nContent-Type: application/x-www-form-urlencoded; charset=windows-1251\nContent-Length: ${body.length}\n\n${body}`);
    expect(inspect(request, { mode: 'strict' })).toEqual({ action: 'pass' });
  });
});

describe('overlong UTF-8 that does a lenient decoder\'s work', () => {
  it.each([
    ['/scripts/..%c0%af../winnt/system32/cmd.exe', 'traversal through an overlong slash'],
    ['/download?file=%C0%AE%C0%AE%C0%AF%C0%AE%C0%AE%C0%AFetc%C0%AFpasswd', 'traversal spelled in overlong forms only'],
    ['/download?file=..%c1%9c..%c1%9cwindows', 'traversal through an overlong backslash'],
    ['/?param=%c0%af', 'a lone overlong slash among ASCII'],
    ['/?q=%c0%bcscript%c0%bealert(1)', 'markup in overlong forms'],
    ['/x?f=a.jsp%c0%80.jpg', 'an overlong NUL cutting an extension'],
    ['/%e0%80%afetc/passwd', 'a three-byte overlong slash'],
    ['/?p=%f0%80%80%ae%f0%80%80%ae/x', 'four-byte overlong dots'],
  ])('%s (%s)', (target) => {
    expect(overlongHits(target).map((h) => h.severity)).toEqual([2]);
    expect(inspect(get(target), { mode: 'loose' })).toMatchObject({ action: 'block' });
  });

  it('a letter spelled overlong inside an ASCII word is suspicious', () => {
    expect(overlongHits('/?q=sel%c1%a5ct').map((h) => h.severity)).toEqual([1]);
    expect(inspect(get('/?q=sel%c1%a5ct'), { mode: 'strict' })).toMatchObject({ action: 'block' });
  });

  it('a traversal hidden between legacy-looking bytes still counts', () => {
    expect(overlongHits('/?f=%d1..%c0%af%d1').map((h) => h.severity)).toEqual([2]);
  });

  it.each([
    ['/download?file=..%c0%af..%c0%afetc%c0%afpasswd', 'overlong slashes'],
    ['/download?file=%25c0%25ae%25c0%25ae%25c0%25afetc%25c0%25afpasswd', 'overlong forms escaped twice'],
    ['/download?file=%d1..%c0%af..%c0%af%d1', 'between legacy-looking bytes'],
    ['/download?file=..%C3%80%C2%AF..%C3%80%C2%AFetc', 'the latin-1 reading of an overlong slash (`À¯`), sent as UTF-8'],
  ])('the traversal detector folds overlong forms that make a traversal: %s (%s)', (target) => {
    expect(inspect(get(target), { mode: 'loose' })).toMatchObject({ action: 'block', kind: 'path_traversal' });
  });
});
