import { processRuleInputSchema, type Language, type ProcessAction, type ProcessRule, type ProcessRuleInput, type TamperOp } from '@rampart/contracts';
import type { FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { schemaErrors } from '../firewall/forms.ts';

/** A file access rule being edited; the level stays empty while the user types. */
export interface FileRuleDraft {
  path: string;
  ops: TamperOp[];
  level: number | null;
  action: ProcessAction;
}

/** A process rule being edited in the three-step form (basic, network, file access). */
export interface ProcessRuleDraft {
  process: string;
  deny_start: boolean;
  whitelist: string[];
  deny_tcp: boolean;
  deny_udp: boolean;
  allow_ips: string[];
  allow_areas: string[];
  files: FileRuleDraft[];
  notify: boolean;
  enabled: boolean;
  remark: string;
}

/** The fields of each step: errors bring the form back to the step that shows them. */
export const stepFields: readonly (readonly string[])[] = [
  ['process', 'deny_start', 'whitelist', 'notify', 'enabled', 'remark'],
  ['deny_tcp', 'deny_udp', 'allow_ips', 'allow_areas'],
  ['files'],
];

export function newProcessDraft(): ProcessRuleDraft {
  return { process: '', deny_start: true, whitelist: [], deny_tcp: false, deny_udp: false, allow_ips: [], allow_areas: [], files: [], notify: true, enabled: true, remark: '' };
}

export function newFileDraft(): FileRuleDraft {
  return { path: '', ops: ['w', 'd', 'n'], level: null, action: 'deny' };
}

export function processDraftOf(rule: ProcessRule): ProcessRuleDraft {
  return {
    process: rule.process, deny_start: rule.deny_start, whitelist: [...rule.whitelist], deny_tcp: rule.deny_tcp, deny_udp: rule.deny_udp,
    allow_ips: [...rule.allow_ips], allow_areas: [...rule.allow_areas], files: rule.files.map((f) => ({ ...f, ops: [...f.ops] })),
    notify: rule.notify, enabled: rule.enabled, remark: rule.remark,
  };
}

/** The step (0-2) an error field belongs to; a rule-wide error (empty field) is step 0. */
export function stepOf(field: string): number {
  const head = field.split('.')[0] ?? '';
  const index = stepFields.findIndex((fields) => fields.includes(head));
  return index < 0 ? 0 : index;
}

/** The rule to send, checked with the schema the server uses; messages by field in `lang`. */
export function checkProcessRule(draft: ProcessRuleDraft, lang: Language): { rule: ProcessRuleInput } | { errors: FieldErrors } {
  const parsed = processRuleInputSchema.safeParse(draft);
  if (parsed.success) return { rule: parsed.data };
  // A rule-wide refusal (nothing restricted) has no field: it is shown under the process.
  const errors = Object.fromEntries(Object.entries(schemaErrors(parsed.error.issues, lang)).map(([field, message]) => [formField(field), message]));
  const { '': whole, ...rest } = errors;
  return { errors: whole ? { ...rest, process: rest.process ?? whole } : rest };
}

/**
 * The errors of steps up to `step`, for "Next". Whether the rule restricts anything at all is
 * asked on save only (the user may choose the network or a file rule in a later step).
 */
export function stepErrors(draft: ProcessRuleDraft, step: number, lang: Language): FieldErrors {
  const checked = checkProcessRule({ ...draft, deny_start: true }, lang);
  if (!('errors' in checked)) return {};
  return Object.fromEntries(Object.entries(checked.errors).filter(([field]) => stepOf(field) <= step));
}

/** A server or schema field as the form's field: `rule.files.0.path` → `files.0.path`; an item of a tag list → the list (`allow_ips.2` → `allow_ips`). */
export function formField(serverField: string): string {
  return serverField.replace(/^rule\./, '').replace(/^(allow_ips|allow_areas|whitelist)\.\d+$/, '$1');
}
