/**
 * Code-execution calls of interpreted languages (PHP, Python, Node, Java, ASP/VBScript) in a
 * value: a scanner finds `identifier(` shapes (spaces allowed before the parenthesis, as PHP
 * and JS allow) and `module.function(` chains, then weighs what is called and with what.
 */
import type { DetectorHit } from '../../types.ts';

/** Calls that run a command or code whatever their argument: clear attacks in a parameter. */
const alwaysDangerous = new Set([
  'shell_exec', 'passthru', 'proc_open', 'pcntl_exec', 'popen', 'os.system', 'os.popen', 'os.exec', 'os.execv',
  'os.spawn', 'subprocess.popen', 'subprocess.call', 'subprocess.run', 'subprocess.check_output',
  'child_process.exec', 'child_process.spawn', 'child_process.execsync', 'runtime.getruntime',
  'process.start', 'create_function', 'call_user_func', 'call_user_func_array', 'assert_options',
]);
/** Calls that are dangerous when their argument is input, a command or decoded data. */
const argumentDependent = new Set(['system', 'exec', 'eval', 'assert', 'execute', 'executeglobal', 'spawn', 'execsync']);
/** Argument shapes that turn an argumentDependent call into a clear attack. */
const dangerousArgument =
  /^\s*(?:\$_(?:get|post|request|cookie|server|files)|request[.([]|base64_decode|gzinflate|str_rot13|atob|buffer\.from|['"`]\s*(?:\/bin\/|cat |ls|id|whoami|uname|wget|curl|nc |bash|sh |cmd|powershell|ping|rm |echo|dir|type|net |require|import|__import__))/i;

export function detectCodeExec(value: string): DetectorHit | null {
  const lower = value.toLowerCase();
  if (lower.includes('!!python/object')) return hit('cmdi.yaml_python_object', value, lower.indexOf('!!python/object'), 2);
  const imp = lower.indexOf('__import__');
  if (imp >= 0 && /__import__\s*\(\s*['"](?:os|subprocess|pty|socket|commands)['"]/.test(lower.slice(imp, imp + 60))) {
    return hit('cmdi.python_import', value, imp, 2);
  }
  const cp = lower.indexOf('child_process');
  if (cp >= 0 && /require\s*\(\s*['"`]child_process|process\.mainmodule|child_process['"`]?\s*\)?\s*\.\s*(?:exec|spawn)/.test(lower.slice(Math.max(0, cp - 40), cp + 40))) {
    return hit('cmdi.node_child_process', value, cp, 2);
  }
  // PHP code in a parameter: an open tag followed by a statement. Applications never take PHP
  // source in a form value except in posts, which the caller treats as documents.
  const tag = lower.indexOf('<?');
  if (tag >= 0 && /^<\?(?:php\b|=|\s)\s*[^\s]/.test(lower.slice(tag, tag + 16))) {
    const code = lower.slice(tag, tag + 200);
    if (/[;($`]|\becho\b|\bprint\b/.test(code.slice(2))) return hit('cmdi.php_code', value, tag, 2);
  }
  // Groovy runs a command from a string or a list: `"id".execute()`, `["sh","-c","id"].execute()`
  // (Jenkins' and Grails' script consoles evaluate what the query holds).
  const groovy = /(?:(["'])[^"'\n]{1,200}\1|\])\s*\.\s*execute\s*\(\s*\)/.exec(lower);
  if (groovy) return hit('cmdi.groovy_execute', value, groovy.index, 2);
  // PHP superglobals indexed in a value: $_SERVER['x'], $GLOBALS['y'] are code, not data.
  const superglobal = /\$(?:_(?:get|post|request|cookie|server|files|env|session)|globals)\s*\[/.exec(lower);
  if (superglobal) return hit('cmdi.php_superglobal', value, superglobal.index, 2);
  // PHP complex-syntax call ${@print(...)} / {${system(...)}}: only code ever looks like that.
  const complex = lower.indexOf('${@');
  if (complex >= 0 && /^\$\{@?[a-z_]+\s*\(/.test(lower.slice(complex, complex + 40))) return hit('cmdi.php_complex_call', value, complex, 2);
  // Classic ASP one-liners (China Chopper and kin): VBScript's error suppression plus its statements
  // glued with ':' in one value. Prose does not write "On Error Resume Next:".
  const vb = lower.indexOf('on error resume next');
  if (vb >= 0 && /server\.scripttimeout|:\s*function\s|createobject\s*\(|execute\s*\(|on error resume next\s*:/.test(lower)) {
    return hit('cmdi.vbscript_code', value, vb, 2);
  }
  // VBScript builds its calls from pieces: "Ex"&"e"&"cute(" — undo the concatenation first.
  const joined = lower.includes('"&"') || lower.includes('" & "') ? lower.replace(/"\s*&\s*"/g, '') : lower;
  return scanCalls(joined, value, joined !== lower);
}

/** `concatenated`: the call name was assembled from string pieces, which only evasion does. */
function scanCalls(lower: string, original: string, concatenated: boolean): DetectorHit | null {
  let from = 0;
  for (;;) {
    const paren = lower.indexOf('(', from);
    if (paren < 0) return null;
    from = paren + 1;
    let end = paren;
    while (end > 0 && (lower[end - 1] === ' ' || lower[end - 1] === '\t')) end--;
    let start = end;
    while (start > 0 && isCalleeCode(lower.charCodeAt(start - 1))) start--;
    if (start === end) continue;
    // (No array per parenthesis: `a(a(a(…` has 50,000 of them in 100 KB.)
    const callee = lower.slice(start, end);
    const dot = callee.lastIndexOf('.');
    const name = dot < 0 ? callee : callee.slice(dot + 1);
    // The last two dotted parts (`os.system` of `x.os.system`).
    const qualified = dot <= 0 ? callee : callee.slice(callee.lastIndexOf('.', dot - 1) + 1);
    if (alwaysDangerous.has(qualified) || alwaysDangerous.has(name)) {
      return hit('cmdi.code_exec_call', original, start, 2);
    }
    if (argumentDependent.has(name)) {
      const arg = lower.slice(paren + 1, paren + 60);
      if (/^\s*(?:\)|$)/.test(arg)) continue; // eval() / "exec (" with nothing: prose or docs
      // `at eval (app.js:12:3)`, `at eval (eval at run (x.js:1:5), <anonymous>:1:1)`: a frame of a
      // stack trace, which error reporters send with every event; the parentheses hold a place.
      if (/\bat\s+(?:new\s+)?$/.test(lower.slice(Math.max(0, start - 8), start)) && /^(?:[^\s()'"`]+:\d+(?::\d+)?\)|eval at |<anonymous>|native\))/.test(arg)) continue;
      if (concatenated) return hit('cmdi.concatenated_call', original, start, 2);
      // The whole value is the call (exec('x'), @eval($a)): an injected expression, not a mention.
      const wholeValue = /^[\s@('"]*$/.test(lower.slice(0, start));
      return hit('cmdi.code_exec_call', original, start, wholeValue || dangerousArgument.test(arg) ? 2 : 1);
    }
  }
}

/** [a-z0-9_.]: what a callee's name is written with (the value is lower-cased). */
function isCalleeCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 46;
}

function hit(rule: string, value: string, at: number, severity: 1 | 2): DetectorHit {
  return { kind: 'cmdi', rule, evidence: value.slice(Math.max(0, at - 10), at + 100).slice(0, 120), severity };
}
