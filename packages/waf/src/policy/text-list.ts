import { buildAutomaton, firstMatch, type Automaton } from './aho-corasick.ts';

/**
 * A list of partial-match entries (URL, user-agent, referer lists): does any entry occur in the
 * text? One automaton per list, so ten thousand entries cost one pass. Case-insensitive lists
 * lower-case both sides.
 */
export interface TextList {
  enabled: boolean;
  caseSensitive: boolean;
  automaton: Automaton;
  entries: string[];
}

export function buildTextList(enabled: boolean, entries: readonly string[], caseSensitive: boolean): TextList {
  const cleaned = entries.map((e) => e.trim()).filter((e) => e !== '');
  const keys = caseSensitive ? cleaned : cleaned.map((e) => e.toLowerCase());
  return { enabled: enabled && keys.length > 0, caseSensitive, automaton: buildAutomaton(keys), entries: cleaned };
}

/** The entry found in the text, or null. */
export function textListMatch(list: TextList, text: string): string | null {
  if (!list.enabled || text === '') return null;
  const id = firstMatch(list.automaton, list.caseSensitive ? text : text.toLowerCase());
  return id < 0 ? null : list.entries[id]!;
}
