/**
 * Aho-Corasick over UTF-16 code units: finds every occurrence of thousands of literal keywords in
 * one pass over the text, whatever their number (URL, user-agent and referer lists; keyword
 * libraries). Build once per policy, search per request. Callers lower-case both sides when they
 * want case-insensitive matching.
 */
export interface Automaton {
  /**
   * Transitions, compacted once built (a Map per state cost ~200 bytes; ten thousand list entries
   * make half a million states): state s's edges are codes/targets[edgeStart[s]..edgeStart[s+1]),
   * sorted by code.
   */
  edgeStart: Int32Array;
  codes: Uint16Array;
  targets: Int32Array;
  fail: Int32Array;
  /** Pattern ids ending at each state (own and via fail links), or null. */
  out: (number[] | null)[];
  lengths: number[];
}

function transition(automaton: Automaton, state: number, code: number): number {
  let low = automaton.edgeStart[state]!;
  let high = automaton.edgeStart[state + 1]! - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = automaton.codes[mid]!;
    if (at === code) return automaton.targets[mid]!;
    if (at < code) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

export function buildAutomaton(patterns: readonly string[]): Automaton {
  const next: Map<number, number>[] = [new Map()];
  const ownOut: (number[] | null)[] = [null];
  patterns.forEach((pattern, id) => {
    if (pattern === '') return;
    let state = 0;
    for (let i = 0; i < pattern.length; i++) {
      const code = pattern.charCodeAt(i);
      let to = next[state]!.get(code);
      if (to === undefined) {
        to = next.length;
        next.push(new Map());
        ownOut.push(null);
        next[state]!.set(code, to);
      }
      state = to;
    }
    (ownOut[state] ??= []).push(id);
  });
  const fail = new Int32Array(next.length);
  const out: (number[] | null)[] = ownOut.slice();
  const queue: number[] = [];
  for (const child of next[0]!.values()) queue.push(child);
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    for (const [code, child] of next[state]!) {
      let f = fail[state]!;
      while (f > 0 && !next[f]!.has(code)) f = fail[f]!;
      const target = next[f]!.get(code);
      fail[child] = target !== undefined && target !== child ? target : 0;
      const inherited = out[fail[child]!];
      if (inherited) out[child] = out[child] ? [...out[child]!, ...inherited] : inherited;
      queue.push(child);
    }
  }
  const edgeStart = new Int32Array(next.length + 1);
  let edges = 0;
  next.forEach((map, state) => {
    edgeStart[state] = edges;
    edges += map.size;
  });
  edgeStart[next.length] = edges;
  const codes = new Uint16Array(edges);
  const targets = new Int32Array(edges);
  next.forEach((map, state) => {
    let at = edgeStart[state]!;
    for (const code of [...map.keys()].sort((a, b) => a - b)) {
      codes[at] = code;
      targets[at++] = map.get(code)!;
    }
  });
  return { edgeStart, codes, targets, fail, out, lengths: patterns.map((p) => p.length) };
}

function step(automaton: Automaton, state: number, code: number): number {
  let s = state;
  for (;;) {
    const to = transition(automaton, s, code);
    if (to >= 0) return to;
    if (s === 0) return 0;
    s = automaton.fail[s]!;
  }
}

function empty(automaton: Automaton): boolean {
  return automaton.codes.length === 0;
}

/** The first pattern found (by end position), or -1. */
export function firstMatch(automaton: Automaton, text: string): number {
  if (empty(automaton)) return -1;
  let state = 0;
  for (let i = 0; i < text.length; i++) {
    state = step(automaton, state, text.charCodeAt(i));
    const found = automaton.out[state];
    if (found) return found[0]!;
  }
  return -1;
}

/** The ids of every pattern that occurs in the text. */
export function allMatches(automaton: Automaton, text: string): Set<number> {
  const found = new Set<number>();
  if (empty(automaton)) return found;
  let state = 0;
  for (let i = 0; i < text.length; i++) {
    state = step(automaton, state, text.charCodeAt(i));
    const ids = automaton.out[state];
    if (ids) for (const id of ids) found.add(id);
  }
  return found;
}

/** Every occurrence as [start, end) and pattern id, in order of end. */
export function occurrences(automaton: Automaton, text: string): { start: number; end: number; id: number }[] {
  const list: { start: number; end: number; id: number }[] = [];
  if (empty(automaton)) return list;
  let state = 0;
  for (let i = 0; i < text.length; i++) {
    state = step(automaton, state, text.charCodeAt(i));
    const ids = automaton.out[state];
    if (ids) for (const id of ids) list.push({ start: i + 1 - automaton.lengths[id]!, end: i + 1, id });
  }
  return list;
}
