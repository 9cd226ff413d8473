// The detection pipeline: sensor → parse → detect (scenarios) → decide. The agent wires decisions to the firewall.
export {
  eventKinds,
  logSources,
  skipReasons,
  sshNotes,
  type Decision,
  type EventKind,
  type FieldName,
  type LogSource,
  type Overflow,
  type ParsedFields,
  type PipelineEvent,
  type SkipReason,
  type SshNote,
} from './event.ts';

export { tailFile, type TailHandle, type TailOptions, type TailPosition, type TailStats } from './sensors/tail-file.ts';
export { followJournal, sshdJournalMatches, type JournalHandle, type JournalOptions, type JournalStats } from './sensors/journal.ts';
export { parseJournalJson, type JournalEntry } from './sensors/journal-entry.ts';

export { parseLine } from './parse/parse-line.ts';
export { parseSshdMessage } from './parse/sshd-message.ts';
export { parseSshdJournal, parseSshdSyslog, type LineParse } from './parse/sshd.ts';
export { parseAccessLog, type AccessLogLine } from './parse/access-log.ts';

export { builtInScenarioDir, loadScenarioFile, loadScenarios, ScenarioError } from './scenarios/load.ts';
export {
  fieldNames,
  scenarioOverrideSchema,
  scenarioOverridesSchema,
  scenarioSchema,
  type Scenario,
  type ScenarioOverride,
  type ScenarioOverrides,
} from './scenarios/schema.ts';
export { applyOverrides } from './scenarios/overrides.ts';
export { createDetector, defaultMaxGroups, type Detector, type DetectorOptions, type ScenarioStats } from './scenarios/detector.ts';

export { createDecider, type Decider, type DeciderOptions, type DeciderStats } from './decide.ts';
export { isLoopback } from './loopback.ts';
export { createPipeline, type Pipeline, type PipelineOptions, type PipelineStats, type SourceStats } from './pipeline.ts';
