/**
 * Which PHP files are worth parsing. Every flow signal above weak needs something to reach a sink:
 * request input, a decoder's output or a name built from pieces (see the weights in signals.ts and
 * sinks.ts); the literal signals need a packed literal. A file with no source at all, or no sink of any kind (no eval, no
 * command, no callback-taking call, no include, no variable call, no write), can give no flow
 * signal, so parsing it would cost time and change no verdict. Signatures still run on every file.
 * A form field counts as a source: register_globals pages read their fields as plain variables (form-fields.ts).
 *
 * Deliberately broad on each side (a false "worth it" costs a parse, a false "not worth it" a
 * detection), cheap in order: the source test fails on most files, and the sink test and the
 * packed-literal run only run when it has to.
 */
import { hasFormField } from './form-fields.ts';

/** Request input: superglobals are case-sensitive, so this half is too. */
const clientKey = `(?:HTTP_|QUERY_STRING|REQUEST_URI|PATH_INFO|PHP_AUTH|argv)`;
const input = new RegExp([
  // $_GET, ${'_GET'}, $GLOBALS['_POST'], HTTP_*_VARS; $_SERVER unless it is read at a key the server sets
  '_(?:GET|POST|REQUEST|COOKIE|FILES|ENV)\\b', `_SERVER\\b(?!\\s*\\[\\s*['"](?!${clientKey}))`, 'HTTP_\\w+_VARS', 'HTTP_RAW_POST_DATA',
].join('|'));
const source = new RegExp([
  // the other inputs: php://input, headers, client-set environment, filter_input
  'php://(?:input|stdin)', 'getallheaders', 'request_headers', `getenv\\s*\\(\\s*(?!['"](?!${clientKey}))`, 'filter_input',
  // decoders and character arithmetic
  'base64_decode', 'gzinflate', 'gzuncompress', 'gzdecode', 'str_rot13', 'strrev', 'hex2bin', 'convert_uu', 'bzdecompress', '\\bchr\\s*\\(', '\\bpack\\s*\\(',
  // names glued from short literal pieces ('ba'.'se64', "sy" . "stem"), variable variables
  '[\'"]\\w{0,16}[\'"]\\s*\\.\\s*[\'"]\\w{0,16}[\'"]', '\\$\\{', '\\$\\$',
].join('|'), 'i');

const sink = new RegExp([
  // code and command sinks, preg /e, callback-taking calls, extract, writes and uploads (sinks.ts)
  '\\b(?:eval|assert|create_function|system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec|expect_popen|preg_replace|preg_filter|mb_eregi?_replace'
    + '|call_user_func(?:_array)?|array_map|array_filter|array_walk(?:_recursive)?|u[ak]?sort|array_reduce|register_(?:shutdown|tick)_function'
    + '|forward_static_call(?:_array)?|iterator_apply|ob_start|set_(?:error|exception)_handler|preg_replace_callback|mb_ereg_replace_callback'
    + '|spl_autoload_register|header_register_callback|array_u?(?:intersect|diff)(?:_u?(?:assoc|key))?|extract|parse_str|file_put_contents|fwrite|fputs|move_uploaded_file|copy)\\s*\\(',
  // file-manager paths (file-manager.ts) and SQL client calls (sql-client.ts), the latter only when called directly, not through a framework's object
  '\\b(?:opendir|scandir|readfile|highlight_file|show_source|unlink|rmdir|chmod)\\s*\\(|\\bnew\\s+(?:Recursive)?DirectoryIterator\\b',
  '\\b(?:mysqli?|pg|mssql|sqlsrv|sybase|ifx|odbc|ibase|sqlite)_(?:unbuffered_|db_|multi_|real_)?(?:query|exec)\\s*\\(|\\boci_?parse\\s*\\(',
  // includes but those of a literal path or under a constant directory (ABSPATH . 'x', __DIR__ . '/x'),
  // backticks around a variable, and calls of something that is not a plain name: $f(), $a['f'](), ('x')(), ${'x'}(), 'f'()
  '\\b(?:include|require)(?:_once)?\\b\\s*\\(?\\s*(?![A-Z_][A-Z0-9_]*\\s*[.;)]|__DIR__|[\'"][^\'"$]*[\'"]\\s*\\)?\\s*;)', '`[^`]{0,200}\\$', 'new\\s+Reflection(?:Function|Method|Class)\\b', 'registerPHPFunctions', 'LD_PRELOAD', '(?:\\$\\w+|[)\\]}]|[\'"]\\w+[\'"])\\s*\\(',
].join('|'), 'i');

/** Base64/hex alphabet, for the packed-literal test. */
const packedAlphabet = new Uint8Array(256);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=') packedAlphabet[c.charCodeAt(0)] = 1;
const packedRun = 600;

const isPacked = (text: string, i: number): boolean => packedAlphabet[text.charCodeAt(i) & 0xff] === 1;

/**
 * A run of 600 base64/hex characters (what literals.ts looks at). Skips ahead like Boyer-Moore: a
 * run that long must cover the character 599 places on, so ordinary text costs one look per 600.
 */
export function hasPackedRun(text: string): boolean {
  const n = text.length;
  let i = packedRun - 1;
  while (i < n) {
    if (!isPacked(text, i)) { i += packedRun; continue; }
    let start = i;
    while (start > i - packedRun + 1 && isPacked(text, start - 1)) start -= 1;
    let end = i;
    while (end + 1 < n && end - start + 1 < packedRun && isPacked(text, end + 1)) end += 1;
    if (end - start + 1 >= packedRun) return true;
    i = end + 1 + packedRun; // text[end + 1] is outside the alphabet: the next run starts after it
  }
  return false;
}

/**
 * Small files that call something by a non-plain name, or eval, assert or save an upload, are parsed
 * whatever their sources: one-liners hide their sources best (`$c($_SESSION[..])` after a name built
 * from variables, register_globals uploads). Other sinks in small files are common and cost a parse
 * each (php-parser has a fixed cost per file), so they still need a source.
 */
const smallFile = 4096;
const smallSink = /(?:\$\w+|[)\]}]|['"]\w+['"])\s*\(|\b(?:eval|assert|create_function|move_uploaded_file)\s*\(/i;

export const isWorthParsing = (text: string): boolean =>
  // A packed literal is worth a parse on its own: a file that is almost all one high-entropy literal scores without a sink.
  hasPackedRun(text) || ((input.test(text) || source.test(text) || hasFormField(text)) ? sink.test(text) : text.length <= smallFile && smallSink.test(text));
