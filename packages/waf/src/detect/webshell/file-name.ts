/**
 * Upload file names that make the web server execute the upload: a server-side script extension
 * (final, or hidden before an innocent one for Apache's multi-extension handling: shell.php.jpg),
 * the trailing-dot / space / ::$DATA / NUL / ";" tricks of Windows and IIS, and the per-directory
 * configuration files (.htaccess, .user.ini, web.config) that turn any extension into a script,
 * and names that replace configuration, credentials or kernel files (restricted-upload.ts).
 */
import type { DetectorHit } from '../../types.ts';
import { restrictedUpload } from './restricted-upload.ts';

const serverScript = new Set([
  'php', 'php2', 'php3', 'php4', 'php5', 'php6', 'php7', 'php8', 'pht', 'phtm', 'phtml', 'phar', 'pgif', 'inc',
  'jsp', 'jspx', 'jspf', 'jsw', 'jsv', 'jhtml', 'asp', 'aspx', 'asa', 'asax', 'ascx', 'ashx', 'asmx', 'cer', 'cshtml',
  'vbhtml', 'shtml', 'shtm', 'stm', 'cfm', 'cfml', 'cfc', 'cgi', 'war', 'xsp',
]);
/**
 * Scripts some servers run (CGI); legitimately shared on code sites, so suspicious only. `phpt` is
 * PHP's test-file format: PHP source in sections, no document or image is named so, and handler
 * patterns written as `\.php` without an end anchor run it.
 */
const maybeScript = new Set(['pl', 'py', 'rb', 'sh', 'bash', 'exe', 'dll', 'bat', 'cmd', 'ps1', 'vbs', 'hta', 'svg', 'phpt']);
const configFiles = new Set(['.htaccess', '.htpasswd', '.user.ini', 'web.config', 'php.ini']);

/**
 * `php907`, `phps`: PHP's handler patterns take any version digits after "php" (CRS 933110 reads
 * `php\d*`), and `.phps` is PHP source the server renders; no document or image is named so.
 */
function isServerScript(ext: string): boolean {
  return serverScript.has(ext) || ext === 'phps' || /^php\d{1,4}$/.test(ext);
}

export function judgeFileName(raw: string): DetectorHit | null {
  // Keep only the last path component: browsers send C:\fakepath\x, attackers send ../x.
  const base = raw.split(/[\\/]/).pop() ?? raw;
  const name = base.toLowerCase();
  if (configFiles.has(name.trim())) return hit('webshell.config_file_upload', base, 2);
  // A script name (settings.php) is judged as a script below, at its own severity.
  const restricted = restrictedUpload(base);
  if (restricted?.severity === 2) return hit('webshell.restricted_file_upload', base, 2);
  const cut = firstCut(name);
  const visible = (cut >= 0 ? name.slice(0, cut) : name).replace(/[.\s]+$/, '');
  // Windows drops spaces around the dot too ("shell. php" is saved as "shell.php").
  const parts = visible.split('.').map((p) => p.trim());
  if (parts.length < 2) return restricted ? hit('webshell.restricted_file_upload', base, 1) : null;
  const last = parts[parts.length - 1]!;
  if (isServerScript(last)) {
    const trick = cut >= 0 || visible !== (cut >= 0 ? name.slice(0, cut) : name);
    return hit(trick ? 'webshell.extension_trick' : 'webshell.script_upload', base, 2);
  }
  for (let i = 1; i < parts.length - 1; i++) {
    if (isServerScript(parts[i]!)) return hit('webshell.double_extension', base, 2);
  }
  if (maybeScript.has(last) || restricted) return hit(restricted ? 'webshell.restricted_file_upload' : 'webshell.script_upload', base, 1);
  return null;
}

/** Where the name stops counting for the server: NUL (C strings), %00, NTFS ::$DATA, IIS ';'. */
function firstCut(name: string): number {
  const cuts = [name.indexOf('\u0000'), name.indexOf('%00'), name.indexOf('::$data'), name.indexOf(';')].filter((i) => i >= 0);
  return cuts.length ? Math.min(...cuts) : -1;
}

function hit(rule: string, evidence: string, severity: 1 | 2): DetectorHit {
  return { kind: 'webshell_upload', rule, evidence: evidence.slice(0, 120), severity };
}
