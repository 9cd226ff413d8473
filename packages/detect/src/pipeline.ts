import { createDecider, type DeciderStats } from './decide.ts';
import { logSources, skipReasons, type Decision, type LogSource, type PipelineEvent, type SkipReason } from './event.ts';
import { parseLine } from './parse/parse-line.ts';
import { parseSshdJournal, type LineParse } from './parse/sshd.ts';
import { createDetector, type DetectorOptions, type ScenarioStats } from './scenarios/detector.ts';
import { applyOverrides } from './scenarios/overrides.ts';
import type { Scenario, ScenarioOverrides } from './scenarios/schema.ts';
import { followJournal, sshdJournalMatches, type JournalHandle, type JournalOptions } from './sensors/journal.ts';
import type { JournalEntry } from './sensors/journal-entry.ts';
import { tailFile, type TailHandle, type TailOptions } from './sensors/tail-file.ts';

export interface PipelineOptions extends DetectorOptions {
  /** Every scenario loaded (loadScenarios); `overrides` say which run and with what numbers. */
  scenarios: readonly Scenario[];
  overrides?: ScenarioOverrides;
  isExempt: (ip: string) => boolean;
  isBlocked?: (ip: string) => boolean;
  onDecision: (decision: Decision, event: PipelineEvent) => void;
  /** Every event, parsed or not, once it has been through every stage. */
  onEvent?: (event: PipelineEvent) => void;
  /** The clock (ms). */
  now?: () => number;
  /** Replaying logs: windows and decisions run on the times written in the lines, not the clock. */
  replay?: boolean;
}

export interface SourceStats {
  read: number;
  parsed: number;
  skipped: Record<SkipReason, number>;
}

export interface PipelineStats {
  sources: Record<LogSource, SourceStats>;
  scenarios: Record<string, ScenarioStats>;
  decisions: DeciderStats;
}

export interface Pipeline {
  /** One raw line from `source`; returns the event as it left the last stage. */
  push(line: string, source: LogSource): PipelineEvent;
  /** One entry from followJournal (already parsed from journalctl's JSON). */
  pushJournal(entry: JournalEntry): PipelineEvent;
  /** Tails a log file into the pipeline; closed with the pipeline. */
  attachFile(path: string, source: LogSource, options?: TailOptions): TailHandle;
  /** Follows sshd's journal entries into the pipeline; closed with the pipeline. */
  attachJournal(options?: Omit<JournalOptions, 'onEntry'>): JournalHandle;
  /** The administrator changed the attack-protection settings. Throws (changing nothing) for a bad override. */
  updateOverrides(overrides: ScenarioOverrides): void;
  stats(): PipelineStats;
  /** Stops the attached sensors. */
  close(): Promise<void>;
}

const emptySourceStats = (): SourceStats => ({
  read: 0,
  parsed: 0,
  skipped: Object.fromEntries(skipReasons.map((r) => [r, 0])) as Record<SkipReason, number>,
});

/** sensor → parse → detect → decide, one event filled in as it passes each stage. */
export function createPipeline(options: PipelineOptions): Pipeline {
  const now = options.now ?? Date.now;
  let active = applyOverrides(options.scenarios, options.overrides);
  let byName = new Map(active.map((s) => [s.name, s]));
  const detector = createDetector(active, options);
  const decider = createDecider(options);
  const sources = Object.fromEntries(logSources.map((s) => [s, emptySourceStats()])) as Record<LogSource, SourceStats>;
  const sensors: { close(): Promise<void> }[] = [];

  const run = (source: LogSource, raw: string, result: LineParse): PipelineEvent => {
    const clock = now();
    const event: PipelineEvent = {
      source,
      raw,
      time: options.replay && result.logTime !== undefined ? result.logTime : clock,
      matched: [],
      overflows: [],
      decisions: [],
    };
    if (result.logTime !== undefined) event.logTime = result.logTime;
    const counts = sources[source];
    counts.read++;
    if (result.parsed) {
      event.parsed = result.parsed;
      counts.parsed++;
      detector.observe(event);
      for (const overflow of event.overflows) {
        const decision = decider.decide(event, overflow, byName.get(overflow.scenario)!);
        if (decision) event.decisions.push(decision);
      }
    } else {
      event.skipped = result.skipped ?? 'unrecognised';
      counts.skipped[event.skipped]++;
    }
    for (const decision of event.decisions) options.onDecision(decision, event);
    options.onEvent?.(event);
    return event;
  };

  const pipeline: Pipeline = {
    push: (line, source) => run(source, line, parseLine(line, source, now())),
    pushJournal: (entry) => run('sshd-journal', entry.raw, parseSshdJournal(entry)),
    attachFile(path, source, tailOptions) {
      const handle = tailFile(path, (line) => pipeline.push(line, source), tailOptions);
      sensors.push(handle);
      return handle;
    },
    attachJournal(journalOptions = {}) {
      const handle = followJournal({ matches: sshdJournalMatches, ...journalOptions, onEntry: (entry) => pipeline.pushJournal(entry) });
      sensors.push(handle);
      return handle;
    },
    updateOverrides(overrides) {
      active = applyOverrides(options.scenarios, overrides);
      byName = new Map(active.map((s) => [s.name, s]));
      detector.reconfigure(active);
    },
    stats: () => ({
      sources: Object.fromEntries(logSources.map((s) => [s, { ...sources[s], skipped: { ...sources[s].skipped } }])) as Record<LogSource, SourceStats>,
      scenarios: detector.stats(),
      decisions: decider.stats(),
    }),
    async close() {
      await Promise.all(sensors.splice(0).map((sensor) => sensor.close()));
    },
  };
  return pipeline;
}
