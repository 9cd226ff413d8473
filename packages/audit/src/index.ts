export { systemExecutor, recordedExecutor, type Executor, type CommandResult } from './executor.ts';
export { RootFs } from './root-fs.ts';
export { gatherFacts, type Facts, type FactName } from './facts/facts.ts';
export { readWrittenSshdConfig, effectiveSshd, parseSshdDump } from './facts/sshd-config.ts';
export { allChecks, checksById, describeChecks } from './checks/catalogue.ts';
export type { AuditCheck, FixSpec, Verdict } from './checks/check.ts';
export { runAudit, judge, judgeAll, type AuditOptions, type AuditProgress } from './run-audit.ts';
export { score, summarize, levelWeights } from './score.ts';
