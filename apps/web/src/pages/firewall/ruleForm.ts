import {
  firewallRuleInputSchema, parseAddressEntry, parsePortList, translate,
  type FirewallDirection, type FirewallProtocol, type FirewallRule, type FirewallRuleInput, type FirewallVerdict, type Language,
} from '@rampart/contracts';
import type { FieldErrors } from '../../components/forms/fieldErrors.tsx';
import { entryLines, foldLineErrors, schemaErrors, type EntryLine } from './forms.ts';

/** A rule being edited: addresses as the text box holds them, the priority empty while the user types. */
export interface RuleDraft {
  protocol: FirewallProtocol;
  ports: string;
  ips: string;
  areas: string[];
  action: FirewallVerdict;
  priority: number | null;
  enabled: boolean;
  remark: string;
}

/** Most addresses one rule takes (the schema's limit), for its message. */
export const maxRuleAddresses = 1000;

/** ICMP and "all" have no ports: the field is disabled and the rule is sent with `*`. */
export function takesPorts(protocol: FirewallProtocol): boolean {
  return protocol !== 'icmp' && protocol !== 'all';
}

/**
 * A new rule starts valid where it can: priority 50, the middle of 1-99 (1 highest), so a rule can be
 * placed before or after it without renumbering. Ports and sources have no safe default.
 */
export const defaultRulePriority = 50;

export function newRuleDraft(): RuleDraft {
  return { protocol: 'tcp', ports: '', ips: '', areas: [], action: 'allow', priority: defaultRulePriority, enabled: true, remark: '' };
}

export function draftOf(rule: FirewallRule): RuleDraft {
  return {
    protocol: rule.protocol,
    ports: takesPorts(rule.protocol) ? rule.ports : '',
    ips: rule.ips.join('\n'),
    areas: [...rule.areas],
    action: rule.action,
    priority: rule.priority,
    enabled: rule.enabled,
    remark: rule.remark,
  };
}

/** The address lines of a draft, in the order they are sent. */
export function ruleLines(draft: RuleDraft): EntryLine[] {
  return entryLines(draft.ips);
}

/**
 * The rule to send, checked with the schema the server uses. Messages are by field; a bad address
 * is reported on the address box with its line (`describeLine`).
 */
export function checkRule(
  draft: RuleDraft,
  direction: FirewallDirection,
  lang: Language,
  describeLine: (entry: EntryLine, message: string) => string,
): { rule: FirewallRuleInput } | { errors: FieldErrors } {
  const lines = ruleLines(draft);
  const parsed = firewallRuleInputSchema.safeParse({
    direction,
    protocol: draft.protocol,
    ports: takesPorts(draft.protocol) ? draft.ports : '*',
    ips: lines.map((l) => l.text),
    areas: draft.areas,
    action: draft.action,
    priority: draft.priority,
    enabled: draft.enabled,
    remark: draft.remark,
  });
  if (parsed.success) return { rule: parsed.data };
  let errors = schemaErrors(parsed.error.issues, lang, { max: maxRuleAddresses });
  // The schema checks for a source only once every field is valid; say it together with the other messages.
  if (lines.length === 0 && draft.areas.length === 0 && !('ips' in errors)) errors = { ...errors, ips: translate(lang, 'fw_source_required') };
  return { errors: foldLineErrors(foldLineErrors(errors, 'areas', [], (_e, m) => m), 'ips', lines, describeLine) };
}

function coversAllPorts(ports: string): boolean {
  const list = parsePortList(ports);
  if (list === 'any') return true;
  if (!list) return false;
  let next = 1;
  for (const [from, to] of [...list].sort((a, b) => a[0] - b[0])) {
    if (from > next) return false;
    next = Math.max(next, to + 1);
  }
  return next > 65535;
}

/**
 * An inbound deny rule for every source on every port: it would cut the server off, this panel included.
 * ICMP rules have no ports and cannot reach the panel, so they do not count.
 */
export function deniesEverything(draft: RuleDraft, direction: FirewallDirection): boolean {
  if (direction !== 'in' || draft.action !== 'deny' || draft.protocol === 'icmp') return false;
  const everySource = ruleLines(draft).some(({ text }) => {
    const entry = parseAddressEntry(text);
    return entry?.kind === 'any' || (entry?.kind === 'cidr' && entry.prefix === 0);
  });
  return everySource && (!takesPorts(draft.protocol) || coversAllPorts(draft.ports));
}
