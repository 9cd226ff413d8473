import {
  guardAllOps,
  guardMaxSlots,
  guardOpBits,
  type GuardExe,
  type GuardObject,
  type GuardPlan,
  type GuardSet,
  type GuardSlot,
  type NamingRule,
  type RuleState,
  type TamperOp,
  type TamperRule,
} from '@rampart/contracts';
import { cleanPath, isAtOrBelow, matchesPrefix, nameMatch, pathQuery, splitSubPath, subAnchor } from './paths.ts';

/*
 * The guard planner: rules in, the helper's tables out. Pure: everything it needs from the host
 * (inodes, executables) arrives already resolved (resolve.ts), so the same input always gives the
 * same plan and the goldens in tests/golden pin it down.
 *
 * Choices, in the order a reader meets them:
 * - A tamper rule protects its path: a file, or a directory and everything below it. `dir/*` is the
 *   directory (see paths.ts); `dir/name*` is each entry found at resolve time.
 * - Sub path without `/` matches the name of the entry acted on, at any depth (`*.php`). With `/`,
 *   its directory part is resolved below the protected path to a deeper object and its last part
 *   is the name match (`uploads/*.php`). A directory part starting with `*` cannot be an object:
 *   the rule is not enforced and a warning says so.
 * - Slot order in every set: Rampart's own `self` slot, then naming rules (by id; they cover only
 *   `c` and match only bad names, so they never shadow a tamper rule's other operations), then tamper
 *   rules by level (1 first) then id. The first matching slot decides.
 * - Every object's set holds the slots of every rule anchored at the object or at an ancestor of it,
 *   so the kernel's nearest-object walk never loses an outer rule.
 * - An empty `ops` rule is an allow slot: it covers every operation and denies none.
 * - Process classes: each distinct process pattern and each distinct exempt list is one class bit
 *   (64 at most; past it the rule is skipped with a warning). `*` is proc -1. A pattern that matched no
 *   executable yet keeps its class: the rule applies once such an executable appears and is resolved.
 * - An exempt list holding `*` exempts everything: the rule could never deny, so it is left out.
 * - Two paths on one inode (hard link, symlink followed, bind mount) are one object with both
 *   paths' slots; the first path by sort order names it.
 * - Past guardMaxSlots in a set the lowest-priority slots are dropped (warning, rule state `partial`).
 * - Other modules' rules (`sources`: user protection's account files, ...) are tamper-like rules with
 *   string ids; their slots carry `<module>:<id>`. Each module's switch gates its own rules. They come
 *   right after the self slot and naming slots and before every tamper rule: a module's lock (e.g.
 *   /etc/passwd against any writer) is not reopened by a tamper allow rule over /etc. Within them:
 *   sources in input order, then level, then place in the list. Their states are in
 *   `ruleStates.sources` keyed `<module>:<id>` (present only when the input has sources, so
 *   tamper-only plans are unchanged).
 * - Rule states, first that applies: `off` (rule off or not enforcing), `path_missing` (nothing
 *   resolved), `not_enforced` (skipped, wholly inside Rampart's own directories, no backend, or the
 *   backend can deny none of the rule's operations: a naming rule on fanotify), `partial` (an
 *   operation the backend cannot deny, or slots dropped), `active`.
 */

export type GuardTamperRule = Pick<TamperRule, 'id' | 'enabled' | 'path' | 'sub_path' | 'process' | 'exempt' | 'level' | 'ops' | 'notify'>;
export type GuardNamingRule = Pick<NamingRule, 'id' | 'enabled' | 'dir' | 'deny_dirs' | 'deny_files' | 'deny_malformed' | 'notify'>;

/** An inode as stat(2) reports it, for a path the rules name. */
export interface ResolvedPath {
  dev: number;
  ino: number;
  dir: boolean;
}

/** An executable file a process pattern matched. */
export interface ResolvedExe {
  dev: number;
  ino: number;
  path: string;
}

/**
 * A tamper-like rule of another guard module; its id is a short string (`passwd`).
 * - `anchorPaths`: the rule is anchored at each of these folders instead of at `path` (one slot per
 *   set, however many of them lie above an object). Process protection's deny start by a `*name`
 *   pattern is anchored at every filesystem's root, where the kernel's walk up a filesystem ends.
 * - `parentWalk`: only a backend that walks up from the entry can take the rule; on one that marks
 *   every folder of a protected tree (fanotify) it is left out and `not_enforced`, not a mark on
 *   every folder of every filesystem.
 */
export type GuardSourceRule = Omit<GuardTamperRule, 'id' | 'enabled'> & { id: string; anchorPaths?: readonly string[]; parentWalk?: boolean };

/** One module's rules, gated by that module's switch. */
export interface GuardRuleSource {
  module: string;
  enabled: boolean;
  rules: readonly GuardSourceRule[];
}

