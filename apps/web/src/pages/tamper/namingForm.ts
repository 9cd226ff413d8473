import { namingRuleInputSchema, type Language, type NamingRule, type NamingRuleInput } from '@rampart/contracts';
import type { FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { schemaErrors } from '../firewall/forms.ts';

/** A naming rule being edited: name lists as the tags input holds them. */
export interface NamingDraft {
  dir: string;
  deny_dirs: string[];
  deny_files: string[];
  deny_malformed: boolean;
  notify: boolean;
  enabled: boolean;
  remark: string;
}

export function newNamingDraft(): NamingDraft {
  return { dir: '', deny_dirs: [], deny_files: [], deny_malformed: true, notify: true, enabled: true, remark: '' };
}

export function namingDraftOf(rule: NamingRule): NamingDraft {
  return {
    dir: rule.dir, deny_dirs: [...rule.deny_dirs], deny_files: [...rule.deny_files],
    deny_malformed: rule.deny_malformed, notify: rule.notify, enabled: rule.enabled, remark: rule.remark,
  };
}

/**
 * The rule to send, checked with the server's schema. A bad name in a list is reported on the list
 * (`deny_files`), naming the entry, so the tags input shows it.
 */
export function checkNamingRule(draft: NamingDraft, lang: Language, describe: NameDescriber): { rule: NamingRuleInput } | { errors: FieldErrors } {
  const parsed = namingRuleInputSchema.safeParse(draft);
  if (parsed.success) return { rule: parsed.data };
  return { errors: foldNameErrors(schemaErrors(parsed.error.issues, lang), draft, describe) };
}

/** How a message about one name reads, in the page's language ("*.p/p: invalid name"). */
export type NameDescriber = (name: string, message: string) => string;

/** `deny_files.2` → `deny_files` with the bad name in front of the message. */
export function foldNameErrors(errors: FieldErrors, draft: Pick<NamingDraft, 'deny_dirs' | 'deny_files'>, describe: NameDescriber): FieldErrors {
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) {
    const match = /^(deny_dirs|deny_files)\.(\d+)$/.exec(key);
    if (!match) {
      if (!(key in out)) out[key] = message;
      continue;
    }
    const field = match[1] as 'deny_dirs' | 'deny_files';
    const name = draft[field][Number(match[2])];
    if (!(field in out)) out[field] = name === undefined ? message : describe(name, message);
  }
  return out;
}
