/**
 * Classic ASP (VBScript/JScript) and ASP.NET at token level. The one-liners are "execute what the
 * request says"; the bigger shells create WScript.Shell or start a process with request text, or
 * load an assembly that the request carries. A variable assigned from Request counts as request.
 */
import { aspAdminSignals } from './asp-admin.ts';
import { anyMatch, firstMatch, mentions, needsNormalizing, normalizeScript, signalAt, taintedNames } from './tokens.ts';
import { type Signal, medium, strong, weak } from '../signals.ts';

const request = /\bRequest\s*(?:\.\s*(?:Form|QueryString|Item|Params|Cookies|ServerVariables|Headers|InputStream|BinaryRead|Files)\b|\(|\[)/i;
const shellObjects = /\bCreateObject\s*\(\s*["'](?:WScript\.Shell|WScript\.Network|Shell\.Application|Wscript\.Shell\.1)["']|\bGetObject\s*\(\s*["']new:(?:72C24DD5-D70A-438B-8A42-98424B88AFB8|13709620-C279-11CE-A49E-444553540000)/i;
const processStart = [/\bProcess\s*\.\s*Start\s*\(/i, /\bnew\s+(?:System\.Diagnostics\.)?ProcessStartInfo\b/i, /\bnew\s+(?:System\.Diagnostics\.)?Process\s*\(/i];
/** Loading an assembly from bytes, directly or by reflection (`typeof(Assembly).GetMethod("Load")`): the encrypted-channel shells. */
const assemblyLoad = /\b(?:Assembly|AppDomain\s*\.\s*CurrentDomain)\s*\.\s*Load\s*\(|\bGetMethod\s*\(\s*"Load"|\bAssembly\s*\.\s*Load(?:From|File)?\b/i;
const fromBase64 = /\b(?:Convert\s*\.\s*FromBase64String|FromBase64Transform|RijndaelManaged|AesManaged|Aes\s*\.\s*Create|CreateDecryptor|Decrypt|TransformFinalBlock)\b/i;
/** Decoding around Execute/Eval's argument. */
const decodingCall = /\b(?:FromBase64String|Decode\w*|Decrypt\w*|UnEscape|StrReverse|GetString)\s*\(/i;
/** ASP.NET server controls: their `.Text` is what the user typed. */
const serverControls = /<asp:(?:TextBox|HiddenField)\b|<input\b[^>]{0,200}\brunat\s*=\s*["']?server/i;
const controlValue = /\b\w+\s*\.\s*(?:Text|Value)\b/i;
/** eval as a value (stored, passed), not called: `var f = {'E': eval}`. */
const evalAsValue = /[:=,([]\s*eval\s*[,;})\]]/i;
const fileManager = [/\bScripting\.FileSystemObject\b|\bSystem\.IO\.File\b|\bFile\s*\.\s*(?:WriteAll|Delete|Copy|Move)|\bDirectory\s*\.\s*GetFiles/i, /\.\s*(?:CreateTextFile|OpenTextFile|DeleteFile|SaveToFile|WriteAllBytes|WriteAllText|Delete|GetFiles)\s*\(?/i];


/** Chr(101) & Chr(118) ... spelled out, so a name or code built from characters reads as text. */
function spellChr(text: string): string {
  return text.replace(/\bChrW?\s*\(\s*(\d{1,5})\s*\)/gi, (whole, code: string) => {
    const c = String.fromCharCode(Number(code) & 0xffff);
    return c === '"' || c === '\r' || c === '\n' ? whole : `"${c}"`;
  });
}

export function analyseAsp(raw: string): Signal[] {
  const signals = analyseAspText(raw);
  // Escaped or pieced-together spellings (`"\x75nsa" + "fe"`, `Chr(101) & Chr(118) & ...`) are read
  // again as the interpreter sees them; what only that reading finds is placed back in the file.
  const spelled = spellChr(raw);
  if (spelled === raw && !needsNormalizing(raw)) return signals;
  const chrMap = spelled === raw ? undefined : chrOffsets(raw);
  const normalized = normalizeScript(spelled);
  const seen = new Set(signals.map((signal) => signal.reason));
  for (const signal of analyseAspText(normalized.text)) {
    if (seen.has(signal.reason)) continue;
    const at = normalized.rawOffset(signal.offset);
    signals.push({ ...signal, offset: chrMap ? chrMap(at) : at, length: Math.min(signal.length, 200) });
  }
  return signals;
}

/** Maps an offset in spellChr's output back to the raw text. */
function chrOffsets(raw: string): (index: number) => number {
  const marks: [number, number][] = []; // [offset in output, delta to add]
  let delta = 0;
  for (const match of raw.matchAll(/\bChrW?\s*\(\s*(\d{1,5})\s*\)/gi)) {
    const c = String.fromCharCode(Number(match[1]) & 0xffff);
    if (c === '"' || c === '\r' || c === '\n') continue;
    delta += match[0].length - 3;
    marks.push([match.index + match[0].length - delta, delta]);
  }
  return (index) => {
    let add = 0;
    for (const [at, d] of marks) { if (index >= at) add = d; else break; }
    return index + add;
  };
}

function analyseAspText(text: string): Signal[] {
  const signals: Signal[] = [];
  const controls = serverControls.test(text);
  const source = controls ? new RegExp(`${request.source}|${controlValue.source}`, 'i') : request;
  const input = firstMatch(text, source) !== null;
  const tainted = taintedNames(text, source);
  const fromInput = (argument: string): boolean => source.test(argument) || mentions(argument, tainted);

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
    const decoded = firstMatch(text, /\b(?:Execute(?:Global)?|Eval)\b\s*\(?\s*\w+\s*\(\s*["'][^"'\r\n]{20,}/i)
      ?? [...text.matchAll(/\b(?:Execute(?:Global)?|Eval)\b\s*\(?([^\r\n%]{0,300})/gi)].find((m) => decodingCall.test(m[1] ?? '')) ?? null;
    if (decoded) signals.push(signalAt(decoded as RegExpExecArray, 'asp_execute_decoded', strong));
    else {
      const dynamic = firstMatch(text, /\b(?:Execute(?:Global)?|Eval)\b\s*\(?\s*[A-Za-z_]\w*/i);
      if (dynamic && /\bChrW?\s*\(/i.test(text)) signals.push(signalAt(dynamic, 'asp_execute_decoded', medium + 1));
    }
  }
  // eval kept as a value and called through it later: the JScript shells' way around `eval(` matching.
  const alias = firstMatch(text, evalAsValue);
  if (alias && !signals.length) signals.push(signalAt(alias, 'asp_execute_request', input ? strong : medium + 1));
  // The Script Encoder (#@~^...^#~@) hides VBScript/JScript from readers; web shells are its users today.
  const encoded = firstMatch(text, /#@~\^[A-Za-z0-9+/]{6}==/);
  if (encoded) signals.push(signalAt(encoded, 'asp_encoded_script', medium + 1));
  const shell = firstMatch(text, shellObjects);
  if (shell) signals.push(signalAt(shell, 'asp_shell_object', input ? strong : medium + 1));
  const process = anyMatch(text, processStart);
  if (process) {
    // What the process is given: Start's and ProcessStartInfo's arguments, FileName and Arguments.
    const given = [...text.matchAll(/\b(?:Process\s*\.\s*Start|ProcessStartInfo)\s*\(([^;\r\n]{0,200})|\.\s*(?:Arguments|FileName)\s*=\s*([^;\r\n]{0,200})/gi)]
      .map((m) => (m[1] ?? m[2] ?? '').trim()).filter((arg) => arg !== '' && arg !== ')');
    const constant = given.length > 0 && given.every((arg) => /^(?:"[^"]*"\s*(?:[,&+]\s*"[^"]*"\s*)*)\)?$/.test(arg));
    if (given.some(fromInput) || (input && given.length === 0)) signals.push(signalAt(process, 'aspx_process_from_request', strong));
    else signals.push(signalAt(process, 'asp_command', constant ? weak : medium + 1));
  }
  const load = firstMatch(text, assemblyLoad);
  if (load && (input || firstMatch(text, fromBase64))) signals.push(signalAt(load, 'aspx_assembly_load', input && firstMatch(text, fromBase64) ? strong : medium + 1));
  else if (load && /\bSession\s*\[[^\]]{1,40}\]\s*=/i.test(text)) signals.push(signalAt(load, 'aspx_assembly_load', medium + 1));
  const files = fileManager.map((pattern) => firstMatch(text, pattern));
  if (files.every(Boolean) && input) signals.push(signalAt(files[0] as RegExpExecArray, 'asp_file_manager', medium + 1));
  signals.push(...aspAdminSignals(text, input, fromInput));
  return signals;
}