export interface GuardPlanInput {
  tamper: readonly GuardTamperRule[];
  /** Other modules' rules (user protection, ...). */
  sources?: readonly GuardRuleSource[];
  naming: readonly GuardNamingRule[];
  /** Path → inode, or null when nothing is there. Holds `prefix*` expansions and sub-path directories. */
  resolved: Readonly<Record<string, ResolvedPath | null>>;
  /** Process pattern → the executables it matched. */
  exes: Readonly<Record<string, readonly ResolvedExe[]>>;
  /** Rampart's data and install directories: always allowed. */
  selfPaths: readonly string[];
  trustedPids: readonly number[];
  enforce: boolean;
  generation: number;
  /** Operations the running backend can deny; null when no backend runs. */
  backendOps: readonly TamperOp[] | null;
  /** The running backend marks every folder of a protected tree (fanotify): `parentWalk` rules are left out. */
  backendMarksTrees?: boolean;
}

export interface GuardRuleStates {
  tamper: Record<number, RuleState>;
  names: Record<number, RuleState>;
  /** `<module>:<id>` → state; only when the input has sources. */
  sources?: Record<string, RuleState>;
}

export interface GuardPlanResult {
  plan: GuardPlan;
  /** Locale keys under `guard_warning.`, each once. */
  warnings: string[];
  ruleStates: GuardRuleStates;
}

/** A slot with what orders it: group (0 self, 1 naming, 2 other modules, 3 tamper), level, rule id, place within the rule. */
interface RankedSlot {
  slot: GuardSlot;
  rank: [number, number, number, number];
}

interface Anchor {
  path: string;
  slots: RankedSlot[];
}

const maxClasses = 64;
const anyName = { kind: 'any', a: '', b: '' } as const;

export function opBits(ops: readonly TamperOp[]): number {
  return ops.reduce((bits, op) => bits | guardOpBits[op], 0);
}

function compareRank(a: RankedSlot, b: RankedSlot): number {
  for (let i = 0; i < 4; i += 1) if (a.rank[i] !== b.rank[i]) return a.rank[i]! - b.rank[i]!;
  return 0;
}

/** Assigns class bits to process patterns and exempt lists, first come first served. */
class ClassTable {
  readonly byKey = new Map<string, { index: number; patterns: readonly string[] }>();

  /** The class of these patterns (a pattern, or an exempt list), or null when all 64 are taken. */
  classOf(patterns: readonly string[]): number | null {
    const key = [...new Set(patterns)].sort().join('\n');
    const known = this.byKey.get(key);
    if (known) return known.index;
    if (this.byKey.size >= maxClasses) return null;
    const index = this.byKey.size;
    this.byKey.set(key, { index, patterns: [...new Set(patterns)].sort() });
    return index;
  }

  /** Whether these patterns would need a new class. */
  isNew(patterns: readonly string[]): boolean {
    return !this.byKey.has([...new Set(patterns)].sort().join('\n'));
  }
}

function existing(resolved: GuardPlanInput['resolved'], key: string): ResolvedPath | null {
  return resolved[key] ?? null;
}

/** The resolved anchors of a protected path (see paths.ts for `dir/*` and `dir/name*`). */
function anchorsOf(protectedPath: string, resolved: GuardPlanInput['resolved']): string[] {
  const query = pathQuery(protectedPath);
  if (query.kind === 'exact') return existing(resolved, query.path) ? [query.path] : [];
  return Object.keys(resolved)
    .filter((key) => existing(resolved, key) !== null && matchesPrefix(key, query))
    .sort();
}

/** A rule's key in slots and the rank that orders it among the others. */
interface RuleKey {
  rule: string;
  rank: [number, number, number, number];
}

function tamperAnchors(rule: Omit<GuardTamperRule, 'id' | 'enabled'> & { anchorPaths?: readonly string[] }, key: RuleKey, input: GuardPlanInput, warn: (key: string) => void, classes: ClassTable): { anchors: Anchor[]; skipped: boolean } {
  const sub = splitSubPath(rule.sub_path);
  if ('unsupported' in sub) {
    warn('guard_warning.sub_path_unsupported');
    return { anchors: [], skipped: true };
  }
  const name = nameMatch(sub.name);
  if (!name) {
    warn('guard_warning.name_too_long');
    return { anchors: [], skipped: true };
  }
  if (rule.exempt.includes('*')) {
    warn('guard_warning.exempt_all');
    return { anchors: [], skipped: true };
  }
  const needed: (readonly string[])[] = [];
  if (rule.process !== '*') needed.push([rule.process]);
  if (rule.exempt.length) needed.push(rule.exempt);
  if (classes.byKey.size + needed.filter((p) => classes.isNew(p)).length > maxClasses) {
    warn('guard_warning.too_many_processes');
    return { anchors: [], skipped: true };
  }
  const proc = rule.process === '*' ? -1 : classes.classOf([rule.process])!;
  const exempt = rule.exempt.length ? classes.classOf(rule.exempt)! : -1;
  const deny = opBits(rule.ops);
  const slot: GuardSlot = {
    rule: key.rule,
    covers: rule.ops.length ? deny : guardAllOps,
    deny,
    proc,
    exempt,
    target: 'any',
    name,
    malformed: false,
    notify: rule.notify,
  };
  const protectedAnchors = rule.anchorPaths ? rule.anchorPaths.map(cleanPath).filter((anchor) => existing(input.resolved, anchor) !== null) : anchorsOf(rule.path, input.resolved);
  const anchors = protectedAnchors
    .map((anchor) => subAnchor(anchor, sub))
    .filter((anchor) => existing(input.resolved, anchor)?.dir === true || (sub.dir === null && existing(input.resolved, anchor) !== null));
  return { anchors: anchors.map((path) => ({ path, slots: [{ slot, rank: key.rank }] })), skipped: false };
}

