/**
 * The web-shell toolkit: a page that takes request input, runs commands and also browses files,
 * reports the server's facts or dumps databases. The big shells route their command through
 * state the taint pass does not follow (objects, sessions, forms posted to themselves), but
 * their feature set gives them away. Only the combination counts: each feature alone is an
 * ordinary admin tool's.
 */
import type { Signal } from '../../signals.ts';

const input = /\$_(?:GET|POST|REQUEST|COOKIE)\b|\$HTTP_(?:GET|POST)_VARS/;
const command = /\b(?:system|passthru|shell_exec|exec|popen|proc_open)\s*\(/g;
const features: RegExp[] = [
  /\b(?:opendir|readdir|scandir|glob)\s*\(/, // file browser
  /\b(?:move_uploaded_file|copy)\s*\(\s*\$_FILES|\$HTTP_POST_FILES/, // uploader
  /\b(?:php_uname|posix_getpwuid|posix_getegid|getmyuid|disk_free_space|disk_total_space)\s*\(/, // server facts
  /\b(?:safe_mode|disable_functions|open_basedir)\b/, // checks for the sandbox it wants to escape
  /\b(?:unlink|rmdir|rename|chmod|touch)\s*\(\s*\$/, // file manager actions on chosen paths
  /\b(?:mysql_query|mysqli_query|pg_query|mssql_query)\s*\(/, // database client
  /\b(?:fsockopen|socket_create|stream_socket_client)\s*\(/, // network
];

export function toolkitSignal(text: string): Signal[] {
  if (!input.test(text)) return [];
  const run = command.exec(text);
  command.lastIndex = 0;
  if (!run) return [];
  const count = features.reduce((n, pattern) => n + (pattern.test(text) ? 1 : 0), 0);
  return count >= 4 ? [{ reason: 'shell_toolkit', weight: 6, offset: run.index, length: run[0].length }] : [];
}
