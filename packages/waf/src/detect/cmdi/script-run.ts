/**
 * `rc script.sh`, `bash install.sh`, `python3 exploit.py`, `perl x.pl`: an interpreter handed a
 * script file of its own language, the whole value being that command line. The pair is the
 * shape, not either word: `rc` alone is a release candidate, `install.sh` alone a file name, and
 * a script's extension has to match the interpreter named before it ("sh notes.txt" is nothing).
 */
const extensions = new Map<string, ReadonlySet<string>>();
const add = (names: string[], exts: string[]): void => {
  for (const n of names) extensions.set(n, new Set(exts));
};
add(['sh', 'bash', 'zsh', 'ksh', 'dash', 'ash', 'csh', 'tcsh', 'rc', 'busybox', 'source'], ['sh', 'bash']);
add(['python', 'python2', 'python3'], ['py', 'pyc']);
add(['perl'], ['pl', 'pm', 'cgi']);
add(['ruby'], ['rb']);
add(['php'], ['php', 'phar']);
add(['node', 'nodejs'], ['js', 'mjs', 'cjs']);
add(['lua'], ['lua']);
add(['pwsh', 'powershell', 'powershell.exe'], ['ps1']);
add(['cscript', 'wscript'], ['vbs', 'js', 'wsf']);

/** A bare script name (no folder: folders are judged as paths elsewhere): `p2.txt`, `install.sh`. */
const scriptFile = /^[\w-]{1,40}\.([a-z0-9]{1,5})$/;
const plainArgument = /^[\w@.:/=+-]+$/;

/** `python3.11`: the version a Python install names its binary with, read as `python3`. */
function interpreterName(word: string): string {
  return word.startsWith('python') ? word.replace(/^(python[23]?)\.\d{1,2}$/, '$1') : word;
}

/** Whether `word` names an interpreter (the cheap first test, before the value is split). */
export function isInterpreter(word: string): boolean {
  return extensions.has(interpreterName(word));
}

/** `words`: the blank-separated words of the whole value. */
export function isScriptRun(words: readonly string[]): boolean {
  if (words.length < 2 || words.length > 5) return false;
  const exts = extensions.get(interpreterName(words[0]!));
  if (!exts) return false;
  const file = scriptFile.exec(words[1]!);
  return file !== null && exts.has(file[1]!) && words.slice(2).every((w) => plainArgument.test(w));
}
