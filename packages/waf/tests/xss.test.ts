import { describe, expect, it } from 'vitest';
import { decodedVariants } from '../src/decode/variants.ts';
import { startTags } from '../src/detect/xss/html.ts';
import { detectXssValue } from '../src/detect/xss/index.ts';
import { findScript, tokenizeJs } from '../src/detect/xss/js.ts';
import { xssAttacks, xssBenign, xssSuspicious } from './fixtures/xss.ts';

describe('HTML tag reader', () => {
  it('reads tags and attributes the way browsers do', () => {
    const [tag] = startTags('<svg/x=">"/oNloaD=confirm()//');
    expect(tag?.name).toBe('svg');
    expect(tag?.attributes).toEqual([{ name: 'x', value: '>' }, { name: 'onload', value: 'confirm()//' }]);
    expect(startTags('<a href=x title=\'y z\' hidden>t</a>')[0]?.attributes).toEqual([
      { name: 'href', value: 'x' },
      { name: 'title', value: 'y z' },
      { name: 'hidden', value: '' },
    ]);
  });
  it('ignores < that does not start a tag', () => {
    expect(startTags('a < b, 1<2, <$ tag, </p>, <!-- c -->')).toEqual([]);
  });
});

describe('JS reader', () => {
  it('finds sink calls in their obfuscated shapes', () => {
    for (const code of ['(alert)(1)', 'alert`1`', 'alert?.()', 'confirm.call(null,1)', '[1].some(confirm)', "top['al'+'ert'](1)", 'x.constructor("alert(1)")()']) {
      expect(findScript(tokenizeJs(code))?.shape, code).not.toBe('plain');
    }
    expect(findScript(tokenizeJs('alert(1)'))?.shape).toBe('plain');
    expect(findScript(tokenizeJs('print the report'))).toBeNull();
  });
});

describe('XSS detector', () => {
  // The strongest finding over all readings, as the pipeline would block on it.
  const detect = (value: string) =>
    decodedVariants(value, 'query')
      .map(detectXssValue)
      .reduce((best, h) => (h && (!best || h.severity > best.severity) ? h : best), null as ReturnType<typeof detectXssValue>);

  it.each(xssAttacks)('blocks %s', (attack) => {
    expect(detect(attack)).toMatchObject({ kind: 'xss', severity: 2 });
  });

  it.each(xssBenign)('passes %s', (text) => {
    expect(detect(text)).toBeNull();
  });

  it.each(xssSuspicious)('calls %s suspicious only', (text) => {
    expect(detect(text)).toMatchObject({ severity: 1 });
  });

  it('names the technique', () => {
    expect(detectXssValue('<img src=x onerror=alert(1)>')?.rule).toBe('xss.event_handler');
    expect(detectXssValue('<a href="javascript:alert(1)">')?.rule).toBe('xss.script_url');
    expect(detectXssValue("';alert(1)//")?.rule).toBe('xss.js_breakout');
    expect(detectXssValue('<script>alert(1)</script>')?.rule).toBe('xss.script_tag');
  });
});
