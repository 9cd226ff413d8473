/**
 * JSP at token level: no Java parser, but the shapes are few and telling. A page that reads the
 * request and runs a command, defines classes from decoded bytes (the encrypted-channel shells),
 * calls methods by reflection or evaluates script text is a shell; each capability alone is weaker.
 */
import { javaFeedsStdin, javaInterpreter } from './interactive.ts';
import { anyMatch, firstMatch, mentions, signalAt, taintedNames } from './tokens.ts';
import { type Signal, medium, strong } from '../signals.ts';

const requestInput = /\brequest\s*\.\s*(?:getParameter(?:Values|Map)?|getHeader|getInputStream|getReader|getQueryString|getPart|getCookies)\s*\(|\bpageContext\s*\.\s*getRequest\s*\(/;
const command = [/\bRuntime\s*\.\s*getRuntime\s*\(\s*\)\s*\.\s*exec\s*\(/, /\bnew\s+ProcessBuilder\s*\(/, /\bProcessImpl\b/, /\bUNIXProcess\b/, /\.\s*exec\s*\(\s*(?:new\s+String\s*\[\]|cmd|command|new\s+String\s*\[)/i];
/** defineClass called, or looked up by name for a reflective call (`getDeclaredMethod("defineClass", ...)`). */
const defineClass = /\bdefineClass\s*\(|["']defineClass["']/;
/** The memory-resident payload's call shape: a class made from bytes, instantiated and handed the page (`.newInstance().equals(pageContext)`). */
const payloadCall = /\.\s*newInstance\s*\(\s*\)\s*\.\s*equals\s*\(\s*(?:pageContext|request|new\s+Object\s*\[)/;
/** Command by reflection: `new Expression(Runtime.getRuntime(), "exec", ...)`, `getMethod("exec", ...)`. */
const reflectiveExec = /["']exec["']/;
const fileSink = /\bnew\s+(?:java\.io\.)?(?:FileOutputStream|FileWriter|RandomAccessFile|PrintWriter|File)\s*\(([^;]{0,200})/g;
const writeCall = /\.\s*(?:write|print|println)\s*\(([^;]{0,200})/g;
const decodeBytes = /\b(?:BASE64Decoder|decodeBuffer|Base64\s*\.\s*getDecoder|getMimeDecoder|DatatypeConverter\s*\.\s*parseBase64Binary|Cipher\s*\.\s*getInstance)\b/;
const reflection = [/\bClass\s*\.\s*forName\s*\(/, /\.\s*getMethod\s*\(|\.\s*getDeclaredMethod\s*\(/, /\.\s*invoke\s*\(/];
const scriptEval = [/\bScriptEngineManager\b/, /\.\s*eval\s*\(/];
const fileWrite = /\bnew\s+(?:FileOutputStream|FileWriter|RandomAccessFile|PrintWriter\s*\(\s*new\s+File)\b/;
const fileBrowse = /\.\s*(?:listFiles|list|delete|renameTo)\s*\(\s*\)/;

/** Java source may spell identifiers with \uXXXX escapes: `\u0052untime` is `Runtime`. */
export function unescapeJava(text: string): string {
  return text.replace(/\\u+([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function analyseJsp(raw: string): Signal[] {
  const text = /\\u[0-9a-fA-F]{4}/.test(raw) ? unescapeJava(raw) : raw;
  const signals: Signal[] = [];
  const input = firstMatch(text, requestInput) !== null;
  const tainted = input ? taintedNames(text, requestInput) : new Set<string>();
  const fromInput = (expression: string): boolean => requestInput.test(expression) || mentions(expression, tainted);
  const exec = anyMatch(text, command) ?? (/\bRuntime\b/.test(text) ? firstMatch(text, reflectiveExec) : null);
  if (exec) signals.push(signalAt(exec, input ? 'jsp_command_from_request' : 'jsp_command', input ? strong : medium + 1));
  const define = firstMatch(text, defineClass);
  const payload = firstMatch(text, payloadCall);
  if (define && (firstMatch(text, decodeBytes) || input)) signals.push(signalAt(define, 'jsp_class_loader', strong));
  else if (payload && firstMatch(text, decodeBytes) && (input || /\bClassLoader\b/.test(text))) signals.push(signalAt(payload, 'jsp_class_loader', strong));
  else if (define) signals.push(signalAt(define, 'jsp_class_loader', medium));
  const reflect = reflection.map((pattern) => firstMatch(text, pattern));
  if (reflect.every(Boolean) && input) signals.push(signalAt(reflect[2] as RegExpExecArray, 'jsp_reflection_from_request', strong));
  const script = scriptEval.map((pattern) => firstMatch(text, pattern));
  if (script.every(Boolean)) signals.push(signalAt(script[1] as RegExpExecArray, 'jsp_script_eval', input ? strong : medium));
  const write = firstMatch(text, fileWrite);
  if (write && input && firstMatch(text, fileBrowse)) signals.push(signalAt(write, 'jsp_file_manager', medium + 1));
  else if (input) {
    // An uploader: a file the request names, written with what the request sends.
    const sinkAt = [...text.matchAll(fileSink)].find((m) => fromInput(m[1] ?? ''));
    const content = sinkAt && [...text.matchAll(writeCall)].some((m) => fromInput(m[1] ?? '') || decodeBytes.test(m[1] ?? ''));
    if (sinkAt && content) signals.push(signalAt(sinkAt as RegExpExecArray, 'jsp_file_manager', medium + 1));
  }
  const shell = firstMatch(text, javaInterpreter);
  if (shell && javaFeedsStdin.test(text)) signals.push(signalAt(shell, 'interactive_shell', input ? strong : medium + 1));
  // A SQL client: connects with a URL or credentials from the request and runs the request's SQL.
  const connect = [...text.matchAll(/\bDriverManager\s*\.\s*getConnection\s*\(([^;]{1,200})/g)].find((m) => fromInput(m[1] ?? ''));
  const sql = connect && [...text.matchAll(/\.\s*(?:execute(?:Query|Update)?|prepareStatement|addBatch)\s*\(([^;]{1,200})/g)].find((m) => fromInput(m[1] ?? ''));
  if (sql) signals.push(signalAt(sql as RegExpExecArray, 'sql_client_from_request', medium + 1));
  return signals;
}
