/**
 * A small evaluator of Log4j2 lookups, enough to see through the obfuscations used against
 * Log4Shell: ${lower:j}, ${upper:N}, ${::-j}, ${env:NOPE:-j}, ${date:'j'}, nested to any depth.
 * Unknown lookups with no default resolve to '' (what Log4j leaves is irrelevant to detection,
 * keeping their text would hide the word "jndi" split across pieces). jndi itself is kept.
 */
export interface ResolvedLookups {
  text: string;
  /** Names of lookups seen (lower case): env, sys, java, jndi… */
  names: Set<string>;
}

const maxDepth = 20;

export function resolveLookups(input: string): ResolvedLookups {
  const names = new Set<string>();
  const text = resolve(input, 0, names);
  return { text, names };
}

function resolve(input: string, depth: number, names: Set<string>): string {
  if (depth > maxDepth || !input.includes('${')) return input;
  let out = '';
  let i = 0;
  while (i < input.length) {
    const at = input.indexOf('${', i);
    if (at < 0) {
      out += input.slice(i);
      break;
    }
    out += input.slice(i, at);
    const close = matchingBrace(input, at + 2);
    if (close < 0) {
      out += input.slice(at);
      break;
    }
    const body = resolve(input.slice(at + 2, close), depth + 1, names);
    out += evaluate(body, names);
    i = close + 1;
  }
  return out;
}

function matchingBrace(s: string, from: number): number {
  let depth = 1;
  for (let i = from; i < s.length; i++) {
    if (s[i] === '$' && s[i + 1] === '{') {
      depth++;
      i++;
    } else if (s[i] === '}') {
      if (--depth === 0) return i;
    }
  }
  return -1;
}

function evaluate(body: string, names: Set<string>): string {
  const colon = body.indexOf(':');
  const prefix = (colon < 0 ? body : body.slice(0, colon)).trim().toLowerCase();
  const rest = colon < 0 ? '' : body.slice(colon + 1);
  if (prefix) names.add(prefix);
  if (prefix === 'jndi') return '${jndi:' + rest + '}';
  if (prefix === 'lower') return rest.toLowerCase();
  if (prefix === 'upper') return rest.toUpperCase();
  if (prefix === 'date') return rest.replace(/'/g, '');
  const dflt = body.indexOf(':-');
  if (dflt >= 0) return body.slice(dflt + 2);
  return '';
}
