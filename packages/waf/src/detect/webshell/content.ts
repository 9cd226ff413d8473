/**
 * Uploaded content that is a web shell: server-side code (PHP, JSP, ASP/ASPX) that runs what the
 * request sends. Code alone is not enough (developers upload source files to forges and
 * trackers): it takes an execution sink fed by request input, or the obfuscation chains shells use
 * (eval(base64_decode(…)), preg_replace with /e, dynamic calls $_GET['f']($_GET['a'])).
 */
import type { DetectorHit } from '../../types.ts';
import { scannedPart } from '../scan-limit.ts';

const phpInput = /\$_(?:get|post|request|cookie|server|files)\b|php:\/\/input|getallheaders\s*\(/;
const phpSink = /\b(?:eval|assert|system|exec|passthru|shell_exec|popen|proc_open|pcntl_exec|create_function|call_user_func(?:_array)?|include|require(?:_once)?|array_map|usort|array_filter|ob_start)\s*\(|`[^`]*\$_/;
const phpObfuscation = /\b(?:eval|assert)\s*\(\s*(?:@?\s*)?(?:base64_decode|gzinflate|gzuncompress|gzdecode|str_rot13|strrev|hex2bin|pack|\$_)|preg_replace\s*\(\s*(['"])([^'"\\]|\\.)*?\/[a-z]*e[a-z]*\1|\$_(?:get|post|request|cookie)\s*\[[^\]]{1,40}\]\s*\(/;
const jspCode = /<%|<jsp:|javax\.servlet|java\.io\./;
const jspSink = /runtime\s*\.\s*getruntime\s*\(\s*\)\s*\.\s*exec\s*\(|new\s+processbuilder\s*\(|scriptenginemanager|defineclass\s*\(/;
const jspInput = /request\s*\.\s*get(?:parameter|header|inputstream|reader)\s*\(/;
const aspCode = /<%|<script[^>]+runat\s*=\s*["']?server/;
const aspSink = /process\s*\.\s*start\s*\(|wscript\.shell|\beval\s*\(\s*request|\bexecute(?:global)?\s*\(?\s*request|processstartinfo|system\.reflection\.assembly\s*\.\s*load|\.exec\s*\(/;
const aspInput = /\brequest\s*(?:\.\s*(?:item|form|querystring|params|inputstream)|\(|\[)/;

export function judgeContent(content: string): DetectorHit | null {
  const text = scannedPart(content);
  const lower = text.toLowerCase();
  if (lower.includes('<?') || lower.includes('<script language="php"')) {
    const obf = phpObfuscation.exec(lower);
    if (obf) return hit('webshell.php_obfuscated_exec', text, obf.index, 2);
    const sink = phpSink.exec(lower);
    if (sink && phpInput.test(lower)) return hit('webshell.php_input_exec', text, sink.index, 2);
  }
  if (jspCode.test(lower)) {
    const sink = jspSink.exec(lower);
    if (sink) return hit('webshell.jsp_exec', text, sink.index, jspInput.test(lower) ? 2 : 1);
  }
  if (aspCode.test(lower)) {
    const sink = aspSink.exec(lower);
    if (sink) return hit('webshell.asp_exec', text, sink.index, aspInput.test(lower) || /page\s+language\s*=/.test(lower) ? 2 : 1);
  }
  return null;
}

function hit(rule: string, text: string, at: number, severity: 1 | 2): DetectorHit {
  return { kind: 'webshell_upload', rule, evidence: text.slice(at, at + 120), severity };
}
