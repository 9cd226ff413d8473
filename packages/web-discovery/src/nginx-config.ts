/** One nginx directive with its arguments (quotes removed) and, for blocks, its children. */
export interface NginxDirective {
  name: string;
  args: string[];
  file: string;
  line: number;
  block?: NginxDirective[];
}

type Token = { kind: 'word'; text: string; line: number } | { kind: '{' | '}' | ';'; line: number };

/**
 * nginx's lexer in small: words, quoted strings ('…' or "…", backslash escapes), `{`, `}`, `;`,
 * and `#` comments to the end of the line. A `#` inside a word is part of the word, as in nginx.
 */
export function tokenizeNginx(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '{' || c === '}' || c === ';') {
      tokens.push({ kind: c, line });
      i++;
    } else if (c === '"' || c === "'") {
      const start = line;
      let word = '';
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        if (text[i] === '\n') line++;
        word += text[i];
        i++;
      }
      i++;
      tokens.push({ kind: 'word', text: word, line: start });
    } else {
      let word = '';
      while (i < text.length && !' \t\r\n{};'.includes(text[i] as string)) {
        // ${var} inside a word keeps its braces.
        if (text[i] === '$' && text[i + 1] === '{') {
          const end = text.indexOf('}', i);
          word += text.slice(i, end + 1);
          i = end + 1;
          continue;
        }
        word += text[i];
        i++;
      }
      tokens.push({ kind: 'word', text: word, line });
    }
  }
  return tokens;
}

/** Parses one file's text into directives; unbalanced braces end the block quietly (-T already checked syntax). */
export function parseNginxConfig(text: string, file: string): NginxDirective[] {
  const tokens = tokenizeNginx(text);
  let pos = 0;
  const parseBlock = (): NginxDirective[] => {
    const out: NginxDirective[] = [];
    let current: NginxDirective | undefined;
    while (pos < tokens.length) {
      const t = tokens[pos++] as Token;
      if (t.kind === 'word') {
        if (current) current.args.push(t.text);
        else current = { name: t.text, args: [], file, line: t.line };
      } else if (t.kind === ';') {
        if (current) out.push(current);
        current = undefined;
      } else if (t.kind === '{') {
        const directive = current ?? { name: '', args: [], file, line: t.line };
        directive.block = parseBlock();
        out.push(directive);
        current = undefined;
      } else {
        return out;
      }
    }
    return out;
  };
  return parseBlock();
}

/** Splits `nginx -T` output into its files, in dump order: the first is the main configuration. */
export function splitNginxDump(dump: string): { file: string; text: string }[] {
  const marker = '# configuration file ';
  const files: { file: string; text: string }[] = [];
  const lines = dump.split('\n');
  let current: { file: string; lines: string[] } | undefined;
  for (const line of lines) {
    if (line.startsWith(marker) && line.endsWith(':')) {
      if (current) files.push({ file: current.file, text: current.lines.join('\n') });
      current = { file: line.slice(marker.length, -1), lines: [] };
    } else if (current) {
      current.lines.push(line);
    }
  }
  if (current) files.push({ file: current.file, text: current.lines.join('\n') });
  return files;
}

/** Shell-style glob (`*`, `?`) as nginx's include uses; no regular expression built from the pattern. */
export function globMatches(pattern: string, path: string): boolean {
  let p = 0;
  let s = 0;
  let starP = -1;
  let starS = 0;
  while (s < path.length) {
    if (p < pattern.length && (pattern[p] === '?' ? path[s] !== '/' : pattern[p] === path[s]) && pattern[p] !== '*') {
      p++;
      s++;
    } else if (p < pattern.length && pattern[p] === '*') {
      starP = p++;
      starS = s;
    } else if (starP >= 0 && path[starS] !== '/') {
      p = starP + 1;
      s = ++starS;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

/**
 * The configuration as nginx sees it: the main file with every `include` replaced by the
 * directives of the dumped files it names (relative paths resolve against the main file's folder,
 * as nginx resolves them against its prefix/conf folder).
 */
export function resolveNginxDump(dump: string): NginxDirective[] {
  const files = splitNginxDump(dump);
  const main = files[0];
  if (!main) return [];
  const parsed = new Map(files.map((f) => [f.file, parseNginxConfig(f.text, f.file)]));
  const confDir = main.file.slice(0, main.file.lastIndexOf('/') + 1);
  const expand = (directives: NginxDirective[], depth: number): NginxDirective[] =>
    directives.flatMap((d) => {
      if (d.name === 'include' && d.args[0] && depth < 16) {
        const pattern = d.args[0].startsWith('/') ? d.args[0] : confDir + d.args[0];
        return files.filter((f) => globMatches(pattern, f.file)).flatMap((f) => expand(parsed.get(f.file) ?? [], depth + 1));
      }
      return d.block ? [{ ...d, block: expand(d.block, depth) }] : [d];
    });
  return expand(parsed.get(main.file) ?? [], 0);
}
