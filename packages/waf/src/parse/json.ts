/**
 * A JSON body flattened to what can carry an attack: every key and every leaf string (numbers and
 * booleans cannot), each with its path (`a.b[2]`, no longer than `maxDepth` steps), each distinct key
 * once. Bounded in count. A body that is not JSON gives null so the caller can read it another way.
 */
export interface JsonLeaf {
  path: string;
  /** The key itself (name inputs) or the leaf string (value inputs). */
  value: string;
  isKey: boolean;
}

export interface JsonLimits {
  maxDepth: number;
  maxLeaves: number;
}

export function flattenJson(text: string, limits: JsonLimits): JsonLeaf[] | null {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return null;
  }
  const leaves: JsonLeaf[] = [];
  const seenKeys = new Set<string>();
  // Every key and string the walk meets, to compare with the literals of the text (duplicate keys).
  let met = 0;
  // Iterative walk: a deeply nested body cannot blow the stack.
  const stack: { node: unknown; path: string; depth: number; key: string }[] = [{ node: root, path: '', depth: 0, key: '' }];
  // A string under the same key read once: a replay snapshot or a batch repeats `"tagName":"div"`,
  // `"type":"click"` thousands of times, and judging each copy adds nothing (the detectors see the
  // value and the key's name only). Padding with copies then no longer fills the input budget either.
  const seenValues = new Set<string>();
  while (stack.length > 0 && leaves.length < limits.maxLeaves) {
    const { node, path, depth, key: ownKey } = stack.pop()!;
    if (typeof node === 'string') {
      met++;
      const seen = ownKey + '\u0000' + node;
      if (seenValues.has(seen)) continue;
      if (seenValues.size < 65_536) seenValues.add(seen);
      leaves.push({ path, value: node, isKey: false });
    } else if (node !== null && typeof node === 'object') {
      // Past maxDepth the walk goes on (it is iterative: no stack to blow, and a payload must not
      // hide under 33 brackets); only the paths stop growing.
      const deep = depth >= limits.maxDepth;
      if (Array.isArray(node)) {
        for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], path: deep ? path : `${path}[${i}]`, depth: depth + 1, key: ownKey });
      } else {
        const entries = Object.entries(node as Record<string, unknown>);
        met += entries.length;
        for (let i = entries.length - 1; i >= 0; i--) {
          const [key, child] = entries[i]!;
          const childPath = deep ? path : path ? `${path}.${key}` : key;
          stack.push({ node: child, path: childPath, depth: depth + 1, key });
          // A key is read once: an array of records repeats the same few names a thousand times.
          if (!seenKeys.has(key)) {
            seenKeys.add(key);
            leaves.push({ path: childPath, value: key, isKey: true });
          }
        }
      }
    }
  }
  if (leaves.length < limits.maxLeaves) addShadowedStrings(text, met, leaves, limits.maxLeaves);
  return leaves.slice(0, limits.maxLeaves);
}

/** The string literals of a JSON text (start and end quote), by a quote scan; bounded. */
function stringLiterals(text: string, max: number): [number, number][] {
  const out: [number, number][] = [];
  let i = text.indexOf('"');
  while (i >= 0 && out.length < max) {
    let j = text.indexOf('"', i + 1);
    for (;;) {
      if (j < 0) return out;
      let backslashes = 0;
      for (let k = j - 1; text.charCodeAt(k) === 92; k--) backslashes++;
      if (backslashes % 2 === 0) break;
      j = text.indexOf('"', j + 1);
    }
    out.push([i, j]);
    i = text.indexOf('"', j + 1);
  }
  return out;
}

/**
 * A repeated key (`{"q":"1' union select…","q":"ok"}`): JSON.parse keeps the last value, while
 * other parsers keep the first (Go's encoding/json merges objects, some PHP and Java parsers take
 * the first) or hand both on. When the text holds more string literals than the parsed document
 * has keys and strings, the shadowed ones are read too (each literal not already read). Ordinary
 * JSON has no repeated key, so this costs one quote scan.
 */
function addShadowedStrings(text: string, met: number, leaves: JsonLeaf[], maxLeaves: number): void {
  // Counted first (stopping one past what the walk met), listed only when some were shadowed.
  if (stringLiterals(text, met + 1).length <= met) return;
  const literals = stringLiterals(text, met + maxLeaves);
  const read = new Set(leaves.map((l) => l.value));
  for (const [start, end] of literals) {
    if (leaves.length >= maxLeaves) return;
    let value: string;
    try {
      value = JSON.parse(text.slice(start, end + 1)) as string;
    } catch {
      continue;
    }
    if (read.has(value)) continue;
    read.add(value);
    leaves.push({ path: 'json[shadowed]', value, isKey: false });
  }
}

/**
 * The string literals of a body that looks like JSON but does not parse (a quote left unescaped,
 * an invalid `\'` escape). Some servers' lenient parsers accept such bodies, and a value
 * injected into a JSON template usually breaks it exactly this way, so its pieces are read too.
 */
export function lenientJsonStrings(text: string, maxStrings: number): string[] {
  const out: string[] = [];
  // Single-quoted strings too: Json.NET, JSON5 and Python-literal readers accept `{'q':'…'}`.
  const nextQuote = (from: number) => {
    const d = text.indexOf('"', from);
    const s = text.indexOf("'", from);
    return d < 0 ? s : s < 0 ? d : Math.min(d, s);
  };
  let i = nextQuote(0);
  while (i >= 0 && out.length < maxStrings) {
    const quote = text[i]!;
    let j = i + 1;
    let value = '';
    for (; j < text.length && text[j] !== quote; j++) {
      if (text[j] === '\\' && j + 1 < text.length) {
        const next = text[++j]!;
        // Valid JSON escapes keep their meaning (and `\'` inside single quotes); anything else keeps its backslash.
        value += next === quote || next === '"' || next === '\\' || next === '/' ? next : next === 'n' ? '\n' : next === 't' ? '\t' : next === 'r' ? '\r' : '\\' + next;
      } else value += text[j];
    }
    if (value) out.push(value);
    i = j < text.length ? nextQuote(j + 1) : -1;
  }
  return out;
}
