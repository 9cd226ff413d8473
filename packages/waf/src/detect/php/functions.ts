/**
 * PHP's functions by what a call to them in a request can do. `dangerous`: run commands or code,
 * decode hidden payloads, reach files, sockets and process information — the functions web shells
 * and injected expressions are made of. `builtin`: ordinary library functions; a request whose
 * whole value is a call to one is probing an eval (suspicious), not sending data.
 */

export const dangerousFunctions = new Set([
  // commands and code
  'system', 'exec', 'shell_exec', 'passthru', 'popen', 'proc_open', 'pcntl_exec', 'pcntl_fork', 'eval', 'assert', 'assert_options',
  'create_function', 'call_user_func', 'call_user_func_array', 'forward_static_call', 'forward_static_call_array',
  'func_get_args', 'register_shutdown_function', 'register_tick_function', 'array_map', 'array_filter', 'array_walk', 'usort',
  'uasort', 'uksort', 'preg_replace_callback', 'ob_start', 'iterator_apply', 'dl', 'mb_ereg_replace', 'mb_eregi_replace',
  'include', 'include_once', 'require', 'require_once', 'extract', 'parse_str', 'putenv', 'ini_set', 'ini_alter', 'ini_restore',
  'set_include_path', 'get_defined_functions', 'get_defined_vars', 'get_defined_constants', 'phpinfo', 'getenv', 'apache_setenv',
  'mail', 'imap_open', 'unserialize', 'serialize', 'var_dump', 'print_r', 'var_export', 'debug_zval_dump', 'highlight_file',
  'show_source', 'php_uname', 'phpversion', 'getmypid', 'getmyuid', 'get_current_user', 'sys_get_temp_dir',
  // hidden payloads
  'base64_decode', 'gzinflate', 'gzuncompress', 'gzdecode', 'bzdecompress', 'zlib_decode', 'str_rot13', 'convert_uudecode',
  'hex2bin', 'strrev', 'chr', 'ord', 'pack', 'unpack', 'urldecode', 'rawurldecode', 'hebrevc',
  // files
  'file', 'file_get_contents', 'file_put_contents', 'fopen', 'fwrite', 'fputs', 'fread', 'fgets', 'fpassthru', 'readfile',
  'unlink', 'rmdir', 'mkdir', 'rename', 'copy', 'chmod', 'chown', 'chgrp', 'touch', 'symlink', 'link', 'chroot', 'chdir',
  'tempnam', 'tmpfile', 'move_uploaded_file', 'opendir', 'readdir', 'scandir', 'glob', 'file_exists', 'is_writable',
  'is_readable', 'filegroup', 'fileowner', 'fileperms', 'fputcsv', 'parse_ini_file', 'posix_mkfifo', 'stream_get_contents',
  // network and process information
  'fsockopen', 'pfsockopen', 'stream_socket_client', 'stream_socket_server', 'socket_create', 'curl_init', 'curl_exec',
  'curl_multi_exec', 'posix_getpwuid', 'posix_getpwnam', 'posix_getegid', 'posix_geteuid', 'posix_getgid', 'posix_getuid',
  'posix_kill', 'posix_setuid', 'posix_uname', 'proc_nice', 'proc_terminate', 'proc_get_status',
]);

/** Ordinary functions seen in eval probes (`?x=substr()`, `/get/unpack()`). */
export const builtinFunctions = new Set([
  'substr', 'strlen', 'strtolower', 'strtoupper', 'str_replace', 'str_repeat', 'sprintf', 'printf', 'print', 'echo',
  'intval', 'floatval', 'strval', 'is_array', 'is_string', 'is_numeric', 'in_array', 'array_diff', 'array_merge', 'implode',
  'explode', 'count', 'sizeof', 'range', 'pi', 'crypt', 'md5', 'sha1', 'crc32', 'checkdate', 'date', 'date_add', 'time',
  'mktime', 'strtotime', 'strip_tags', 'htmlspecialchars', 'addslashes', 'stripslashes', 'trim', 'json_encode',
  'json_decode', 'rand', 'mt_rand', 'uniqid', 'var_export', 'sleep', 'usleep', 'die', 'exit', 'define', 'constant',
  'function_exists', 'class_exists', 'method_exists', 'get_class', 'gettype', 'settype', 'array_keys', 'array_values',
  'preg_match', 'preg_replace', 'preg_split', 'ucfirst', 'lcfirst', 'ucwords', 'nl2br', 'number_format', 'round', 'floor',
  'ceil', 'abs', 'max', 'min', 'array_pop', 'array_push', 'array_shift', 'array_slice', 'array_splice', 'serialize',
]);

/**
 * DNS look-ups, the way an evaluated payload calls out (`gethostbyname(`…`.attacker.example`). Read
 * as builtins, but only a whole-value call is a probe: "gethostbyname() returns 127.0.0.1" is a
 * question (C names it the same), and passes.
 */
export const dnsFunctions = new Set(['gethostbyname', 'gethostbynamel', 'gethostbyaddr', 'dns_get_record', 'checkdnsrr', 'getmxrr']);

/** PHP's words that look like calls but are not function names a payload could call. */
export const phpKeywords = new Set([
  'if', 'elseif', 'while', 'for', 'foreach', 'switch', 'catch', 'array', 'list', 'isset', 'empty', 'unset', 'function',
  'fn', 'match', 'return', 'new', 'and', 'or', 'not', 'use', 'declare',
]);
