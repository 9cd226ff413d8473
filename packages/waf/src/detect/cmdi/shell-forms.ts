/**
 * Shell forms that carry no command name for the dictionary to find, yet only a shell (or a
 * shell-like console) gives them meaning:
 *  - tilde expansion of the directory stack, a whole value `~-1`, `~+5`;
 *  - history expansion, a whole value `!!`, `!-1!-2`, `!1` (re-runs earlier commands);
 *  - a command substitution inside an arithmetic expansion, `$(( $(id) ))`;
 *  - SQLite's shell dot-commands after a statement separator (`1;.shell whoami`, `;\n.system …`,
 *    `;.databases`): the sqlite3 console runs them, and `.shell`/`.system` hand a line to sh;
 *  - a parameter expansion with a bash operator, `${x#{}}`, `${PATH%/*}`, `${u:-id}`, and bash's
 *    old arithmetic `$[2+2]`: suspicious (1, strict mode only). Templates write `${name}` and
 *    `${a.b}`, JSONPath `$[0]` and `$['k']`; the trimming and defaulting operators and a sum
 *    inside `$[ ]` are the shell's. (A bare `${cmd}` or `$[]` stays out: templates and JSONPath.)
 *
 * (An editor's shell escape, `;vi -c:\!pwd`, is judged with its command word: index.ts,
 * isEditorShellEscape. CRS's must-pass set holds the same payloads under another rule's id, which
 * fires at a higher paranoia level; they run a shell, so they count as attacks here.)
 *
 * Loose/strict split (prose and form values must pass loose mode): `~+N`/`~-N` and two or more
 * history references are nothing a person types, so they block (2); a lone `!!` or `!1` could be an
 * exclamation or a score: suspicious (1, strict mode only).
 */
import type { DetectorHit } from '../../types.ts';
import { hit } from './hit.ts';

/** The sqlite3 console's dot-commands (its `.help`), the ones an injection would use or probe with. */
const sqliteDotCommands = new Set([
  'archive', 'backup', 'bail', 'binary', 'cd', 'changes', 'clone', 'databases', 'dbconfig', 'dbinfo', 'dump', 'excel',
  'expert', 'filectrl', 'fullschema', 'import', 'indexes', 'iotrace', 'load', 'log', 'nonce', 'once', 'open', 'output',
  'parameter', 'print', 'prompt', 'read', 'recover', 'restore', 'save', 'scanstats', 'schema', 'selftest', 'separator',
  'session', 'sha3sum', 'shell', 'show', 'stats', 'system', 'tables', 'testcase', 'testctrl', 'timeout', 'trace', 'sh',
]);

export function detectShellForms(value: string): DetectorHit | null {
  const trimmed = value.trim();
  const first = trimmed[0];
  // Directory-stack tilde: ~+ (PWD), ~- (OLDPWD), ~+N / ~-N (dirs entries).
  // (Only with an entry number: a bare `~+`, `~-` or `~0` is also what people write for "about",
  // "roughly none", a rating; those need more than the value to tell.)
  if (first === '~' && /^~[+-]\d{1,3}$/.test(trimmed)) return hit('cmdi.shell_expansion', trimmed, 2);
  // History: !! (last command), !N, !-N; two references back to back are no exclamation.
  if (first === '!' && trimmed.length <= 40 && /^(?:!(?:!|-?\d{1,4}))+$/.test(trimmed)) {
    const references = trimmed.match(/!(?:!|-?\d{1,4})/g)!.length;
    return hit('cmdi.history_expansion', trimmed, references >= 2 ? 2 : 1);
  }
  // `$(( $(cmd) + 1 ))`, `$(($() 42))`: a command substitution inside an arithmetic expansion runs
  // before the sum is taken (only a shell writes `$((`, and the inner `$(` is a command).
  const arith = value.indexOf('$((');
  if (arith >= 0) {
    const close = value.indexOf('))', arith + 3);
    const body = value.slice(arith + 3, close < 0 ? value.length : close);
    if (body.includes('$(') || body.includes('`')) return hit('cmdi.command_substitution', value.slice(arith, arith + 80), 2);
  }
  const dot = value.includes(';') ? findSqliteDotCommand(value) : null;
  if (dot) return hit('cmdi.sqlite_dot_command', dot, 2);
  const expansion = value.includes('$') ? bashExpansion.exec(value) ?? bashArithmetic.exec(value) : null;
  if (expansion) return hit('cmdi.shell_expansion', value.slice(expansion.index, expansion.index + 80), 1);
  return null;
}

/** `${name#…}`, `${name%…}`, `${name/…}`, `${name:-…}` (and `:=`, `:?`, `:+`), `${#name}`, `${!name}`. */
const bashExpansion = /\$\{(?:[A-Za-z_]\w{0,40}(?:#|%|\/|:[-=?+])|[#!][A-Za-z_]\w{0,40}\})/;
/** `$[2+2]`, `$[a*3]`: operands joined by arithmetic operators inside `$[ ]`. */
const bashArithmetic = /\$\[\s*\w{1,20}\s*(?:[-+*/%]\s*\w{1,20}\s*){1,8}\]/;

/**
 * `;` (then blanks or line breaks) `.` (blanks, a quote or an escaped quote allowed) and a
 * dot-command, followed by a blank, a line end or the end of the value. The `;` ends the SQL the
 * application meant to run; the dot-command is read by the console that ran it.
 */
function findSqliteDotCommand(value: string): string | null {
  for (let semi = value.indexOf(';'); semi >= 0; semi = value.indexOf(';', semi + 1)) {
    // (`\n` written as two characters counts as the line break it stands for: the value went through
    // one more escaping layer on its way here.)
    const m = /^;(?:\s|\\[nrt])*\.\s*(?:\\?["'])?([a-z0-9]{2,12})(?=$|[\s"'\\])/i.exec(value.slice(semi, semi + 40));
    if (m && sqliteDotCommands.has(m[1]!.toLowerCase())) return value.slice(semi, semi + 80);
  }
  return null;
}
