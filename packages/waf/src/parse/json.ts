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
  // Iterative walk: a deeply nested body cannot blow the stack.
  const stack: { node: unknown; path: string; depth: number }[] = [{ node: root, path: '', depth: 0 }];
  while (stack.length > 0 && leaves.length < limits.maxLeaves) {
    const { node, path, depth } = stack.pop()!;
    if (typeof node === 'string') {
      leaves.push({ path, value: node, isKey: false });
    } else if (node !== null && typeof node === 'object') {
      // Past maxDepth the walk goes on (it is iterative: no stack to blow, and a payload must not
      // hide under 33 brackets); only the paths stop growing.
      const deep = depth >= limits.maxDepth;
      if (Array.isArray(node)) {
        for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], path: deep ? path : `${path}[${i}]`, depth: depth + 1 });
      } else {
        const entries = Object.entries(node as Record<string, unknown>);
        for (let i = entries.length - 1; i >= 0; i--) {
          const [key, child] = entries[i]!;
          const childPath = deep ? path : path ? `${path}.${key}` : key;
          stack.push({ node: child, path: childPath, depth: depth + 1 });
          // A key is read once: an array of records repeats the same few names a thousand times.
          if (!seenKeys.has(key)) {
            seenKeys.add(key);
            leaves.push({ path: childPath, value: key, isKey: true });
          }
        }
      }
    }
  }
  return leaves.slice(0, limits.maxLeaves);
}

/**
 * The string literals of a body that looks like JSON but does not parse (a quote left unescaped,
 * an invalid `\'` escape). Some servers' lenient parsers accept such bodies, and a value
 * injected into a JSON template usually breaks it exactly this way, so its pieces are read too.
 */
export function lenientJsonStrings(text: string, maxStrings: number): string[] {
  const out: string[] = [];
  let i = text.indexOf('"');
  while (i >= 0 && out.length < maxStrings) {
    let j = i + 1;
    let value = '';
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === '\\' && j + 1 < text.length) {
        const next = text[++j]!;
        // Valid JSON escapes keep their meaning; anything else (`\'`) keeps its backslash.
        value += next === '"' || next === '\\' || next === '/' ? next : next === 'n' ? '\n' : next === 't' ? '\t' : next === 'r' ? '\r' : '\\' + next;
      } else value += text[j];
    }
    if (value) out.push(value);
    i = j < text.length ? text.indexOf('"', j + 1) : -1;
  }
  return out;
}
