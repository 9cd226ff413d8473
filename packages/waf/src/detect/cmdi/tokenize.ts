/**
 * A small POSIX-shell (plus cmd.exe) tokenizer: splits a value into simple commands the way a shell
 * would, undoing the obfuscations attackers use so the command name can be looked up:
 * quotes inside words (c'a't, c""at), backslash escapes (c\at), empty expansions ($@, $9, ${x}),
 * IFS tricks ($IFS, ${IFS}, $IFS$9), ${PATH:0:1} for '/', ANSI-C quoting ($'\x63at') and locale
 * strings ($"whoami"), `$_` inside a word (c$_at), brace
 * expansion ({cat,/etc/passwd}). It never fails: unbalanced quotes are taken literally (prose
 * apostrophes must not swallow the rest of the value).
 */

/** What introduced a simple command: a real shell separator, or the start of the value. */
export type Separator = 'start' | ';' | '|' | '||' | '&' | '&&' | 'newline' | 'backtick' | 'subshell' | 'procsub' | 'close';

export interface ShellWord {
  text: string;
  /** Quotes, escapes or empty expansions were used inside the word. */
  obfuscated: boolean;
  /** Unquoted glob characters (* ? [) are in the word. */
  glob: boolean;
  /** Part or all of the word was in quotes (`'time' who`: a command word nobody quotes). */
  quoted?: boolean;
}

export interface ShellCommand {
  separator: Separator;
  words: ShellWord[];
  /** A redirection (<, >, >>, 2>&1) appeared in the command. */
  redirect: boolean;
  /** The command contained an arithmetic expansion $(( )). */
  arithmetic: boolean;
  /** Words were split by $IFS / ${IFS}: only evasion writes a blank that way. */
  ifs?: boolean;
}

const wordBreak = new Set([' ', '\t', '\v', '\f']);
/** Variables whose first character is '/' on every Unix: ${PATH:0:1} style slash smuggling. */
const slashVars = new Set(['PATH', 'HOME', 'PWD', 'SHELL', 'OLDPWD']);

export function tokenizeShell(input: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  forEachShellCommand(input, (command) => void commands.push(command));
  return commands;
}

/**
 * Hands each simple command to `visit` as soon as it ends, in order; `visit` returning true stops
 * the reading. (A reader that judges as it goes keeps two commands alive, not all of them: `a(a(…`
 * makes 50,000, which outlived a worker's young generation and cost a third of the request in
 * garbage collection.)
 */
