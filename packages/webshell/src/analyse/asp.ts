/**
 * Classic ASP (VBScript/JScript) and ASP.NET at token level. The one-liners are "execute what the
 * request says"; the bigger shells create WScript.Shell or start a process with request text, or
 * load an assembly that the request carries. A variable assigned from Request counts as request.
 */
import { anyMatch, firstMatch, signalAt } from './tokens.ts';
import { type Signal, medium, strong } from '../signals.ts';

const request = /\bRequest\s*(?:\.\s*(?:Form|QueryString|Item|Params|Cookies|ServerVariables|Headers|InputStream|BinaryRead|Files)\b|\(|\[)/i;
const requestSource = request.source;
const shellObjects = /\bCreateObject\s*\(\s*["'](?:WScript\.Shell|WScript\.Network|Shell\.Application|Wscript\.Shell\.1)["']|\bGetObject\s*\(\s*["']new:(?:72C24DD5-D70A-438B-8A42-98424B88AFB8|13709620-C279-11CE-A49E-444553540000)/i;
const processStart = [/\bProcess\s*\.\s*Start\s*\(/, /\bnew\s+(?:System\.Diagnostics\.)?ProcessStartInfo\b/, /\bnew\s+(?:System\.Diagnostics\.)?Process\s*\(/];
const assemblyLoad = /\b(?:Assembly|AppDomain\s*\.\s*CurrentDomain)\s*\.\s*Load\s*\(/i;
const fromBase64 = /\b(?:Convert\s*\.\s*FromBase64String|FromBase64Transform|RijndaelManaged|Decrypt|TransformFinalBlock)\b/i;
const fileManager = [/\bScripting\.FileSystemObject\b|\bSystem\.IO\.File\b|\bFile\s*\.\s*(?:WriteAll|Delete|Copy|Move)|\bDirectory\s*\.\s*GetFiles/i, /\.\s*(?:CreateTextFile|OpenTextFile|DeleteFile|SaveToFile|WriteAllBytes|WriteAllText|Delete|GetFiles)\s*\(?/i];

/** Names assigned from the request: `x = Request("a")`, `string x = Request.Form["a"];`. */
function requestVariables(text: string): Set<string> {
  const names = new Set<string>();
  const assign = new RegExp(`(?:\\b(?:Dim|Set|var|string|object)\\s+)?\\b([A-Za-z_]\\w*)\\s*=\\s*[^\\r\\n;:]{0,120}?${requestSource}`, 'gi');
  for (const match of text.matchAll(assign)) if (match[1]) names.add(match[1].toLowerCase());
  return names;
}

export function analyseAsp(text: string): Signal[] {
  const signals: Signal[] = [];
  const input = firstMatch(text, request) !== null;
  const tainted = requestVariables(text);
  const fromInput = (argument: string): boolean =>
    request.test(argument) || [...argument.toLowerCase().matchAll(/[a-z_]\w*/g)].some((word) => tainted.has(word[0]));

  // Execute / ExecuteGlobal / Eval with request text (VBScript, JScript) or eval(..., "unsafe") (JScript.NET).
  for (const match of text.matchAll(/\b(Execute(?:Global)?|Eval)\b\s*\(?\s*([^\r\n%]{0,200})/gi)) {
    const argument = match[2] ?? '';
    if (fromInput(argument) || /["']unsafe["']/i.test(argument)) {
      signals.push(signalAt(match as RegExpExecArray, /\bunsafe\b/i.test(argument) ? 'aspx_eval_request' : 'asp_execute_request', strong));
      break;
    }
  }
  // Execute of a decoding function's result: Execute(Decode("%119%136...")) or Execute(x) where x is built with Chr().
  if (!signals.length) {
    const decoded = firstMatch(text, /\b(?:Execute(?:Global)?|Eval)\b\s*\(?\s*\w+\s*\(\s*["'][^"'\r\n]{20,}/i);
    if (decoded) signals.push(signalAt(decoded, 'asp_execute_decoded', strong));
    else {
      const dynamic = firstMatch(text, /\b(?:Execute(?:Global)?|Eval)\b\s*\(?\s*[A-Za-z_]\w*/i);
      if (dynamic && /\bChrW?\s*\(/i.test(text)) signals.push(signalAt(dynamic, 'asp_execute_decoded', medium + 1));
    }
  }
  // The Script Encoder (#@~^...^#~@) hides VBScript/JScript from readers; web shells are its users today.
  const encoded = firstMatch(text, /#@~\^[A-Za-z0-9+/]{6}==/);
  if (encoded) signals.push(signalAt(encoded, 'asp_encoded_script', medium + 1));
  const shell = firstMatch(text, shellObjects);
  if (shell) signals.push(signalAt(shell, 'asp_shell_object', input ? strong : medium + 1));
  const process = anyMatch(text, processStart);
  if (process) signals.push(signalAt(process, input ? 'aspx_process_from_request' : 'asp_command', input ? strong : medium + 1));
  const load = firstMatch(text, assemblyLoad);
  if (load && (input || firstMatch(text, fromBase64))) signals.push(signalAt(load, 'aspx_assembly_load', input && firstMatch(text, fromBase64) ? strong : medium + 1));
  const files = fileManager.map((pattern) => firstMatch(text, pattern));
  if (files.every(Boolean) && input) signals.push(signalAt(files[0] as RegExpExecArray, 'asp_file_manager', medium + 1));
  return signals;
}
