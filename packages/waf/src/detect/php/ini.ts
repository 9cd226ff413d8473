/**
 * php.ini directives set from a request: PHP-CGI reads `-d name=value` from the query string
 * (CVE-2012-1823, CVE-2024-4577: `-d allow_url_include=1 -d auto_prepend_file=php://input`), and
 * .user.ini files or ini_set() probes carry `name=value` lines. The value must BE a directive
 * assignment (the whole value, or `-d` switches): "engine=V8" inside a sentence is not one.
 */
import type { DetectorHit } from '../../types.ts';

/** Directives that change what PHP executes or may reach: setting one is an attack. */
const sensitive = new Set([
  'allow_url_include', 'allow_url_fopen', 'auto_prepend_file', 'auto_append_file', 'disable_functions', 'disable_classes',
  'open_basedir', 'include_path', 'extension', 'extension_dir', 'zend_extension', 'sendmail_path', 'sendmail_from', 'error_log',
  'cgi.force_redirect', 'cgi.redirect_status_env', 'doc_root', 'user_dir', 'user_ini.filename', 'session.save_path',
  'session.save_handler', 'session.serialize_handler', 'session.upload_progress.enabled', 'register_globals', 'safe_mode',
  'enable_dl', 'file_uploads', 'upload_tmp_dir', 'phar.readonly', 'opcache.file_cache', 'opcache.preload', 'mail.log',
  'unserialize_callback_func', 'unserialize_max_depth', 'assert.active', 'assert.callback', 'auto_detect_line_endings',
  'short_open_tag', 'expose_php', 'engine', 'memory_limit', 'max_execution_time', 'display_errors', 'error_reporting',
  'log_errors', 'html_errors', 'precision', 'serialize_precision', 'smtp', 'smtp_port', 'variables_order', 'request_order',
  'post_max_size', 'upload_max_filesize', 'max_input_vars', 'default_charset', 'output_buffering', 'implicit_flush',
]);
/** Extension prefixes of dotted directives: `opcache.jit`, `mbstring.regex_retry_limit`. */
// (Only prefixes no application uses for its own settings: "session.", "date.", "filter." are left out.)
const extensionPrefixes = ['opcache.', 'mbstring.', 'zend.', 'pcre.', 'phar.', 'mysqli.', 'xdebug.', 'assert.', 'cgi.', 'ffi.'];
/** Directives whose name is an ordinary word: as a whole `name=value` they are only suspicious. */
const plainWords = new Set(['engine', 'precision', 'smtp', 'smtp_port', 'extension']);

export function judgeIniDirective(text: string): DetectorHit | null {
  if (text.length > 512 || text.length < 5) return null;
  const trimmed = text.trim();
  // PHP-CGI switches: "-d name=value", or "-d name" when `%3d` put the rest in a query name.
  const cgi = /^[-\u00ad]d[\s+]*([a-z_.0-9]+)\s*(?:=|$)/i.exec(trimmed);
  if (cgi && isDirective(cgi[1]!.toLowerCase())) return hit(trimmed, 2);
  if (trimmed.indexOf('=') <= 0) return null;
  const assignment = /^([a-z_][a-z_.0-9]{1,60})\s*=\s*("?)[^\s=;&"]{0,200}\2\s*$/i.exec(trimmed);
  if (!assignment) return null;
  const name = assignment[1]!.toLowerCase();
  if (!isDirective(name)) return null;
  // Dotted extension directives and the security-sensitive ones name PHP and nothing else.
  return hit(trimmed, plainWords.has(name) && name !== 'extension' ? 1 : 2);
}

function isDirective(name: string): boolean {
  return sensitive.has(name) || extensionPrefixes.some((p) => name.startsWith(p) && name.length > p.length);
}

function hit(text: string, severity: 1 | 2): DetectorHit {
  return { kind: 'cmdi', rule: 'php.ini_directive', evidence: text.slice(0, 120), severity };
}
