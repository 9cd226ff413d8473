/**
 * Command injection. A value is read as a shell would read it (tokenize.ts); a hit needs a known
 * command (commands.ts) where a shell would execute one: after a separator, inside `` ` `` or
 * `$( )`, written with obfuscation, or as a whole command line. Interpreter calls (system(),
 * __import__('os'), child_process) are checked by code-exec.ts.
 *
 * Trade-offs (prose and posts must pass): English-word commands (cat, sleep, echo, curl) count only
 * with shell-shaped arguments (flags, paths, URLs, redirections, numbers after a separator); a
 * command line at the very start of a value counts only when every argument is shell-shaped, and
 * is "suspicious" (1) unless it names a sensitive file, a URL to fetch or a distinctive command.
 * Markdown inline code (`ls`) in a free-text body is only suspicious for the same reason.
 */
import { percentDecode } from '../../decode/url.ts';
import { parseUrlencoded } from '../../parse/pairs.ts';
import type { DetectorHit, InputLocation } from '../../types.ts';
import { findBatchStatement } from './batch.ts';
import { hit } from './hit.ts';
import { detectArgumentInjection } from './argument-injection.ts';
import { detectCodeExec } from './code-exec.ts';
import { distinctiveWrappers, globMatch, resolveCommand, shellKeywords, toolOnlyNames, withoutBracketClasses, wrappers, type ResolvedCommand } from './commands.ts';
import { countWords, looksBinary, looksLikeDocument } from '../text-shape.ts';
import { detectShellForms } from './shell-forms.ts';
import { isInterpreter, isScriptRun } from './script-run.ts';
import { hasVerbs, isSubcommandLine } from './subcommands.ts';
import { forEachShellCommand, type ShellCommand, type ShellWord } from './tokenize.ts';

/** Characters that give shell syntax a chance; without any, only a leading command line is possible. */
const shellChars = new Set(['%', '<', '[', '!', '~', ';', '|', '&', '\n', '\r', '`', '$', '(', ')', '<', '>', '\\', "'", '"', '{', '*', '?']);
/** `sh -c …`, `cmd /c …`, `powershell -enc …`: what follows is a command whatever it looks like. */
const interpreterFlags = new Set(['-c', '/c', '/k', '-e', '-enc', '-encodedcommand', '-command', '-exec', '/r']);
/** Rules whose shapes are evasion or exploitation, not something a post would quote. */
const evasiveRules = new Set(['cmdi.obfuscated_command', 'cmdi.shellshock', 'cmdi.php_complex_call', 'cmdi.yaml_python_object', 'cmdi.concatenated_call', 'cmdi.vbscript_code']);
// (php_superglobal and php_code are not here: PHP tutorials quote $_POST['x'] and <?php … all the time.)
/** Markdown inline code: a backtick pair standing apart from the words around it. */
const markdownCode = /(?:^|\s)`[^`\n]+`(?:$|[\s.,;:!?)])/;
const strongSeparators = new Set(['backtick', 'subshell', '&&', '||']);
/** Separators that end one command and start the next (a backtick or parenthesis may be prose: "Make `x`"). */
const commandSeparators = new Set([';', '&&', '||', '|', '&']);
/** Arguments that make the command run the word after them. */
const execFlags = new Set(['-exec', '-execdir', '-ok']);
const systemFile = /^(?:\/etc\/|\/proc\/|\/dev\/tcp\/)/;
/** Commands that run their string argument (`trap 'rm -rf x' EXIT`, `at 2:00 "echo test"`, `eval "…"`). */
const stringRunners = new Set(['trap', 'eval', 'watch', 'at', 'batch', 'runuser']);
/** An option (`-m`, `--version`): what no sentence's second word looks like. */
const optionWord = /^--?[A-Za-z][\w-]*(?:=\S*)?$/;
/** Words a command line is made of: options, names, paths, numbers (not "thick." or "Tuesday,"). */
const plainShellWord = /^[\w@%+=:/~{}\\-]+(?:\.[\w@%+=:/~{}\\-]+)*$/;
/** `/path/file.gz`, `/var/www/`: an absolute path of two or more segments, as only a command line has it. */
const deepPath = /^\/[\w.-]+\/[\w.-]*/;
/** Network diagnostics that only name a host: what they print is about that host, nothing of the server's. */
const hostProbes = new Set(['ping', 'ping6', 'traceroute', 'tracepath', 'nslookup']);
/** Commands that do nothing and print nothing without an operand (`rm -rf`: "missing operand"). */
const operandOnly = new Set(['rm', 'rmdir', 'mv', 'cp', 'ln', 'mkdir', 'chmod', 'chown', 'chgrp', 'touch', 'unlink', 'shred']);
/** One host: a dotted IPv4 address or a dotted host name (no path, no port trick, no option). */
const hostArgument = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[a-z0-9-]+(?:\.[a-z0-9-]+)+\.?)$/i;
const sensitiveArgument = /^(?:\/etc\/|\/proc\/|\/dev\/tcp|\/bin\/|\/tmp\/|c:[\\/]windows|https?:\/\/|ftp:\/\/|[a-z0-9.-]+\.(?:sh|py|pl|ps1|exe|php)$)/i;

export function detectCmdi(value: string, location: InputLocation, name?: string): DetectorHit | null {
  try {
    // Uploaded files are not handed to a shell (web shells are the webshell detector's job).
    if (location === 'file_content') return null;
    // XML text and attribute values are form fields by another name (SOAP, XML-RPC, SAML): read
    // like body values, under the same document guard.
    if (location === 'xml') location = 'body';
    if (location === 'raw_body' && looksBinary(value)) return null;
    const found = detect(value, location) ?? (location === 'header' ? detectCommandHeader(value, name) : location === 'path' ? null : detectArgumentInjection(value));
    if (found && (location === 'body' || location === 'raw_body') && looksLikeDocument(value)) {
      // Commands and code quoted in a post are what developer forums are made of (see
      // looksLikeDocument): only evasion shapes, which no tutorial needs, still count.
      return evasiveRules.has(found.rule) || (found.severity === 2 && paddedByItsOwnCommand(value)) ? found : null;
    }
    return found;
  } catch {
    return null;
  }
}

/**
 * `Something „The Title”. After something system('echo cd /tmp;wget http://x/a.png -O p2.txt;…`:
 * a value that reads as a document only by its word count, the words being the command's own (the
 * quoted argument of a call, URLs, paths). Without them a few words of prose are left: a one-line
 * value carrying a command chain, not a post quoting one. (A post keeps its guard: markup, code
 * fences, three lines, or thirty words of its own outside quotes and URLs.)
 */
