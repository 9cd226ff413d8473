import { describe, expect, it } from 'vitest';
import { parseKeywordMatchRule, parseKeywordReplaceRule } from '@rampart/contracts';
import { allMatches, applyKeywordFilter, buildAutomaton, checkBlockKeywords, checkRecordKeywords, evaluateRequestPolicy, noTimedLists, occurrences } from '../../src/policy/index.ts';
import { facts, policyWith } from './support.ts';

describe('keyword rule syntax', () => {
  it('parses block and record rules: ++ all, -- none, trimmed, lower case', () => {
    expect(parseKeywordMatchRule('Casino')).toEqual({ all: ['casino'], none: [] });
    expect(parseKeywordMatchRule('a ++ b++C')).toEqual({ all: ['a', 'b', 'c'], none: [] });
    expect(parseKeywordMatchRule('casino--casino royale')).toEqual({ all: ['casino'], none: ['casino royale'] });
    expect(parseKeywordMatchRule('a++b--c--d')).toEqual({ all: ['a', 'b'], none: ['c', 'd'] });
    expect(parseKeywordMatchRule('a--b++c')).toEqual({ all: ['a', 'c'], none: ['b'] });
  });

  it('refuses empty terms, == in a block rule, and long keywords', () => {
    expect(parseKeywordMatchRule('')).toBe('web_keyword_empty');
    expect(parseKeywordMatchRule('++a')).toBe('web_keyword_syntax');
    expect(parseKeywordMatchRule('a++')).toBe('web_keyword_syntax');
    expect(parseKeywordMatchRule('a++++b')).toBe('web_keyword_syntax');
    expect(parseKeywordMatchRule('a==b')).toBe('web_keyword_syntax');
    expect(parseKeywordMatchRule('k'.repeat(101))).toBe('web_keyword_too_long');
    expect(parseKeywordMatchRule('k'.repeat(100))).toEqual({ all: ['k'.repeat(100)], none: [] });
  });

  it('parses filter rules: x==y, x== deletes, bare x masks', () => {
    expect(parseKeywordReplaceRule('Foo==bar')).toEqual({ from: 'foo', to: 'bar' });
    expect(parseKeywordReplaceRule('foo==')).toEqual({ from: 'foo', to: '' });
    expect(parseKeywordReplaceRule('赌博')).toEqual({ from: '赌博', to: '**' });
    expect(parseKeywordReplaceRule('==x')).toBe('web_keyword_syntax');
    expect(parseKeywordReplaceRule('a==b==c')).toBe('web_keyword_syntax');
  });
});

describe('Aho-Corasick', () => {
  it('finds overlapping and nested patterns', () => {
    const automaton = buildAutomaton(['he', 'she', 'his', 'hers']);
    expect([...allMatches(automaton, 'ushers')].sort()).toEqual([0, 1, 3]);
    expect(occurrences(automaton, 'ushers').map((o) => [o.start, o.end, o.id])).toEqual([
      [1, 4, 1],
      [2, 4, 0],
      [2, 6, 3],
    ]);
    expect(allMatches(buildAutomaton([]), 'anything').size).toBe(0);
  });

  it('agrees with a naive search on random patterns and texts (small alphabet, many overlaps)', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const word = (max: number) => Array.from({ length: 1 + Math.floor(random() * max) }, () => 'abc'[Math.floor(random() * 3)]).join('');
    for (let round = 0; round < 200; round++) {
      const patterns = Array.from({ length: 1 + Math.floor(random() * 12) }, () => word(5));
      const text = word(40);
      const automaton = buildAutomaton(patterns);
      const naive = new Set(patterns.flatMap((p, id) => (text.includes(p) ? [id] : [])));
      expect(allMatches(automaton, text), `${patterns.join(',')} in ${text}`).toEqual(naive);
      const naiveOccurrences: string[] = [];
      patterns.forEach((p, id) => {
        for (let at = text.indexOf(p); at >= 0; at = text.indexOf(p, at + 1)) naiveOccurrences.push(`${at}:${id}`);
      });
      expect(occurrences(automaton, text).map((o) => `${o.start}:${o.id}`).sort()).toEqual(naiveOccurrences.sort());
    }
  });
});

describe('keyword libraries on requests', () => {
  const policy = policyWith((s) => {
    s.sql.keywords.block = { enabled: true, rules: ['casino--casino royale', 'viagra++cheap'] };
    s.sql.keywords.record = { enabled: true, rules: ['competitor'] };
    s.sql.keywords.filter = { enabled: true, rules: ['darn==d*rn', 'secret', 'a==b', 'ab==XY'] };
  });
  const off = policyWith();

  it('a single keyword blocks, its exception lets through, in URL or body, any case', () => {
    const spam = facts({ path: '/post', query: 'q=Online CASINO' });
    expect(checkBlockKeywords(off.keywords, spam)).toBeNull();
    expect(checkBlockKeywords(policy.keywords, spam)).toMatchObject({ action: 'block', rule: 'sql.keywords.block', evidence: 'casino--casino royale' });
    expect(checkBlockKeywords(policy.keywords, facts({ path: '/post', query: 'q=casino royale review' }))).toBeNull();
    expect(checkBlockKeywords(policy.keywords, facts({ method: 'POST', bodyText: 'visit my casino' }))).not.toBeNull();
  });

  it('a++b needs both', () => {
    expect(checkBlockKeywords(policy.keywords, facts({ query: 'viagra' }))).toBeNull();
    expect(checkBlockKeywords(policy.keywords, facts({ query: 'cheap' }))).toBeNull();
    expect(checkBlockKeywords(policy.keywords, facts({ query: 'cheap pills', bodyText: 'Viagra' }))).toMatchObject({ evidence: 'viagra++cheap' });
  });

  it('the record library passes the request and says so', () => {
    expect(checkRecordKeywords(policy.keywords, facts({ query: 'see competitor.com' }))).toEqual({ action: 'record', rule: 'sql.keywords.record', evidence: 'competitor' });
    expect(evaluateRequestPolicy(policy, facts({ query: 'see competitor.com' }), noTimedLists)).toBeNull();
  });

  it('the filter library replaces case-insensitively, leftmost-longest, without overlaps', () => {
    expect(applyKeywordFilter(off.keywords, 'Darn it')).toBe('Darn it');
    expect(applyKeywordFilter(policy.keywords, 'Darn it, the SECRET is ab, a')).toBe('d*rn it, the ****** is XY, b');
  });
});
