import type { AreaResolver, DesiredFirewall } from './desired-state.ts';
import { alwaysDeclaredChains, chains, tableName } from './layout.ts';
import { family, type NftCommand, type NftScript } from './nft-json.ts';
import { planAttackChain, planChainDeclarations, planInputChain, planOutputChain } from './plan-chains.ts';
import { activeRules, areaSets, planRule } from './plan-rules.ts';
import { planScanSets, planStateSets } from './plan-sets.ts';
import { planRemoteChain, remoteActive, remoteAreaSets } from './plan-remote.ts';

/* Desired state → nft JSON. Pure: the same input gives the same script (golden tests hold it). */

/** A set this plan declares that a later refresh replaces (area and port-scan sets), as declared. */
export interface SetDeclaration {
  family: string;
  table: string;
  name: string;
  type: string | string[];
  flags?: string[];
  timeout?: number;
  size?: number;
}

/** What a refresh must know of the plan before it: the sets it replaces. */
export interface PlanMemory {
  /** Area sets, as declared (re-declared before their delete, so it cannot fail). */
  areaSets: SetDeclaration[];
  /** Port-scan sets by name: kept when the window is unchanged, else deleted. */
  scanSets: string[];
  /** The remote chain exists (remote protection was on): a refresh flushes it, or deletes it when it is off now. */
  remoteChain?: true;
}

interface RulesPlan {
  commands: NftCommand[];
  memory: PlanMemory;
}

function declarationsIn(commands: readonly NftCommand[]): SetDeclaration[] {
  return commands.flatMap((command) => {
    const set = (command as { add?: { set?: SetDeclaration } }).add?.set;
    return set ? [set] : [];
  });
}

/** Chains, their rules and the area sets the rules use. */
function planRulesPart(desired: DesiredFirewall, areas: AreaResolver): RulesPlan {
  const commands: NftCommand[] = [];
  const ruleCommands: NftCommand[] = [];
  for (const direction of ['in', 'out'] as const) {
    const chain = direction === 'in' ? chains.rulesIn : chains.rulesOut;
    for (const rule of activeRules(desired.rules, direction)) {
      const sets = areaSets(rule, areas);
      for (const set of sets) commands.push(...set.commands);
      ruleCommands.push(...planRule(rule, chain, sets));
    }
  }
  const remote = desired.remote;
  if (remoteActive(remote)) {
    const sets = remoteAreaSets(remote, areas);
    commands.unshift({ add: { chain: { family, table: tableName, name: chains.remote } } }, ...sets.flatMap((set) => set.commands));
    ruleCommands.push(...planRemoteChain(remote, sets));
  }
  const scan = planScanSets(desired);
  const memory: PlanMemory = { areaSets: declarationsIn(commands), scanSets: declarationsIn(scan).map((set) => set.name), ...(remoteActive(remote) ? { remoteChain: true as const } : {}) };
  return { commands: [...commands, ...scan, ...planInputChain(desired), ...planOutputChain(), ...ruleCommands, ...(desired.portScan.enabled ? planAttackChain(desired) : [])], memory };
}

/**
 * The whole table, list contents included. `add` then `delete` then `add` makes the script
 * idempotent whether or not the table exists, and nft applies it as one transaction.
 */
export function planFullRuleset(desired: DesiredFirewall, areas: AreaResolver): { script: NftScript; memory: PlanMemory } {
  const table = { family, name: tableName };
  const rules = planRulesPart(desired, areas);
  const commands: NftCommand[] = [
    { add: { table } },
    { delete: { table } },
    { add: { table } },
    ...planStateSets(desired),
    ...planChainDeclarations(),
    ...rules.commands,
  ];
  return { script: { nftables: commands }, memory: rules.memory };
}

/**
 * After a change of rules or attack settings: rebuild the chains, area sets and port-scan sets,
 * but keep the list and interception sets (a million-entry blacklist is not re-sent).
 * Only valid when the table is as the last plan left it; otherwise apply the full ruleset.
 */
export function planRulesRefresh(
  desired: DesiredFirewall,
  areas: AreaResolver,
  previous: PlanMemory,
): { script: NftScript; memory: PlanMemory } {
  const set = (name: string) => ({ family, table: tableName, name });
  const commands: NftCommand[] = [];
  for (const name of alwaysDeclaredChains) commands.push({ flush: { chain: set(name) } });
  if (previous.remoteChain) commands.push({ flush: { chain: set(chains.remote) } });
  // Declared again, exactly as before, so the delete cannot fail on a set that is already gone:
  // adding an existing set with the same declaration is a no-op.
  for (const declaration of previous.areaSets) commands.push({ add: { set: { ...declaration } } }, { delete: { set: set(declaration.name) } });
  const rules = planRulesPart(desired, areas);
  const keep = new Set(previous.scanSets.filter((name) => rules.memory.scanSets.includes(name)));
  for (const name of previous.scanSets) if (!keep.has(name)) commands.push({ delete: { set: set(name) } });
  commands.push(...rules.commands.filter((command) => !keep.has((command as { add?: { set?: SetDeclaration } }).add?.set?.name ?? '')));
  // Remote protection went off: its chain goes, after the input chain was rebuilt without the jump to it.
  if (previous.remoteChain && !rules.memory.remoteChain) commands.push({ delete: { chain: set(chains.remote) } });
  return { script: { nftables: commands }, memory: rules.memory };
}

/** Removes the table: the module is off. Harmless when it is already gone. */
export function planRemoval(): NftScript {
  const table = { family, name: tableName };
  return { nftables: [{ add: { table } }, { delete: { table } }] };
}
