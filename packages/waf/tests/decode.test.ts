import { describe, expect, it } from 'vitest';
import { decodeBase64Text, looksLikeBase64 } from '../src/decode/base64.ts';
import { canonicalize } from '../src/decode/canonical.ts';
import { decodeHtmlEntities } from '../src/decode/html-entities.ts';
import { decodeJsEscapes } from '../src/decode/js-escapes.ts';
import { percentDecode, percentDecodeRepeatedly } from '../src/decode/url.ts';
import { decodeUtf7 } from '../src/decode/utf7.ts';
import { decodedVariants } from '../src/decode/variants.ts';

describe('percentDecode', () => {
  it('decodes UTF-8 sequences and leaves malformed escapes literal', () => {
    expect(percentDecode('a%20b%C3%A9')).toBe('a bé');
    expect(percentDecode('100%')).toBe('100%');
    expect(percentDecode('%zz%4')).toBe('%zz%4');
    expect(percentDecode('%C3')).toBe('\ufffd');
  });
  it('reads + as space only when asked (query and form values)', () => {
    expect(percentDecode('a+b')).toBe('a+b');
    expect(percentDecode('a+b%2B', true)).toBe('a b+');
  });
  it("understands IIS's %uXXXX", () => {
    expect(percentDecode('%u003cscript%u003e')).toBe('<script>');
  });
  it('repeats while the value changes, bounded', () => {
    expect(percentDecodeRepeatedly('%25253C')).toEqual(['%253C', '%3C', '<']);
    expect(percentDecodeRepeatedly('plain')).toEqual([]);
    expect(percentDecodeRepeatedly('%' + '25'.repeat(10) + '3C', false, 4)).toHaveLength(4);
  });
});

describe('decodeJsEscapes', () => {
  it('decodes \\uXXXX, \\u{…} and \\xXX, keeps unknown escapes', () => {
    expect(decodeJsEscapes('\\u0061lert\\x28\\u{31})')).toBe('alert(1)');
    expect(decodeJsEscapes('a\\nb\\u00zz')).toBe('a\\nb\\u00zz');
  });
});

describe('decodeHtmlEntities', () => {
  it('decodes named, decimal and hex references, with or without semicolons', () => {
    expect(decodeHtmlEntities('&lt;svg&gt;')).toBe('<svg>');
    expect(decodeHtmlEntities('java&#115;cript&#x3A;')).toBe('javascript:');
    expect(decodeHtmlEntities('&#0000000040x&#41')).toBe('(x)');
    expect(decodeHtmlEntities('jav&Tab;ascript&colon;alert&lpar;1&rpar;')).toBe('jav\tascript:alert(1)');
    expect(decodeHtmlEntities('&ltscript')).toBe('<script');
  });
  it('leaves unknown names and bare ampersands alone and never throws on huge numbers', () => {
    expect(decodeHtmlEntities('AT&T &unknown; &')).toBe('AT&T &unknown; &');
    expect(decodeHtmlEntities('&#99999999999999;')).toBe('\ufffd');
  });
});

describe('base64', () => {
  it('decodes readable base64, padded or flat (gotestwaf Base64Flat)', () => {
    expect(decodeBase64Text(Buffer.from("' or 1=1--").toString('base64'))).toBe("' or 1=1--");
    expect(decodeBase64Text(Buffer.from('<script>alert(1)</script>').toString('base64').replace(/=+$/, ''))).toBe('<script>alert(1)</script>');
  });
  it('ignores words, numbers, hex ids and binary noise', () => {
    expect(looksLikeBase64('administrator')).toBe(false);
    expect(looksLikeBase64('1234567890')).toBe(false);
    expect(looksLikeBase64('6f1c2a9e0b7d4c3a8e5f1a2b3c4d5e6f')).toBe(false);
    expect(looksLikeBase64('hello world')).toBe(false);
    expect(decodeBase64Text(Buffer.from([0, 1, 2, 200, 255, 3, 4, 5, 6]).toString('base64'))).toBeNull();
  });
});

describe('canonicalize', () => {
  it('drops NUL, controls and zero-width characters and folds whitespace', () => {
    expect(canonicalize('<scr\0ipt>')).toBe('<script>');
    expect(canonicalize('union\t\n  select')).toBe('union select');
    expect(canonicalize('java\ufeffscript\u200b:')).toBe('javascript:');
  });
});

describe('decodeUtf7', () => {
  it('decodes +…- runs of UTF-7 and leaves C++ and arithmetic alone', () => {
    expect(decodeUtf7('+ADw-script+AD4-')).toBe('<script>');
    expect(decodeUtf7('C++ -O2 and a+b-c')).toBe('C++ -O2 and a+b-c');
  });
});

describe('decodedVariants', () => {
  it('keeps the raw value first and adds each distinct decoding', () => {
    const variants = decodedVariants('%253Cscript%253E', 'query');
    expect(variants[0]).toBe('%253Cscript%253E');
    expect(variants).toContain('<script>');
  });
  it('layers decodings (URL then entities) and finds base64 and JS escapes', () => {
    expect(decodedVariants('javas%26%2399;ript:', 'query')).toContain('javascript:');
    expect(decodedVariants(Buffer.from('union select').toString('base64'), 'body')).toContain('union select');
    expect(decodedVariants('\\u003cscript\\u003e', 'body')).toContain('<script>');
  });
  it('is bounded in count whatever the input', () => {
    const nasty = '%25'.repeat(50) + '&amp;'.repeat(50) + '\\u0041'.repeat(50);
    expect(decodedVariants(nasty, 'query').length).toBeLessThanOrEqual(10);
    expect(decodedVariants('plain', 'query')).toEqual(['plain']);
  });
});
