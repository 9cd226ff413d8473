import type { PipelineEvent } from '../event.ts';
import { createCountWindow, type CountWindow } from './count-window.ts';
import { DistinctWindow } from './distinct-window.ts';
import { compileFilter, type EventFilter } from './filter.ts';
import { GroupTable } from './group-table.ts';
import type { Scenario } from './schema.ts';

export interface DetectorOptions {
  /** Groups tracked per scenario at most; the stalest give way. */
  maxGroups?: number;
}

export interface ScenarioStats {
  groups: number;
  evicted: number;
  matched: number;
  overflows: number;
}

export interface Detector {
  /** The detect stage: fills `matched` and `overflows` of a parsed event. */
  observe(event: PipelineEvent): void;
  /** New settings. Scenarios whose counting did not change keep their windows; the others start empty. */
  reconfigure(scenarios: readonly Scenario[]): void;
  stats(): Record<string, ScenarioStats>;
}

interface GroupState {
  count?: CountWindow;
  distinct?: DistinctWindow;
  /** Log times can step back a little (merged sources, clock adjustments); windows only move forward. */
  last: number;
}

interface Tracked {
  scenario: Scenario;
  signature: string;
  filter: EventFilter;
  groups: GroupTable<GroupState>;
  matched: number;
  overflows: number;
}

export const defaultMaxGroups = 10_000;

function newGroup(s: Scenario, time: number): GroupState {
  const windowMs = s.window * 1000;
  return s.type === 'count' ? { count: createCountWindow(s.threshold, windowMs), last: time } : { distinct: new DistinctWindow(windowMs), last: time };
}

// What the windows depend on: the decision (duration, reason) can change without losing them.
const signature = (s: Scenario): string => JSON.stringify([s.filter, s.group_by, s.type, s.distinct, s.threshold, s.window]);

export function createDetector(scenarios: readonly Scenario[], options: DetectorOptions = {}): Detector {
  const maxGroups = options.maxGroups ?? defaultMaxGroups;
  let tracked: Tracked[] = [];

  const track = (scenario: Scenario, previous?: Tracked): Tracked => {
    const sig = signature(scenario);
    if (previous && previous.signature === sig) return { ...previous, scenario };
    return { scenario, signature: sig, filter: compileFilter(scenario.filter), groups: new GroupTable(maxGroups, scenario.window * 1000), matched: 0, overflows: 0 };
  };

  const reconfigure = (next: readonly Scenario[]) => {
    const byName = new Map(tracked.map((t) => [t.scenario.name, t]));
    tracked = next.map((s) => track(s, byName.get(s.name)));
  };
  reconfigure(scenarios);

  const observe = (event: PipelineEvent) => {
    const fields = event.parsed;
    if (!fields) return;
    for (const t of tracked) {
      if (!t.filter(fields)) continue;
      const s = t.scenario;
      event.matched.push(s.name);
      t.matched++;
      const key = fields[s.group_by];
      if (key === undefined) continue;
      const value = s.type === 'distinct' ? fields[s.distinct!] : undefined;
      if (s.type === 'distinct' && value === undefined) continue;
      const group = String(key);
      const state = t.groups.touch(group, event.time) ?? t.groups.add(group, event.time, newGroup(s, event.time));
      if (event.time > state.last) state.last = event.time;
      const count = state.distinct ? state.distinct.add(state.last, String(value)) : state.count!.add(state.last, fields.repeat ?? 1);
      if (count <= s.threshold) continue;
      // Like a crowdsec bucket: an overflow empties the group; a blocked source starts from zero.
      event.overflows.push({ scenario: s.name, group, count, firstTime: (state.count ?? state.distinct)!.firstTime(), time: event.time });
      t.groups.delete(group);
      t.overflows++;
    }
  };

  return {
    observe,
    reconfigure,
    stats: () => Object.fromEntries(tracked.map((t) => [t.scenario.name, { groups: t.groups.size, evicted: t.groups.evicted, matched: t.matched, overflows: t.overflows }])),
  };
}
