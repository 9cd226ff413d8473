import {
  entryBounds,
  exactPrefix,
  formatAddress,
  guardMaxNetAllow,
  guardMaxNetAllowPerRule,
  guardMaxNetRules,
  guardNetBits,
  mergeRanges,
  parseAddressEntry,
  type AddressRange,
  type GuardNetExe,
  type GuardNetPlan,
  type GuardNetRule,
  type RuleState,
} from '@rampart/contracts';
import type { ResolvedExe } from './plan.ts';

/*
 * The pure planner of the plan's net part: process rules (by executable pattern) that deny TCP
 * and/or UDP except to allowed peers → the rules and executables the helper's cgroup programs read.
 *
 * - Rules are ordered by id; a rule's index in `rules` is what executables name. At most
 *   guardMaxNetRules enabled rules that deny something are planned; the rest are `not_enforced`.
 * - Allowed peers are address entries (host, CIDR, range a-b, `*`); areas must be expanded to
 *   entries by the caller (the geo-IP package) before planning. Entries are merged per family and
 *   written as the fewest CIDR blocks. `*` allows every peer: the rule denies nothing.
 * - Rampart's own executables (node running the agent, the helper) are never restricted, whatever
 *   a pattern such as `*` matched.
 */

/** The minimal process rule the planner needs (the /process module's store keeps more). */
export interface GuardProcessRule {
  id: number;
  enabled: boolean;
  /** Executable path, exact or with `*` at either end (as tamper rules' `process`). */
  process: string;
  deny_tcp: boolean;
  deny_udp: boolean;
  /** Peers still allowed: addresses, CIDRs, ranges, `*` (areas already expanded). */
  allow: readonly string[];
}

export interface NetPlanInput {
  rules: readonly GuardProcessRule[];
  /** Process pattern → the executables it matched (resolveExecutables). */
  exes: Readonly<Record<string, readonly ResolvedExe[]>>;
  /** Rampart's own executables: never restricted. */
  selfExes: readonly ResolvedExe[];
  /** Whether the helper's network programs run (hello `net`); false: every rule is not_enforced. */
  netRunning: boolean;
}

export interface NetPlanResult {
  net: GuardNetPlan;
  /** Locale keys under `guard_warning.`, each once. */
  warnings: string[];
  ruleStates: Record<number, RuleState>;
}

const inodeKey = (e: { dev: number; ino: number }) => `${e.dev}:${e.ino}`;

/** The fewest CIDR blocks covering a range exactly (largest aligned block at each step). */
export function rangeToCidrs(range: AddressRange, family: 4 | 6): string[] {
  const width = family === 4 ? 32 : 128;
  const out: string[] = [];
  let start = range.start;
  while (start <= range.end) {
    let size = start === 0n ? 1n << BigInt(width) : start & -start; // the alignment of start
    while (start + size - 1n > range.end) size >>= 1n;
    const prefix = exactPrefix({ start, end: start + size - 1n }, family) ?? width;
    out.push(`${formatAddress(start, family)}/${prefix}`);
    start += size;
  }
  return out;
}

/** Entries → canonical CIDRs (IPv4 first, each family ascending), or `any` for `*`; bad entries counted. */
function allowCidrs(entries: readonly string[]): { cidrs: string[]; any: boolean; bad: number } {
  const byFamily: Record<4 | 6, AddressRange[]> = { 4: [], 6: [] };
  let bad = 0;
  let any = false;
  for (const raw of entries) {
    const entry = parseAddressEntry(raw);
    if (!entry) {
      bad += 1;
      continue;
    }
    if (entry.kind === 'any') {
      any = true;
      continue;
    }
    const bounds = entryBounds(entry);
    if (bounds) byFamily[bounds.family].push({ start: bounds.start, end: bounds.end });
  }
  const cidrs = ([4, 6] as const).flatMap((family) => mergeRanges(byFamily[family]).flatMap((range) => rangeToCidrs(range, family)));
  return { cidrs, any, bad };
}

export function planNet(input: NetPlanInput): NetPlanResult {
  const warnings = new Set<string>();
  const ruleStates: Record<number, RuleState> = {};
  const rules: GuardNetRule[] = [];
  const exes = new Map<string, GuardNetExe>();
  const self = new Set(input.selfExes.map(inodeKey));
  let totalAllow = 0;

  for (const rule of [...input.rules].sort((a, b) => a.id - b.id)) {
    if (!rule.enabled) {
      ruleStates[rule.id] = 'off';
      continue;
    }
    const deny = (rule.deny_tcp ? guardNetBits.tcp4 | guardNetBits.tcp6 : 0) | (rule.deny_udp ? guardNetBits.udp4 | guardNetBits.udp6 : 0);
    const { cidrs, any, bad } = allowCidrs(rule.allow);
    if (bad > 0) warnings.add('net_bad_peer');
    if (deny === 0 || any) {
      ruleStates[rule.id] = 'not_enforced'; // denies nothing
      continue;
    }
    if (!input.netRunning) {
      warnings.add('net_not_running');
      ruleStates[rule.id] = 'not_enforced';
      continue;
    }
    if (rules.length >= guardMaxNetRules) {
      warnings.add('net_too_many_rules');
      ruleStates[rule.id] = 'not_enforced';
      continue;
    }
    const matched = (input.exes[rule.process] ?? []).filter((exe) => {
      if (!self.has(inodeKey(exe))) return true;
      warnings.add('net_self_exempt');
      return false;
    });
    if (matched.length === 0) {
      ruleStates[rule.id] = 'path_missing'; // no executable matches the pattern (yet)
      continue;
    }
    // Cutting an allow list would deny peers the administrator allowed: such a rule is partial.
    const room = Math.min(guardMaxNetAllowPerRule, guardMaxNetAllow - totalAllow);
    const allow = cidrs.slice(0, Math.max(0, room));
    if (allow.length < cidrs.length) warnings.add('net_allow_capped');
    totalAllow += allow.length;
    const index = rules.length;
    rules.push({ rule: `process:${rule.id}`, deny, allow });
    for (const exe of matched) {
      const key = inodeKey(exe);
      const known = exes.get(key);
      if (known) {
        if (!known.rules.includes(index)) known.rules.push(index);
      } else {
        exes.set(key, { dev: exe.dev, ino: exe.ino, path: exe.path, rules: [index] });
      }
    }
    ruleStates[rule.id] = allow.length < cidrs.length ? 'partial' : 'active';
  }

  const sortedExes = [...exes.values()].sort((a, b) => a.dev - b.dev || a.ino - b.ino);
  return { net: { rules, exes: sortedExes }, warnings: [...warnings], ruleStates };
}
