/**
 * Argument injection (CWE-88): a value an application passes as one argument of a tool, written as
 * the tool's own option that runs a command. No shell character is needed: `zip` runs `-TT=cmd` to
 * test its archive, `tar` runs `--checkpoint-action=exec=cmd` and `--to-command=cmd`, `ssh`/`scp`
 * run `-oProxyCommand=cmd`, `git` runs `--upload-pack=cmd`. Read as options: the value starts with `-` (an argument list the attacker opens), or the
 * option follows a blank as the next word of one. Grammar of the options, not of any one payload:
 * short flags may be grouped before zip's `TT` (`-TvTT=id`).
 */
import type { DetectorHit } from '../../types.ts';

/** Options whose value is a command the tool runs. */
const commandOption =
  /(?:^|\s)(?:-[A-Za-z]*TT=|--unzip-command[= ]|--checkpoint-action[= ]exec|--to-command[= ]|--use-compress-program[= ]|--rsh-command[= ]|--info-script[= ]|--new-volume-script[= ]|-o\s*ProxyCommand[= ]|--upload-pack[= ]|--receive-pack[= ]|--exec[= ])/;

export function detectArgumentInjection(value: string): DetectorHit | null {
  if (!value.includes('-') || value.length > 4096) return null;
  const m = commandOption.exec(value);
  if (!m) return null;
  // Starting the value with an option is what opens the argument list; in the middle of a sentence
  // ("zip's -TT=cmd option"), it is talk about the tool: suspicious only.
  const severity = /^\s*-/.test(value) ? 2 : 1;
  const at = m.index + (m[0].startsWith(' ') || m[0].startsWith('\t') ? 1 : 0);
  return { kind: 'cmdi', rule: 'cmdi.argument_injection', evidence: value.slice(at, at + 120), severity };
}