function namingSlots(rule: GuardNamingRule, warn: (key: string) => void): RankedSlot[] {
  const base = { rule: `name:${rule.id}`, covers: guardOpBits.c, deny: guardOpBits.c, proc: -1, exempt: -1, notify: rule.notify };
  const slots: GuardSlot[] = [];
  if (rule.deny_malformed) slots.push({ ...base, target: 'any', name: anyName, malformed: true });
  const add = (patterns: readonly string[], target: 'dir' | 'file') => {
    for (const pattern of patterns) {
      const name = nameMatch(pattern);
      if (name) slots.push({ ...base, target, name, malformed: false });
      else warn('guard_warning.name_too_long');
    }
  };
  add(rule.deny_dirs, 'dir');
  add(rule.deny_files, 'file');
  return slots.map((slot, place) => ({ slot, rank: [1, 0, rule.id, place] }));
}

const selfSlot: GuardSlot = { rule: 'self', covers: guardAllOps, deny: 0, proc: -1, exempt: -1, target: 'any', name: anyName, malformed: false, notify: false };

/** The rules as the helper's tables. */
export function planGuard(input: GuardPlanInput): GuardPlanResult {
  const warnings = new Set<string>();
  const warn = (key: string) => void warnings.add(key);
  const classes = new ClassTable();
  const tamperStates: Record<number, RuleState> = {};
  const nameStates: Record<number, RuleState> = {};
  const ruleAnchors: Anchor[] = [];
  const placed = new Map<string, { skipped: boolean; anchors: string[]; denies: readonly TamperOp[] }>();

  // Other modules' rules take class bits before tamper rules: a module's lock is never the one skipped.
  (input.sources ?? []).forEach((source, sourceIndex) => {
    if (!source.enabled) return;
    source.rules.forEach((rule, place) => {
      const key = `${source.module}:${rule.id}`;
      if (rule.parentWalk && input.backendMarksTrees) {
        warn('guard_warning.needs_parent_walk');
        placed.set(key, { skipped: true, anchors: [], denies: rule.ops });
        return;
      }
      const { anchors, skipped } = tamperAnchors(rule, { rule: key, rank: [2, sourceIndex, rule.level, place] }, input, warn, classes);
      ruleAnchors.push(...anchors);
      placed.set(key, { skipped, anchors: anchors.map((anchor) => anchor.path), denies: rule.ops });
    });
  });
  const tamper = input.tamper.filter((rule) => rule.enabled).sort((a, b) => a.level - b.level || a.id - b.id);
  for (const rule of tamper) {
    const { anchors, skipped } = tamperAnchors(rule, { rule: `tamper:${rule.id}`, rank: [3, rule.level, rule.id, 0] }, input, warn, classes);
    ruleAnchors.push(...anchors);
    placed.set(`tamper:${rule.id}`, { skipped, anchors: anchors.map((anchor) => anchor.path), denies: rule.ops });
  }
  const naming = input.naming.filter((rule) => rule.enabled).sort((a, b) => a.id - b.id);
  for (const rule of naming) {
    const dir = cleanPath(rule.dir);
    const anchored = existing(input.resolved, dir)?.dir === true;
    if (anchored) ruleAnchors.push({ path: dir, slots: namingSlots(rule, warn) });
    placed.set(`name:${rule.id}`, { skipped: false, anchors: anchored ? [dir] : [], denies: ['c'] });
  }

  // Rampart's own directories get an allow slot first wherever a rule reaches them.
  const selfAnchors: Anchor[] = [...new Set(input.selfPaths.map(cleanPath))]
    .filter((self) => existing(input.resolved, self) !== null && ruleAnchors.some((anchor) => isAtOrBelow(self, anchor.path) || isAtOrBelow(anchor.path, self)))
    .map((path) => ({ path, slots: [{ slot: selfSlot, rank: [0, 0, 0, 0] }] }));
  const anchors = [...selfAnchors, ...ruleAnchors];

  // One object per inode, holding the slots of every anchor at or above any of its paths.
  const byInode = new Map<string, { path: string; info: ResolvedPath; slots: Map<string, RankedSlot> }>();
  for (const objectPath of [...new Set(anchors.map((anchor) => anchor.path))].sort()) {
    const info = existing(input.resolved, objectPath)!;
    const key = `${info.dev}:${info.ino}`;
    const entry = byInode.get(key) ?? { path: objectPath, info, slots: new Map<string, RankedSlot>() };
    byInode.set(key, entry);
    for (const anchor of anchors) {
      if (!isAtOrBelow(objectPath, anchor.path)) continue;
      for (const ranked of anchor.slots) entry.slots.set(JSON.stringify(ranked), ranked);
    }
  }

  const dropped = new Set<string>();
  const setIds = new Map<string, number>();
  const sets: GuardSet[] = [];
  const objects: GuardObject[] = [];
  for (const entry of [...byInode.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const ordered = [...entry.slots.values()].sort(compareRank).map((ranked) => ranked.slot);
    if (ordered.length > guardMaxSlots) {
      warn('guard_warning.too_many_slots');
      for (const slot of ordered.slice(guardMaxSlots)) dropped.add(slot.rule);
    }
    const slots = ordered.slice(0, guardMaxSlots);
    const setKey = JSON.stringify(slots);
    let set = setIds.get(setKey);
    if (set === undefined) {
      set = sets.length + 1;
      setIds.set(setKey, set);
      sets.push({ id: set, slots });
    }
    objects.push({ dev: entry.info.dev, ino: entry.info.ino, path: entry.path, set, dir: entry.info.dir });
  }

  const exes = planExes(classes, input.exes);

  const stateOf = (ruleKey: string, enabled: boolean): RuleState => {
    const where = placed.get(ruleKey);
    if (!enabled || !input.enforce || !where) return 'off';
    if (where.skipped) return 'not_enforced';
    if (!where.anchors.length) return 'path_missing';
    // Wholly inside Rampart's own directories: the self slot comes first, so the rule never denies.
    if (where.anchors.every((anchor) => selfAnchors.some((self) => isAtOrBelow(anchor, self.path)))) return 'not_enforced';
    if (input.backendOps === null) return 'not_enforced';
    const backendOps = input.backendOps;
    // Denying nothing the backend can deny is enforcing nothing; an allow rule (no ops) still acts.
    if (where.denies.length && where.denies.every((op) => !backendOps.includes(op))) return 'not_enforced';
    if (dropped.has(ruleKey) || where.denies.some((op) => !backendOps.includes(op))) return 'partial';
    return 'active';
  };
  for (const rule of input.tamper) tamperStates[rule.id] = stateOf(`tamper:${rule.id}`, rule.enabled);
  for (const rule of input.naming) nameStates[rule.id] = stateOf(`name:${rule.id}`, rule.enabled);
  const ruleStates: GuardRuleStates = { tamper: tamperStates, names: nameStates };
  if (input.sources) {
    ruleStates.sources = {};
    for (const source of input.sources) for (const rule of source.rules) ruleStates.sources[`${source.module}:${rule.id}`] = stateOf(`${source.module}:${rule.id}`, source.enabled);
  }

  const plan: GuardPlan = {
    generation: input.generation,
    enforce: input.enforce,
    objects,
    sets,
    exes,
    trusted_pids: [...new Set(input.trustedPids)].filter((pid) => pid > 0).sort((a, b) => a - b).slice(0, 64),
  };
  return { plan, warnings: [...warnings].sort(), ruleStates };
}

/** Each executable once (by inode), carrying the classes of every pattern that matched it. */
function planExes(classes: ClassTable, resolvedExes: GuardPlanInput['exes']): GuardExe[] {
  const byInode = new Map<string, { dev: number; ino: number; path: string; classes: Set<number> }>();
  for (const { index, patterns } of classes.byKey.values()) {
    for (const pattern of patterns) {
      for (const exe of resolvedExes[pattern] ?? []) {
        const key = `${exe.dev}:${exe.ino}`;
        const entry = byInode.get(key) ?? { dev: exe.dev, ino: exe.ino, path: exe.path, classes: new Set<number>() };
        if (exe.path < entry.path) entry.path = exe.path;
        entry.classes.add(index);
        byInode.set(key, entry);
      }
    }
  }
  return [...byInode.values()]
    .map((entry) => ({ dev: entry.dev, ino: entry.ino, path: entry.path, classes: [...entry.classes].sort((a, b) => a - b) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.dev - b.dev || a.ino - b.ino));
}