function paddedByItsOwnCommand(value: string): boolean {
  if (value.length > 4096 || /<[a-z!]|```|`[^`\n]+`/i.test(value)) return false;
  let lines = 1;
  for (let i = value.indexOf('\n'); i >= 0 && lines < 3; i = value.indexOf('\n', i + 1)) lines++;
  if (lines >= 3) return false;
  // (A quote opens only where no letter stands before it: "don't" and "O'Keefe's" open nothing. An
  // unclosed quote runs to the end, as a shell reads it.)
  const own = value.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S*/gi, ' ').replace(/(?<![\p{L}\d])(['"])(?:(?!\1)[^])*(?:\1|$)/gu, ' ').replace(/(?:^|\s)\/\S*/g, ' ');
  return countWords(own) < 30;
}

function detect(value: string, location: InputLocation): DetectorHit | null {
  if (value.length < 2) return null;
  // `cmd=cat /etc/passwd`: a raw `name=value` reached us whole (raw bodies, odd encodings); the
  // shell would take `cmd=cat` as an assignment, the application takes `cat /etc/passwd` as input.
  const assignment = /^[A-Za-z_][A-Za-z0-9_]{0,30}=(?=[A-Za-z/])/.exec(value);
  if (assignment) {
    const inner = detectValue(value.slice(assignment[0].length), location);
    if (inner) return inner;
  }
  const found = detectValue(value, location) ?? detectQuoteBreakout(value, location) ?? detectThroughStringLayer(value, location);
  const plus = value.indexOf('+');
  if (found?.severity === 2 || plus <= 0 || value.includes(' ') || resolveCommand(value.slice(0, plus), false) === null) return found;
  // `cat+/et*/*wd`: form encoding's '+' for a blank, left undecoded in a query (a known command
  // before the first '+', so `text/html,application/xhtml+xml` costs nothing). Only the evasion
  // readings count here (globs, quotes): base64 cookies are full of '+' and '/' too.
  const spaced = detectValue(value.replaceAll('+', ' '), location);
  return spaced?.severity === 2 && (spaced.rule === 'cmdi.glob_path' || spaced.rule === 'cmdi.obfuscated_command') ? spaced : found;
}

/**
 * `'TiMe sh -c whoami`, `';htop'`, `"|id`: the value opens with a quote that closes the string the
 * application built around it (the quote pairs with one in the application's own command line). The
 * rest is read as the shell would read it after that quote: only a clear hit there counts.
 */
function detectQuoteBreakout(value: string, location: InputLocation): DetectorHit | null {
  const quote = value[0];
  if ((quote !== "'" && quote !== '"') || value.length < 3) return null;
  let inner = value.slice(1);
  // `';htop'`: the closing quote reopens the application's string after the injected command.
  if (inner.endsWith(quote) && !inner.slice(0, -1).includes(quote)) inner = inner.slice(0, -1);
  else if (inner.includes(quote)) return null; // a quoted phrase, not a break-out
  const found = detectValue(inner, location);
  return found?.severity === 2 ? found : null;
}

/**
 * `v='u';cu$v\\r\l host`: backslashes doubled for one more string layer between the request and
 * the shell (a PHP or JavaScript double-quoted string, JSON) that turns `\\` back into `\`. Read
 * once with that layer undone; only the evasion readings count (a command spelled through escapes
 * or variables), since Windows paths and regexes double their backslashes honestly.
 */
function detectThroughStringLayer(value: string, location: InputLocation): DetectorHit | null {
  if (!value.includes('\\\\')) return null;
  const found = detectValue(value.replaceAll('\\\\', '\\'), location);
  return found?.severity === 2 && found.rule === 'cmdi.obfuscated_command' ? found : null;
}

/** Headers whose value is never a command line: a client names itself with `product/version`, a referrer is a URL. */
const commandFreeHeaders = new Set(['user-agent', 'referer']);
/** HTTP clients whose names are also their user agents (`Wget/1.21`, `curl`, `lynx`). */
const httpClients = new Set(['wget', 'curl', 'lynx', 'fetch', 'python', 'python3', 'node', 'perl', 'ruby', 'php', 'git', 'pip', 'pip3', 'npm', 'docker', 'ansible']);

/**
 * `User-Agent: set -o history`, `Referer: cscli alerts list`: a whole header value that is a command
 * line. A real agent string is `product/version (comments)` and a referrer a URL, so a known command
 * in command position followed by blanks and shell words is no client's: blocked (2). A lone
 * non-client command word (`visudo`) too; a client's own name (`curl`) stays an agent.
 */
function detectCommandHeader(value: string, name: string | undefined): DetectorHit | null {
  if (name === undefined || !commandFreeHeaders.has(name.toLowerCase())) return null;
  if (name.toLowerCase() === 'referer' && value.includes('?')) {
    const inQuery = detectCommandInReferrerQuery(value);
    if (inQuery) return inQuery;
  }
  const text = value.trim().replace(/^(['"])([^'"]*)\1/, '$2').replace(/^[A-Za-z_]\w{0,30}=(?=[A-Za-z])/, '');
  const words = text.split(/\s+/);
  if (words.length > 6 || !/^[A-Za-z][\w.-]{0,30}$/.test(words[0]!)) return null;
  const resolved = resolveCommand(words[0]!, false);
  if (!resolved || (words.length === 1 && (resolved.cls !== 'distinctive' || httpClients.has(resolved.name)))) return null;
  // Arguments: flags and lower-case words as a command line has them; "Mozilla/5.0 (X11; …)" has a slash after the name.
  if (!words.slice(1).every((w) => /^(?:--?[a-z][\w-]*|[a-z0-9_.:/-]+)$/.test(w))) return null;
  return hit('cmdi.command_line', text, 2);
}

/**
 * `Referer: https://example.com/?args=env --version`: a parameter of the referring URL that is a
 * command followed by nothing but options (a search term there is words: "cat videos"), unless the
 * command does nothing without an operand.
 */
function detectCommandInReferrerQuery(url: string): DetectorHit | null {
  const query = url.slice(url.indexOf('?') + 1).split('#')[0]!;
  for (const pair of parseUrlencoded(query, 20)) {
    const text = percentDecode(pair.bare ? pair.name : pair.value, true);
    const words = text.trim().split(/\s+/);
    if (words.length < 2 || words.length > 6 || !/^[A-Za-z][\w.-]{0,30}$/.test(words[0]!)) continue;
    // (`rm -rf` with no operand does nothing: see operandOnly.)
    const resolved = resolveCommand(words[0]!, false);
    if (resolved && !operandOnly.has(resolved.name) && words.slice(1).every((w) => optionWord.test(w))) return hit('cmdi.command_line', text.trim(), 2);
  }
  return null;
}

function detectValue(value: string, location: InputLocation): DetectorHit | null {
  // cc/gcc/c89 `-wrapper sh,-c,id`: the compiler runs the wrapper with the command as arguments.
  const wrapper = /(?:^|\s)-wrapper\s+(?:\/bin\/)?(?:ba|da|z|k)?sh,-c,/.exec(value);
  if (wrapper) return hit('cmdi.command_line', value.slice(wrapper.index), 2);
  // `$SHELL -c "…"`, `${SHELL} -c …`: the login shell asked to run a command.
  const shellVar = /^\s*\$\{?(?:SHELL|BASH)\}?\s+-c\s/.exec(value);
  if (shellVar) return hit('cmdi.command_line', value, 2);
  // cmd.exe's FOR and IF need no shell punctuation (`IF EXIST data.xls echo found`).
  const batch = findBatchStatement(value);
  if (batch) return hit('cmdi.batch_syntax', value.slice(batch.at), 2);
  let hasShellChars = false;
  for (let i = 0; i < value.length; i++) {
    if (shellChars.has(value[i]!)) {
      hasShellChars = true;
      break;
    }
  }
  // `bin/visudo`, `/usr/sbin/cscli`: a value that is a path into a binaries folder naming a
  // distinctive command (`bin/console`, `bin/cake` of PHP frameworks name no such command).
  const binPath = /^(?:\.{0,2}\/)?(?:usr\/(?:local\/)?)?s?bin\/([\w.-]{2,40})$/.exec(value);
  const binCommand = binPath ? resolveCommand(binPath[1]!, false) : null;
  if (binCommand?.cls === 'distinctive') return hit('cmdi.command_line', value, 2);
  // `/bin/ab`, `/usr/sbin/anything`: a whole value that is the absolute path of a binary names a
  // program to run, whatever its name (no form field holds one; a URL path may, so not there).
  if (binPath && value.startsWith('/') && location !== 'path' && /^[a-z][\w.+-]{1,39}$/.test(binPath[1]!)) return hit('cmdi.command_line', value, 2);
  // `bin/chef`, `bin/cat`: a command whose name is also a word, in its binaries folder. Suspicious
  // only (a path segment or a label could read so), and not in a URL path (`/bin/more` may be a page).
  if (binCommand && location !== 'path') return hit('cmdi.command_line', value, 1);
  // `>/tmp/curl`, `2>>/etc/cron.d/x`: a whole value that is a redirection into a system folder
  // writes a file for the command line it is appended to. (A Markdown quote has a blank after `>`.)
  if (/^\s*\d?>>?\/(?:tmp|etc|var|dev|proc|root|home|usr|opt)\/[\w./-]+\s*$/.test(value)) return hit('cmdi.redirect', value, 2);
  const line = location !== 'header' && location !== 'path' ? wholeCommandLine(value) : null;
  // (A suspicious reading gives way to a clear one: `pip install http://x/p.tgz` is judged below too.)
  if (line?.severity === 2) return line;
  if (!hasShellChars && !startsWithCommand(value)) return line;
  if (hasShellChars) {
    if (/^\s*\(\s*\)\s*\{/.test(value)) return hit('cmdi.shellshock', value, 2);
    const form = detectShellForms(value);
    if (form) return form;
    const bomb = findForkBomb(value);
    if (bomb) return hit('cmdi.fork_bomb', bomb, 2);
    const code = detectCodeExec(value);
    if (code?.severity === 2) return code;
    const shell = detectShell(value, location);
    if (shell?.severity === 2) return shell;
    const renamed = detectThroughVariables(value, location);
    if (renamed) return renamed;
    return shell ?? code ?? line;
  }
  return detectShell(value, location) ?? line;
}

/**
 * `pip install something`, `chef report nodes⏎`, `rc script.sh`: a whole value that is a tool and
 * one of its verbs, or an interpreter and a script of its language (subcommands.ts, script-run.ts).
 * Suspicious (1) as typed into a search box; blocked (2) with the line break that submits it.
 */
function wholeCommandLine(value: string): DetectorHit | null {
  const c = value.charCodeAt(0);
  if (value.length > 120 || c < 97 || c > 122) return null; // lower-case first letter: cheap test first
  const space = value.indexOf(' ');
  if (space < 2 || (!hasVerbs(value.slice(0, space)) && !isInterpreter(value.slice(0, space)))) return null;
  const entered = /^[^\n\r]+\r?\n$/.test(value);
  if (!entered && /[\n\r]/.test(value)) return null;
  const words = value.trim().split(/[ \t]+/);
  if (!isSubcommandLine(words) && !isScriptRun(words)) return null;
  return hit('cmdi.command_line', value.trim(), entered ? 2 : 1);
}

function startsWithCommand(value: string): boolean {
  const m = /^\s*([A-Za-z0-9_./\\:-]{1,40})/.exec(value);
  return m !== null && resolveCommand(m[1]!, false) !== null;
}

/**
 * Each command judged as the tokenizer ends the one after it (judge reads one command ahead), the
 * first clear hit stopping the reading: see forEachShellCommand.
 */
/**
 * `` `products`.`id` = 1 ``: MySQL's quoted names joined into a qualified name and compared with
 * something is a SQL condition (phpMyAdmin sends one as every row's `where_clause`), not two command
 * substitutions. Its backticks are dropped before the shell reading; `` `id` `` alone, a span with a
 * blank or any punctuation in it (`` `cat /etc/passwd` ``), or a name compared with nothing is read as before.
 */
const qualifiedSqlName = /`[\w$]{1,64}`(?:\.`[\w$]{1,64}`)+(?=\s*(?:[=<>!]|(?:like|is|in|between|regexp)\s))/gi;

function detectShell(input: string, location: InputLocation): DetectorHit | null {
  const value = input.includes('`.`') ? input.replace(qualifiedSqlName, (names) => names.replaceAll('`', '')) : input;
  const markdown = location === 'body' && markdownCode.test(value);
  let pipeCount = 0;
  for (let i = value.indexOf('|'); i >= 0 && pipeCount < 4; i = value.indexOf('|', i + 1)) pipeCount++;
  const entered = enteredShape(value);
  const state = { best: null as DetectorHit | null, clear: null as DetectorHit | null, pending: null as ShellCommand | null, index: 0, starting: 0, allBeforeEntered: true };
  const judgePending = (following: ShellCommand | undefined): boolean => {
    const command = state.pending!;
    // `;top`, `|id`: the value itself opens with a separator, which only an injection does.
    const leading = state.index === 0 && (command.separator === ';' || command.separator === '|' || command.separator === '&' || command.separator === '&&' || command.separator === '||');
    const found = judge(command, following, location, markdown, pipeCount, leading, following === undefined && entered && state.allBeforeEntered);
    if (found?.severity === 2) state.clear = found;
    else state.best ??= found;
    return state.clear !== null;
  };
  forEachShellCommand(value, (command) => {
    if (state.starting < 2 && startsCommand(command)) state.starting++;
    if (state.pending) {
      if (judgePending(command)) return true;
      if (entered && state.allBeforeEntered) state.allBeforeEntered = enteredPart(state.pending);
      state.index++;
    }
    state.pending = command;
    return false;
  });
  if (!state.clear && state.pending) judgePending(undefined);
  if (state.clear) return state.clear;
  const best = state.best;
  // `cd /;cd etc;…`: a suspicious command line (a command with arguments: its evidence has a blank)
  // with another known command chained to it is a script. ("Set x to 1; then more": no argument hit.)
  if (best && !markdown && /\s/.test(best.evidence) && state.starting >= 2) return hit('cmdi.chained_command', best.evidence, 2);
  return best;
}

/**
 * `entered`: the value ends with a line break right after this command (the Enter that runs it).
 */
function judge(command: ShellCommand, following: ShellCommand | undefined, location: InputLocation, markdown: boolean, pipeCount: number, leading = false, entered = false): DetectorHit | null {
  const index = commandIndex(command.words);
  if (index < 0) return null;
  const globPath = command.words.find((w) => w.glob && w.text.includes('/') && matchesSensitiveGlob(w.text));
  if (globPath) return hit('cmdi.glob_path', command.words.map((w) => w.text).join(' '), 2);
  // /???/??t, /???/?s: a binary directory spelled only in wildcards is nothing but evasion.
  const head = command.words[index]!;
  if (head.glob && /^(?:\/\?{3,4}){1,3}\/[a-z?*[\]]{1,12}$/i.test(head.text) && /[?*[]/.test(head.text.slice(head.text.lastIndexOf('/')))) {
    return hit('cmdi.obfuscated_command', command.words.map((w) => w.text).join(' '), 2);
  }
  const word = command.words[index]!;
  const name = splitPlusJoined(word.text);
  const lowerName = name.toLowerCase();
  const args = command.words.slice(index + 1);
  const sep = command.separator;
  // (Built once a command is known: most words a value splits into are none, and `a(a(a(…` makes 100,000 of them.)
  const evidenceText = (): string => [word.text, ...args.map((a) => a.text)].join(' ');
  // `;trap 'rm -rf file.txt' SIGEXIT`, `;at 2:00 "echo test"`: a quoted command line handed to a
  // command that runs it later (at and batch are no dictionary words: they count only so).
  if (sep !== 'close' && sep !== 'start' && stringRunners.has(lowerName) && args.some((a) => runsCommandString(a))) return hit('cmdi.command_line', evidenceText(), 2);
  // `;vim x +silent\ !whoami`, `;ex -c:\!pwd`, `vi -c ':!/bin/sh'`: vi's `!` hands the rest of the
  // line to the shell, the GTFOBins way out of an editor; no sentence gives an editor a `!command`.
  // (CRS's must-pass set lists `;vi … !whoami` as not for 932236 at PL2: 932238 catches it at PL3.)
  if (viEditors.has(lowerName) && args.some(isEditorShellEscape)) return hit('cmdi.editor_escape', evidenceText(), markdown && sep === 'backtick' ? 1 : 2);
  const resolved = resolveCommand(name, word.glob && /[*?[]/.test(name)) ?? resolveSwitched(name) ?? pipedEditor(name, sep, leading, pipeCount);
  if (!resolved) return null;
  const evidence = evidenceText();
  // An empty expansion before the command ($u wget …) is obfuscation too.
  const emptyBefore = command.words.slice(0, index).some((w) => w.text.length === 0 && w.obfuscated);
  // `q=0.5, gzip` (a header's parameters) looks like an environment prefix; a real one comes with
  // a command that has shell-shaped arguments.
  const assignmentBefore = command.words.slice(0, index).some((w) => w.text.includes('='));
  // sudo / nohup / strace / time before the command: `ti''me who` hides the wrapper instead.
  const wrapper = command.words.slice(0, index).find((w) => wrappers.has(w.text.toLowerCase()));
  // `ti''me who`, `'time' who`: a wrapper written in quotes is hidden from a word list, not typed.
  const hiddenWrapper = wrapper !== undefined && (wrapper.obfuscated || wrapper.quoted === true);
  // `kill '-'9`, `rm -"r"f`: an option spelled with quotes inside is hidden from word lists, not typed.
  const hiddenOption = args.some((a) => a.obfuscated && a.quoted === true && /^-/.test(a.text) && a.text.length <= 12);
  const obfuscated = command.ifs === true || emptyBefore || word.obfuscated || hiddenWrapper || hiddenOption || (word.glob && /[*?[]/.test(name)) || args.some((a) => a.obfuscated && sensitiveArgument.test(a.text));

  if (obfuscated && (sep !== 'start' || resolved.cls === 'distinctive' || args.length > 0 || hiddenWrapper)) {
    return hit('cmdi.obfuscated_command', evidence, 2);
  }
  // Numbers pass as arguments once something else is clearly shell-shaped (ping -c 3 10.0.0.1).
  const shaped =
    (args.length > 0 && args.every((a) => isShellArgument(a.text, true)) && args.some((a) => isShellArgument(a.text, false))) ||
    (args.length > 1 && interpreterFlags.has(args[0]!.text.toLowerCase()));
  const anyShaped = args.some((a) => isShellArgument(a.text, true)) || command.redirect;
  // `find … -exec cat {}`, `xargs -I{} sh`: an argument that runs the next word as a command.
  const execs = args.some((a, k) => execFlags.has(a.text) && k + 1 < args.length && resolveCommand(args[k + 1]!.text, false) !== null);
  const sensitive = args.some((a) => sensitiveArgument.test(a.text)) || command.redirect || execs;
  const piped = following?.separator === '|' && following.words.length > 0;

  // `alias a=c${KK}url`, `alias ls-al='ls -al'`: a command renamed, to be run under the new name.
  if (resolved.name === 'alias' && args.some((a) => aliasesCommand(a.text))) return hit('cmdi.command_alias', evidence, 2);
  // `alias a=b`, `alias -gmr a=b`, `alias +g+ a=b`: a whole value that defines an alias (options,
  // then `name=value`) is shell syntax whatever the value names.
  if (resolved.name === 'alias' && sep === 'start' && args.length > 0 && args.length <= 4 && /^[\w.-]+=\S/.test(args[args.length - 1]!.text) && args.slice(0, -1).every((a) => /^[+-][A-Za-z+]+$/.test(a.text))) {
    return hit('cmdi.command_alias', evidence, 2);
  }
  if (sep === 'start' || sep === 'close') {
    // `whoami;…`, `id&&…`: a distinctive command alone, ended by a separator (the injection's own).
    // (Not `gzip;q=1.0` in a header: parameters after `;` are assignments, and headers are lists.)
    const next = following?.words[0]?.text ?? '';
    if (sep === 'start' && location !== 'header' && resolved.cls === 'distinctive' && args.length === 0 && !wrapper && following !== undefined && commandSeparators.has(following.separator) && !next.includes('=')) {
      return hit('cmdi.command_line', evidence, 2);
    }
    // `strace ifconfig`, `nohup who`, `time ifconfig`: a wrapper no sentence opens with, or a
    // distinctive command under any wrapper, with nothing or shell-shaped arguments after it.
    if (wrapper && (distinctiveWrappers.has(wrapper.text.toLowerCase()) || resolved.cls === 'distinctive') && (args.length === 0 || shaped)) {
      return hit('cmdi.command_line', [wrapper.text, evidence].join(' '), 2);
    }
    // `time cat /x/y`, `nice ls -la`: any wrapper running a command with shell arguments.
    // `time who` alone is two words a headline could have: suspicious only (strict mode).
    if (wrapper && sep === 'start') {
      if (shaped) return hit('cmdi.command_line', [wrapper.text, evidence].join(' '), 2);
      if (args.length === 0 && command.words.length === 2 && following === undefined) return hit('cmdi.command_line', [wrapper.text, evidence].join(' '), 1);
    }
    // `find /etc -name passwd -exec cat {} +`: the command line runs another command on each file
    // found (`{}`, the file-reading idiom).
    if (sep === 'start' && execs && args.some((a) => a.text === '{}')) return hit('cmdi.command_line', evidence, 2);
    // `visudo⏎`, `cscli alerts list⏎`, `pip3 install something⏎`: a distinctive command with plain
    // lower-case words and the line break that submits it; a form value does not end so.
    // (A lone word needs a hyphenated tool name: "Python⏎" in a textarea is a word.)
    if (sep === 'start' && enteredTool(resolved, args, entered)) return hit('cmdi.command_line', evidence, 2);
    if (sep === 'start' && args.length > 0 && args.every((a) => plainShellWord.test(a.text))) {
      // `ansible all -m ping`, `flock -u / whoami`: a distinctive tool with an option among plain
      // words; `env --version`, `perf --help`: any command followed by nothing but options.
      const options = args.filter((a) => optionWord.test(a.text)).length;
      // `rm -rf` alone, searched in a blog or a wiki (issue 25: WordPress, MediaWiki): a command that
      // acts only on the operands it is given, with none, does nothing and prints nothing, so it is
      // neither an attack nor a probe (`env --version` and `uname -a` make the shell answer). With an
      // operand, a wrapper, a line break or anything chained, it is judged as before.
      if (options === args.length && following === undefined && !wrapper && !entered && operandOnly.has(resolved.name)) return null;
      if (options > 0 && (resolved.cls === 'distinctive' || options === args.length)) return hit('cmdi.command_line', evidence, 2);
      // `cat /path/file.gz`, `ll /var/www/`, `'ll' /var/www/`: a deep absolute path, or a command word in quotes.
      if (shaped && (args.some((a) => deepPath.test(a.text)) || word.quoted === true)) return hit('cmdi.command_line', evidence, 2);
    }
    // `shutdown⏎`, `reboot⏎`: the machine's power commands typed alone, in lower case, and submitted.
    // The words are English ("the shutdown"), so suspicious only (strict mode); "Shutdown⏎", a
    // sentence, or the word without the Enter passes.
    if (sep === 'start' && entered && args.length === 0 && following === undefined && powerCommands.has(word.text)) return hit('cmdi.command_line', evidence, 1);
    // `ping 127.0.0.1`, `traceroute example.com`: a network probe of one host, alone in the value,
    // is how a search box or a ticket names a host (CRS holds `ping 127.0.0.1` as must-pass for
    // 932260); it reads and writes nothing. With an option (`ping -c 10 …`, a timing probe, judged
    // above), a line break, or chained to anything, it still counts.
    if (sep === 'start' && following === undefined && hostProbes.has(resolved.name) && args.length === 1 && hostArgument.test(args[0]!.text)) return null;
    // A whole command line: `cat /etc/passwd`, `ls -la /`. Prose like "ls 300 lexus" has words.
    // `ansible-config dump`, `chef-vault -i secret`: a hyphenated tool name is no sentence's first word.
    if (!shaped && !(piped && args.length === 0) && !(resolved.cls === 'distinctive' && resolved.name.includes('-') && sep === 'start' && args.length > 0)) return null;
    const clear = sensitive || resolved.cls === 'distinctive' && args.length > 0;
    return hit('cmdi.command_line', evidence, clear ? 2 : 1);
  }
  // `(gdb) p var`, `(lldb) bt`: a lone word in parentheses with the line going on after them is a
  // prompt or an aside, not a subshell (`x;(whoami)` ends at the parenthesis).
  // (`(sh)0>$d/tcp/…` goes on with a redirection, which no prose does.)
  if (sep === 'subshell' && args.length === 0 && following?.separator === 'close' && /^[A-Za-z]/.test(following.words[0]?.text ?? '') && !following.redirect) return null;
  // <(cat file), >(tee log): only bash writes this; any known command inside it is run.
  if (sep === 'procsub') return hit('cmdi.command_substitution', evidence, 2);
  if (strongSeparators.has(sep)) {
    if (markdown && sep === 'backtick' && !clearCommand(resolved, args.length, sensitive, shaped)) {
      return hit('cmdi.command_substitution', evidence, 1); // markdown `code` in a post
    }
    if (args.length === 0 || anyShaped || resolved.cls === 'distinctive') {
      return hit(sep === '&&' || sep === '||' ? 'cmdi.chained_command' : 'cmdi.command_substitution', evidence, 2);
    }
    return null;
  }
  // ; | & newline
  // A Markdown table ("| id | name | price |") puts single words between pipes: cells, not commands.
  if (sep === '|' && args.length === 0 && pipeCount >= 4) return null;
  // `time; cscli alerts list⏎`: the same submitted line, the command chained to a command before it.
  if (commandSeparators.has(sep) && enteredTool(resolved, args, entered)) return hit('cmdi.chained_command', evidence, 2);
  // Hyphenated tool names (ansible-config, ssh-copy-id, chef-client) are never words of a sentence.
  if (resolved.cls === 'distinctive' && ((args.length === 0 && !assignmentBefore) || anyShaped || resolved.name.includes('-'))) return hit('cmdi.chained_command', evidence, 2);
  if (leading && (args.length === 0 || shaped || sensitive || /^-/.test(args[0]!.text))) return hit('cmdi.chained_command', evidence, 2);
  // A system file after a line break (`…\ncat /etc/passwd`) is no sentence's second line.
  if (sep === 'newline' && args.some((a) => systemFile.test(a.text))) return hit('cmdi.chained_command', evidence, 2);
  // English-word commands need every argument shell-shaped: "Set the value to 1 or 2" is prose.
  if (shaped || sensitive) return hit('cmdi.chained_command', evidence, sep === 'newline' && location === 'body' ? 1 : 2);
  if (args.length === 0 && !assignmentBefore && (sep !== 'newline' || location !== 'body')) return hit('cmdi.chained_command', evidence, 1);
  return null;
}

/**
 * The fork bomb `:(){ :|:& };:` and its renamed forms `.(){ .|.& };.`, `f(){ f & f; };f`,
 * `f(){ f() | f(); }`: a function whose body starts itself twice, piped or in the background.
 */
function findForkBomb(value: string): string | null {
  // (The regex scans from every position: most values have no `(){` at all, so look for it first.)
  if (!/\(\s*\)\s*\{/.test(value)) return null;
  const def = /([\w:.]{1,20})\s*\(\s*\)\s*\{([^{}]{1,80})\}/.exec(value);
  if (!def) return null;
  const name = def[1]!;
  const body = def[2]!;
  if (!body.includes('|') && !body.includes('&')) return null;
  const calls = body.split(/[|&;]/).filter((part) => part.trim().replace(/\(\s*\)$/, '') === name);
  return calls.length >= 2 ? def[0] : null;
}

/**
 * `a=nc&&$a -nlvp 555`, `c1=c;c2=a;c3=t;$c1$c2$c3 /etc/passwd`, `garb=adduse[r];$garb pizza`:
 * the command is spelled through variables set in the same value. The assignments are applied
 * (once, textually) and the result read again; only a clear hit there counts.
 */
function detectThroughVariables(value: string, location: InputLocation): DetectorHit | null {
  if (!value.includes('=') || !value.includes('$')) return null;
  const assigned = new Map<string, string>();
  const assignment = /(?:^|[;&|\n]\s*)([A-Za-z_]\w{0,30})=('[^']*'|"[^"]*"|\\.|[^\s;&|$()`]*)(?=[\s;&|]|$)/g;
  // (Literal pieces only: `x=$(echo $x)` is a script's own idiom, not a command being spelled.)
  for (let m = assignment.exec(value); m && assigned.size < 40; m = assignment.exec(value)) {
    const raw = m[2]!;
    assigned.set(m[1]!, raw.startsWith("'") || raw.startsWith('"') ? raw.slice(1, -1) : raw.replace(/^\\/, ''));
  }
  if (assigned.size === 0) return null;
  let used = false;
  const expanded = value.replace(/\$\{?([A-Za-z_]\w{0,30})\}?/g, (whole, name: string) => {
    const v = assigned.get(name);
    if (v === undefined) return whole;
    used = true;
    return v;
  });
  if (!used) return null;
  const found = detectShell(expanded, location);
  return found?.severity === 2 ? hit('cmdi.obfuscated_command', found.evidence, 2) : null;
}

/** `name=command …` as alias's argument, the value resolving to a known command. */
function aliasesCommand(arg: string): boolean {
  const eq = arg.indexOf('=');
  if (eq <= 0) return false;
  // (`ls-al='ls -al'` keeps its quote: the tokenizer reads a quote pair spanning a blank as prose.)
  const first = (arg.slice(eq + 1).trim().split(/\s+/)[0] ?? '').replace(/^['"]/, '');
  return resolveCommand(first, false) !== null;
}

/** Files reached through globs (/etc/[p]asswd, /e??/sh*ow): only evasion writes them so. */
const globTargets = ['/etc/passwd', '/etc/shadow', '/etc/group', '/etc/hosts', '/proc/self/environ', '/etc/issue', '/etc', '/etc/'];
function matchesSensitiveGlob(pattern: string): boolean {
  const lower = pattern.toLowerCase();
  // '*/*' (an Accept header) matches anything: a real evasion keeps letters of the path (/e??/pa*d).
  // (`/[e///]tc`: a letter inside a bracket class counts once two stand outside it; `/???`, `/e*` stay out.)
  const outside = (withoutBracketClasses(lower).match(/[a-z]/g) ?? []).length;
  if (outside < 2 || (outside === 2 && (lower.match(/[a-z]/g) ?? []).length < 3)) return false;
  // `/[?]tc/pa[?]swd`: a wildcard put in brackets matches only itself in bash, but it is written
  // to hide the same path from word lists; read it as the wildcard it was meant to be.
  const meant = lower.includes('[?]') || lower.includes('[*]') ? lower.replaceAll('[?]', '?').replaceAll('[*]', '*') : lower;
  return globTargets.some((t) => globMatch(lower, t) || globMatch(meant, t));
}

/** `'rm -rf file.txt'`, `"echo test"`: a quoted argument that is itself a command with arguments. */
function runsCommandString(arg: ShellWord): boolean {
  if (arg.quoted !== true) return false;
  const words = arg.text.trim().split(/\s+/);
  return words.length >= 2 && resolveCommand(words[0]!, false) !== null;
}

function clearCommand(resolved: ResolvedCommand, argc: number, sensitive: boolean, shaped: boolean): boolean {
  return sensitive || (resolved.cls === 'distinctive' && argc > 0 && shaped);
}

/**
 * `visudo⏎`, `cscli alerts list⏎`, `pip3 install something⏎`: a distinctive command with plain
 * lower-case words and the line break that submits it; a form value does not end so. A lone word
 * needs a name that is nothing but a tool's (`visudo`, `ansible-config`): "Python⏎" is a word.
 */
function enteredTool(resolved: ResolvedCommand, args: ShellWord[], entered: boolean): boolean {
  if (!entered || resolved.cls !== 'distinctive' || args.length > 4) return false;
  if (args.length === 0) return resolved.name.includes('-') || toolOnlyNames.has(resolved.name);
  return args.every((a) => /^[a-z0-9][\w.-]*$/.test(a.text));
}

/**
 * The value is one line ended by a line break (the Enter after a typed command line), and every
 * command on it is a command (`time; cscli …`: a keyword alone counts, enteredPart). ("I use python;
 * python rocks⏎" opens with words, not a command.)
 */
function enteredShape(value: string): boolean {
  // (The last character first: most values do not end with a line break, and long ones are scanned once.)
  return value.charCodeAt(value.length - 1) === 10 && /^[^\n\r]+\r?\n$/.test(value);
}

/** A command before the last one of such a line: a command, or shell keywords only (`time;`, `then`). */
function enteredPart(command: ShellCommand): boolean {
  const words = command.words;
  return startsCommand(command) || (words.length > 0 && words.every((w) => shellKeywords.has(w.text)));
}

/** The command opens the value or follows ; && || | and its first word is a known command. */
function startsCommand(command: ShellCommand): boolean {
  if (command.separator !== 'start' && !commandSeparators.has(command.separator)) return false;
  const index = commandIndex(command.words);
  return index >= 0 && resolveCommand(command.words[index]!.text, false) !== null;
}

/** Skips `VAR=value` prefixes and control keywords to the word a shell would execute. */
function commandIndex(words: ShellWord[]): number {
  for (let i = 0; i < words.length && i < 6; i++) {
    const w = words[i]!.text;
    if (w.length === 0 || shellKeywords.has(w)) continue; // '' = an empty expansion ($u wget …)
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) continue;
    // sudo / nohup / strace …: the command they wrap is the one to judge (flags and numbers skipped).
    if (wrappers.has(w.toLowerCase()) && i + 1 < words.length) {
      let j = i + 1;
      while (j < words.length - 1 && /^(?:-|\d+$)/.test(words[j]!.text)) j++;
      if (resolveCommand(words[j]!.text, false)) return j;
    }
    return i;
  }
  return -1;
}

/**
 * `bcdboot/r`, `netsh/?`: cmd.exe takes a one-letter switch glued to the command's name. Only
 * distinctive names count ("cat/dog", "and/or" are words).
 */
function resolveSwitched(word: string): ResolvedCommand | null {
  const m = /^([A-Za-z][\w.-]{1,30})\/[A-Za-z?]$/.exec(word);
  if (!m) return null;
  const resolved = resolveCommand(m[1]!, false);
  return resolved?.cls === 'distinctive' ? resolved : null;
}

/** Power commands: a lone one submitted as a line is a command typed, not a word (see judge). */
const powerCommands = new Set(['shutdown', 'reboot', 'poweroff']);
/** The vi family: each runs `:!command` in a shell. */
const viEditors = new Set(['vi', 'vim', 'nvim', 'ex', 'view', 'rvim', 'rview', 'vimdiff', 'gvim']);

/** The word after `-c`: an editor command (`silent !id`, `:!sh`). */
const editorCommandAfterFlag = /^:?[a-z ]{0,12}!\s*([\w./~-]{1,60})/;
/** One word carrying the command: `!id`, `-c:!pwd`, `+silent !id`, `:!/bin/sh`. */
const editorCommandArgument = /^(?:(?:-c|\+):?[a-z ]{0,12}|:)?!\s*([\w./~-]{1,60})/;

/**
 * `!whoami`, `-c:!pwd`, `:!/bin/sh`, `+silent !id` (one word: `+silent\ !id`), or `-c` then
 * `silent !id`: an editor command that runs a program (a path or a known command).
 */
function isEditorShellEscape(arg: ShellWord, k: number, args: readonly ShellWord[]): boolean {
  const m = (k > 0 && args[k - 1]!.text === '-c' ? editorCommandAfterFlag : editorCommandArgument).exec(arg.text);
  return m !== null && (m[1]!.startsWith('/') || resolveCommand(m[1]!, false) !== null);
}

/** Editors a pipe can feed (`|vi`): too short or too plain for the dictionary, read only after a pipe. */
const pipeEditors = new Set(['vi', 'nano']);

/**
 * `|vi (x`: a value that opens with a pipe into an editor hands the application's output to a
 * program, which only an injection writes. (Not after `;`: "vi" elsewhere is a Roman numeral
 * or a word; an editor given a `!command` is judged by isEditorShellEscape.)
 */
function pipedEditor(name: string, sep: string, leading: boolean, pipeCount: number): ResolvedCommand | null {
  // (One pipe only: "| vi | vim |" is a table row of editor names.)
  return leading && sep === '|' && pipeCount === 1 && pipeEditors.has(name) ? { name, cls: 'english' } : null;
}

/** Form encoding turns spaces into '+': `getent+hosts+x` reaches us when no decoder ran. */
function splitPlusJoined(word: string): string {
  const plus = word.indexOf('+');
  return plus > 0 ? word.slice(0, plus) : word;
}

/** A flag, a path, an URL, an address, a variable: what arguments of a command look like. */
function isShellArgument(arg: string, afterSeparator: boolean): boolean {
  if (arg.length === 0) return false;
  if (/^--?[A-Za-z0-9]/.test(arg)) return true;
  if (arg.includes('/') || arg.includes('\\')) return true;
  // `%SYSTEMROOT%\win.ini`: cmd.exe expands the variable and takes `\` literally (the POSIX
  // reading has already eaten that backslash, leaving `%SYSTEMROOT%win.ini`).
  if (/^%[A-Za-z_][\w()]{1,30}%/.test(arg)) return true;
  if (/^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?$/.test(arg)) return true;
  if (afterSeparator && /^\d+$/.test(arg)) return true;
  if (/^\d+(?:[*+/%-]\d+)+$/.test(arg)) return true; // set /a 3482*7301, expr 1 + 1
  if (afterSeparator && /^[a-z0-9-]+(?:\.[a-z0-9-]+){2,}\.?$/i.test(arg)) return true; // host names
  if (afterSeparator && /^[\w-]+\.[a-z][a-z0-9]{0,4}$/i.test(arg)) return true; // file names: secrets.txt, site.yml
  if (arg === '{}') return true; // find's placeholder
  return /^\*|^\.\w/.test(arg);
}