export function forEachShellCommand(input: string, visit: (command: ShellCommand) => boolean | void): void {
  let stopped = false;
  let current: ShellCommand = { separator: 'start', words: [], redirect: false, arithmetic: false };
  let text = '';
  // Whether `text` holds a backslash, kept as it grows: asking text (a string built by +=, which a
  // regex or includes() flattens first) at every backslash made 250,000 backslashes take 20 s.
  let textHasBackslash = false;
  let obfuscated = false;
  let glob = false;
  let quotedWord = false;
  let inWord = false;
  let backtickOpen = false;

  const endWord = (): void => {
    if (inWord) {
      pushWord(current, text, obfuscated, glob, quotedWord);
    }
    text = '';
    textHasBackslash = false;
    obfuscated = false;
    glob = false;
    quotedWord = false;
    inWord = false;
  };
  const startCommand = (separator: Separator): void => {
    endWord();
    if (!stopped && (current.words.length > 0 || current.redirect || current.arithmetic)) stopped = visit(current) === true;
    current = { separator, words: [], redirect: false, arithmetic: false };
  };

  const n = input.length;
  let i = 0;
  while (i < n && !stopped) {
    const c = input[i]!;
    const next = input[i + 1];
    if (wordBreak.has(c)) {
      endWord();
      i++;
    } else if (c === '\n' || c === '\r') {
      startCommand('newline');
      i++;
    } else if (c === ';') {
      startCommand(';');
      i++;
    } else if (c === '|') {
      startCommand(next === '|' ? '||' : '|');
      i += next === '|' ? 2 : 1;
    } else if (c === '&') {
      startCommand(next === '&' ? '&&' : '&');
      i += next === '&' ? 2 : 1;
    } else if (c === '`' && next === '`') {
      // An empty substitution (pi``ng) expands to nothing: pure obfuscation inside a word.
      obfuscated = true;
      i += 2;
    } else if (c === '`') {
      backtickOpen = !backtickOpen;
      startCommand(backtickOpen ? 'backtick' : 'close');
      i++;
    } else if (c === '(') {
      // name( is function-call syntax (SQL, JS, PHP), and "the number (id)" is prose: a subshell
      // opens only where a command could start (value start, after a separator or another paren).
      startCommand(!inWord && opensCommand(input, i) ? 'subshell' : 'close');
      i++;
    } else if (c === ')') {
      startCommand('close');
      i++;
    } else if ((c === '<' || c === '>') && next === '(' && input[i + 2] === ')') {
      // An empty process substitution (pi<()ng) expands to nothing: obfuscation inside a word.
      obfuscated = true;
      i += 3;
    } else if ((c === '<' || c === '>') && next === '(' && !inWord) {
      // Process substitution, <(cmd) or >(cmd): bash runs the command and hands over a file name.
      startCommand('procsub');
      i += 2;
    } else if (c === '<' || c === '>') {
      endWord();
      current.redirect = true;
      i++;
    } else if (c === '#' && !inWord) {
      // A comment runs to the end of the line.
      const eol = input.indexOf('\n', i);
      i = eol < 0 ? n : eol;
    } else if (c === '\\') {
      if (next === '\n') {
        i += 2; // line continuation
      } else if (next !== undefined && (textHasBackslash || next === '\\' || (text.length === 2 && /^[A-Za-z]:$/.test(text)))) {
        // Windows paths (c:\windows\win.ini, \\host\share): cmd.exe has no backslash escapes.
        text += c;
        textHasBackslash = true;
        inWord = true;
        i++;
      } else if (next !== undefined) {
        text += next;
        if (next === '\\') textHasBackslash = true;
        obfuscated = true;
        inWord = true;
        i += 2;
      } else {
        i++;
      }
    } else if (c === "'" || c === '"') {
      const close = input.indexOf(c, i + 1);
      // An apostrophe inside a word ("don't … it's") whose pair lies beyond a space is prose; a
      // quote pair inside one word (c'a't) is obfuscation.
      const proseApostrophe = close >= 0 && inWord && c === "'" && /\s/.test(input.slice(i + 1, close));
      if (close < 0 || proseApostrophe) {
        text += c; // unbalanced: a prose apostrophe, keep it literal
        inWord = true;
        i++;
      } else {
        const inner = input.slice(i + 1, close);
        const quoted = c === '"' ? expandDoubleQuoted(inner) : inner;
        if (quoted.length === 0) {
          // `w''get`, `''cat`: an empty pair before a letter or digit splits or hides a name. One
          // that closes a word (`-h''.`, wiki markup: DokuWiki's monospace and MediaWiki's italics
          // `''du -sh /var/* | sort -h''`) hides nothing from a reader of words.
          if (/\w/.test(input[close + 1] ?? '')) obfuscated = true;
        } else if (inWord || (input[close + 1] !== undefined && !isBoundary(input[close + 1]!))) obfuscated = true;
        quotedWord = true;
        text += quoted;
        if (quoted.includes('\\')) textHasBackslash = true;
        inWord = true;
        i = close + 1;
      }
    } else if (c === '$' && next === '_' && text.length > 0 && /[A-Za-z]/.test(input[i + 2] ?? '')) {
      // `c$_at /et$_c/pas$_swd`: bash reads `$_at` as an unset variable, but the evasion lists
      // attackers copy mean `$_` (the last argument) in the middle of a word: the letters after it
      // are kept, as the payload intends.
      obfuscated = true;
      i += 2;
    } else if (c === '$') {
      i = expandDollar(input, i, (piece, breaks, arith) => {
        if (arith) current.arithmetic = true;
        if (breaks) {
          current.ifs = true;
          endWord();
          obfuscated = true; // the word that follows was split off by IFS: note it on that word
          return;
        }
        text += piece;
        if (piece.includes('\\')) textHasBackslash = true;
        obfuscated = true;
        inWord = true;
      }, () => startCommand('subshell'));
    } else {
      if (c === '*' || c === '?' || c === '[') glob = true;
      // The plain characters after it join the word in one piece (one string per run, not one per character).
      let end = i + 1;
      while (end < n && isPlainWordCode(input.charCodeAt(end))) end++;
      text += end === i + 1 ? c : input.slice(i, end);
      inWord = true;
      i = end;
    }
  }
  startCommand('close');
}

/** Characters the loop above gives a meaning (breaks, separators, quotes, escapes, expansions, globs); inside a word `#` is plain. */
const specialCodes = new Uint8Array(128);
for (const c of ' \t\v\f\n\r;|&`()<>\\\'"$*?[') specialCodes[c.charCodeAt(0)] = 1;

