import { parseKeywordMatchRule, parseKeywordReplaceRule, type KeywordLibrariesSettings, type KeywordReplaceRule } from '@rampart/contracts';
import { allMatches, buildAutomaton, occurrences, type Automaton } from './aho-corasick.ts';
import { decodedUrl, type RequestFacts } from './facts.ts';
import type { Decision } from '../types.ts';

/**
 * The keyword libraries (syntax in @rampart/contracts website-keywords.ts). Block and record
 * libraries: one automaton holds every distinct term; a request's text is scanned once, then each
 * rule whose first term was found is checked against the set of terms found.
 */
export interface CompiledMatchLibrary {
  enabled: boolean;
  automaton: Automaton;
  /** Rules as term ids, with their source line for the log. */
  rules: { all: number[]; none: number[]; line: string }[];
  /** Rule indexes by the id of their first term. */
  byFirstTerm: Map<number, number[]>;
}

export interface CompiledFilterLibrary {
  enabled: boolean;
  automaton: Automaton;
  replacements: string[];
}

export interface CompiledKeywords {
  block: CompiledMatchLibrary;
  record: CompiledMatchLibrary;
  filter: CompiledFilterLibrary;
}

function compileMatchLibrary(enabled: boolean, lines: readonly string[]): CompiledMatchLibrary {
  const termIds = new Map<string, number>();
  const idOf = (term: string): number => {
    let id = termIds.get(term);
    if (id === undefined) termIds.set(term, (id = termIds.size));
    return id;
  };
  const rules: CompiledMatchLibrary['rules'] = [];
  const byFirstTerm = new Map<number, number[]>();
  for (const line of lines) {
    const parsed = parseKeywordMatchRule(line);
    if (typeof parsed === 'string') continue;
    const rule = { all: parsed.all.map(idOf), none: parsed.none.map(idOf), line: line.trim() };
    const first = rule.all[0]!;
    const list = byFirstTerm.get(first) ?? [];
    list.push(rules.length);
    byFirstTerm.set(first, list);
    rules.push(rule);
  }
  return { enabled: enabled && rules.length > 0, automaton: buildAutomaton([...termIds.keys()]), rules, byFirstTerm };
}

export function compileKeywords(settings: KeywordLibrariesSettings): CompiledKeywords {
  const replaceRules = settings.filter.rules.map(parseKeywordReplaceRule).filter((r): r is KeywordReplaceRule => typeof r !== 'string');
  return {
    block: compileMatchLibrary(settings.block.enabled, settings.block.rules),
    record: compileMatchLibrary(settings.record.enabled, settings.record.rules),
    filter: {
      enabled: settings.filter.enabled && replaceRules.length > 0,
      automaton: buildAutomaton(replaceRules.map((r) => r.from)),
      replacements: replaceRules.map((r) => r.to),
    },
  };
}

/** The first rule of the library the text satisfies (its source line), or null. Text must be lower case. */
export function matchLibrary(library: CompiledMatchLibrary, lowerText: string): string | null {
  if (!library.enabled) return null;
  const found = allMatches(library.automaton, lowerText);
  let best: number | null = null;
  for (const id of found) {
    for (const index of library.byFirstTerm.get(id) ?? []) {
      const rule = library.rules[index]!;
      if (rule.all.every((t) => found.has(t)) && !rule.none.some((t) => found.has(t)) && (best === null || index < best)) best = index;
    }
  }
  return best === null ? null : library.rules[best]!.line;
}

/** The request text the libraries read: decoded URL (query read as a form) and body, lower case. */
export function keywordText(facts: Pick<RequestFacts, 'path' | 'formQuery' | 'bodyText'>): string {
  const url = decodedUrl({ path: facts.path, query: facts.formQuery });
  return (facts.bodyText === '' ? url : `${url}\n${facts.bodyText}`).toLowerCase();
}

export function checkBlockKeywords(keywords: CompiledKeywords, facts: RequestFacts): Decision | null {
  const line = matchLibrary(keywords.block, keywordText(facts));
  return line === null ? null : { action: 'block', rule: 'sql.keywords.block', kind: 'policy', evidence: line.slice(0, 120) };
}

/** A record rule lets the request pass and logs it; the caller keeps it only when nothing else decided. */
export function checkRecordKeywords(keywords: CompiledKeywords, facts: RequestFacts): Decision | null {
  const line = matchLibrary(keywords.record, keywordText(facts));
  return line === null ? null : { action: 'record', rule: 'sql.keywords.record', evidence: line.slice(0, 120) };
}

/**
 * The filter library applied to a text (a response body, or a request field): occurrences are
 * found case-insensitively and replaced leftmost first, the longest at a position winning, never
 * overlapping. Lower-casing keeps UTF-16 lengths for the texts this is meant for; where it would
 * not (a few special letters), the text is returned unfiltered rather than cut wrongly.
 */
export function applyKeywordFilter(keywords: CompiledKeywords, text: string): string {
  const filter = keywords.filter;
  if (!filter.enabled || text === '') return text;
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return text;
  const found = occurrences(filter.automaton, lower).sort((a, b) => a.start - b.start || b.end - a.end);
  if (found.length === 0) return text;
  let out = '';
  let at = 0;
  for (const hit of found) {
    if (hit.start < at) continue;
    out += text.slice(at, hit.start) + filter.replacements[hit.id]!;
    at = hit.end;
  }
  return out + text.slice(at);
}

