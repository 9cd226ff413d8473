/**
 * A value that is one bare call to a name the function tables do not hold as such (CRS 933150,
 * 933152, 933153 probes):
 *  - `FOOcall_user_func()`, `FOOGzInFlAtE()`: a dangerous function's name glued after capitals,
 *    the padding that slips past word-bounded lists while a sloppy filter strips it — a clear attack.
 *    (Only long names, and only after capitals or digits: `my_array_filter()`, `job_start()` and
 *    `maybe_unserialize()` are an application's own functions.)
 *  - `pg_enter_pipeline_mode (`, `ldap_get_entries()`, `sodium_crypto_…_keygen (`: a function of a
 *    PHP extension, named by its prefix, alone with its parenthesis — a probe of an eval, suspicious
 *    only (strict mode), as a bare `substr()` is. (`sodium_` alone is too loose: CRS must-pass
    tests send made-up `sodium_…` names.)
 * Prose and code posts never consist of a single such call, so only the whole value is read.
 */
import type { DetectorHit } from '../../types.ts';
import { dangerousFunctions } from './functions.ts';

/** Prefixes of PHP extensions' functions that no other language's library uses as its own. */
const extensionPrefix =
  /^(?:pg|ldap|odbc|sodium_crypto|tidy|zend|mysqli|mysql|oci|sqlsrv|mssql|sqlite|ibase|fbird|db2|cubrid|openssl|posix|pcntl|imap|ssh2|xmlrpc|zlib|iconv|gmp|bcmath|libxml|simplexml|xmlwriter|xmlreader|yaml|apcu|opcache|readline|shmop|inotify|pspell|enchant|exif|finfo|mcrypt|grapheme|idn|numfmt|collator|msgfmt|datefmt|transliterator|resourcebundle|stream|socket|mb|proc|ftp|curl)_[a-z0-9]+(?:_[a-z0-9]+)*$/;
const longDangerous = [...dangerousFunctions].filter((name) => name.length >= 8);

/** The whole value: a name, optional blanks, `(`, a short argument list or nothing, `)` or cut off. */
const wholeCall = /^\s*([A-Za-z_][A-Za-z0-9_]{3,80})\s*\(([^()]{0,64})(\))?\s*;?\s*$/;

/** The whole value: a name, `=`, then a parenthesized group (closed or cut off). */
const boundGroup = /^\s*([A-Za-z_][A-Za-z0-9_]{3,80})\s*=\s*\(([^()]{0,64})\)?\s*;?\s*$/;

/**
 * `shell_exec=(bla)`, `ZlIb_DeCoDe=(…)`: a dangerous function's compound name (the underscore puts
 * it in no sentence and no other language's library) handed an argument list with an `=` between
 * the two — the spelling that slips past a filter looking for `name(`. Nothing but PHP names such a
 * function, and the value is nothing else. Suspicious only (strict mode): PHP does not run it as
 * written, and a bare name with no argument list (`?q=shell_exec`, a documentation search) is no
 * finding at all.
 */
function boundArguments(text: string): DetectorHit | null {
  const m = boundGroup.exec(text);
  if (!m) return null;
  const name = m[1]!.toLowerCase();
  return name.includes('_') && dangerousFunctions.has(name) ? { kind: 'cmdi', rule: 'php.function_call', evidence: text.trim().slice(0, 120), severity: 1 } : null;
}

export function judgeWholeCall(text: string): DetectorHit | null {
  if (text.length > 200) return null;
  const m = wholeCall.exec(text);
  if (!m) return text.includes('=') ? boundArguments(text) : null;
  const name = m[1]!.toLowerCase();
  if (dangerousFunctions.has(name)) return null; // the call judge's case
  for (const d of longDangerous) {
    if (name.length > d.length && name.endsWith(d) && /^[A-Z0-9]+$/.test(m[1]!.slice(0, name.length - d.length))) {
      return { kind: 'cmdi', rule: 'php.function_call', evidence: text.trim().slice(0, 120), severity: 2 };
    }
  }
  // Arguments, if any, are what a probe passes (nothing, a word, a number, a variable).
  if (extensionPrefix.test(name) && /^\s*[\w$'"]{0,20}\s*$/.test(m[2]!)) {
    return { kind: 'cmdi', rule: 'php.function_call', evidence: text.trim().slice(0, 120), severity: 1 };
  }
  return null;
}