function isPlainWordCode(code: number): boolean {
  return code >= 128 || specialCodes[code] === 0;
}

function opensCommand(input: string, at: number): boolean {
  let j = at - 1;
  while (j >= 0 && wordBreak.has(input[j]!)) j--;
  // ')(' too: PHP's ('system')('id') calls a string; a shell would run the second group.
  return j < 0 || ';|&\n\r()`$'.includes(input[j]!);
}

function isBoundary(c: string): boolean {
  return wordBreak.has(c) || c === ';' || c === '|' || c === '&' || c === '\n' || c === '\r' || c === ')' || c === '`';
}

function pushWord(command: ShellCommand, text: string, obfuscated: boolean, glob: boolean, quoted: boolean): void {
  // Brace expansion: {cat,/etc/passwd} yields several words, c{a,oun}t yields `cat count`,
  // {l,-lh}s yields `ls -lhs`; empty alternatives ({,x,}) vanish.
  const open = text.indexOf('{');
  const close = open >= 0 ? text.indexOf('}', open) : -1;
  if (close > open + 1 && text.slice(open, close).includes(',') && !text.slice(open + 1, close).includes('{')) {
    const prefix = text.slice(0, open);
    const suffix = text.slice(close + 1);
    for (const part of text.slice(open + 1, close).split(',')) {
      const word = prefix + part + suffix;
      if (word) command.words.push({ text: word, obfuscated: true, glob: /[*?[]/.test(word) });
    }
    return;
  }
  if (text.length > 0 || obfuscated) command.words.push(quoted ? { text, obfuscated, glob, quoted } : { text, obfuscated, glob });
}

/** Inside double quotes only escapes and parameter expansions change the text. */
function expandDoubleQuoted(inner: string): string {
  if (!inner.includes('\\') && !inner.includes('$')) return inner;
  let out = '';
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c === '\\' && i + 1 < inner.length) {
      out += inner[++i];
    } else if (c === '$') {
      i = expandDollar(inner, i, (piece, breaks) => (out += breaks ? ' ' : piece), () => (out += ' ')) - 1;
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * Expands a `$` construct at `i`; calls `emit(text, isWordBreak, isArithmetic)`, or
 * `openSubshell()` for `$(`. Returns the index after the construct.
 */
function expandDollar(
  input: string,
  i: number,
  emit: (piece: string, breaks: boolean, arith?: boolean) => void,
  openSubshell: () => void,
): number {
  const next = input[i + 1];
  if (next === '(' && input[i + 2] === '(') {
    const close = input.indexOf('))', i + 3);
    emit('', false, true);
    return close < 0 ? input.length : close + 2;
  }
  if (next === '(' && input[i + 2] === ')') {
    emit('', false); // pi$()ng
    return i + 3;
  }
  if (next === '(') {
    openSubshell();
    return i + 2;
  }
  if (next === '"') {
    emit('', false); // $"…": a locale-translated string, the quotes that follow are read as usual
    return i + 1;
  }
  if (next === "'") {
    const close = input.indexOf("'", i + 2);
    if (close < 0) return i + 1;
    emit(decodeAnsiC(input.slice(i + 2, close)), false);
    return close + 1;
  }
  if (next === '{') {
    const close = input.indexOf('}', i + 2);
    if (close < 0 || close - i > 64) {
      emit('$', false);
      return i + 1;
    }
    const body = input.slice(i + 2, close);
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(body)?.[0] ?? '';
    if (name === 'IFS') emit('', true);
    else if (slashVars.has(name) && /^:0:1$/.test(body.slice(name.length))) emit('/', false);
    else emit('', false);
    return close + 1;
  }
  if (next !== undefined && /[@*#?!$0-9-]/.test(next)) {
    emit('', false); // special parameters: expand to nothing useful, pure obfuscation
    return i + 2;
  }
  const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(input.slice(i + 1, i + 40));
  if (m) {
    emit('', m[0] === 'IFS');
    return i + 1 + m[0].length;
  }
  emit('$', false);
  return i + 1;
}

function decodeAnsiC(s: string): string {
  return s.replace(/\\x([0-9a-fA-F]{1,2})|\\([0-7]{1,3})|\\(.)/g, (_m, hex: string, oct: string, ch: string) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : oct ? String.fromCharCode(parseInt(oct, 8)) : ch,
  );
}
