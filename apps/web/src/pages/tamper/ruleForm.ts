import { tamperRuleInputSchema, type Language, type TamperOp, type TamperRule, type TamperRuleInput } from '@rampart/contracts';
import type { FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { schemaErrors } from '../firewall/forms.ts';

/** A tamper rule being edited in the two-step form; the level stays empty while the user types. */
export interface TamperRuleDraft {
  path: string;
  sub_path: string;
  process: string;
  level: number | null;
  ops: TamperOp[];
  exempt: string[];
  notify: boolean;
  enabled: boolean;
  remark: string;
}

/** The fields of step 1 (what and who); everything else is step 2 (which operations, advanced, notify, remark). */
export const targetFields = ['path', 'sub_path', 'process', 'level'] as const;

/** A new rule guards a tree against changes by every process; the user still chooses path and level. */
export function newTamperDraft(): TamperRuleDraft {
  return { path: '', sub_path: '*', process: '*', level: null, ops: ['w', 'c', 'd', 'n'], exempt: [], notify: true, enabled: true, remark: '' };
}

export function tamperDraftOf(rule: TamperRule): TamperRuleDraft {
  return {
    path: rule.path, sub_path: rule.sub_path, process: rule.process, level: rule.level, ops: [...rule.ops],
    exempt: [...rule.exempt], notify: rule.notify, enabled: rule.enabled, remark: rule.remark,
  };
}

/** The rule to send, checked with the schema the server uses; messages by field in `lang`. */
export function checkTamperRule(draft: TamperRuleDraft, lang: Language): { rule: TamperRuleInput } | { errors: FieldErrors } {
  const parsed = tamperRuleInputSchema.safeParse({ ...draft, sub_path: draft.sub_path.trim() === '' ? '*' : draft.sub_path });
  return parsed.success ? { rule: parsed.data } : { errors: schemaErrors(parsed.error.issues, lang) };
}

/** Whether an error belongs to step 1 (so the form goes back there to show it). */
export function isTargetError(field: string): boolean {
  return (targetFields as readonly string[]).includes(field.split('.')[0] ?? '');
}

/** Only the errors of step 1: "Next" checks these and leaves step 2's for later. */
export function targetErrors(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).filter(([field]) => isTargetError(field)));
}

/** A server field (`rules.0.path`, `rule.path`) as the form's field (`path`). */
export function formField(serverField: string): string {
  return serverField.replace(/^rules\.\d+\./, '').replace(/^rule\./, '');
}
