/**
 * The LD_PRELOAD escape from `disable_functions`: the page sets LD_PRELOAD to a library it dropped
 * and then calls something that starts a process (mail() runs sendmail, error_log() and
 * mb_send_mail() too), so the library's constructor runs any command. No application sets the
 * dynamic loader's preload list from PHP.
 */
import type { Signal } from '../../signals.ts';
import { strong } from '../../signals.ts';

/** `putenv('LD_PRELOAD=...')`, or an environment array given to proc_open (`'LD_PRELOAD' => ...`). */
const preload = /\bputenv\s*\(\s*["']LD_PRELOAD=|["']LD_PRELOAD["']\s*=>/i;
const spawns = /\b(?:mail|mb_send_mail|error_log|imap_mail|proc_open|popen|exec|system|passthru|shell_exec)\s*\(/i;

export function ldPreloadSignal(text: string): Signal[] {
  const match = preload.exec(text);
  if (!match || !spawns.test(text)) return [];
  return [{ reason: 'ld_preload_bypass', weight: strong, offset: match.index, length: match[0].length }];
}
