import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPipeline, isLoopback, loadScenarios, logSources, type Decision, type LogSource } from '../src/index.ts';

interface Expected {
  /** The clock during the replay: places year-less syslog stamps. */
  replayAt: string;
  /** Zone of year-less syslog stamps (they are the host's local time). */
  timeZone?: string;
  /** Stands in for the whitelists; loopback is always exempt. */
  exempt: string[];
  /** Lines the replay must count as malformed (and skip). */
  malformed?: number;
  decisions: { ip: string; scenario: string; reason: string; durationMinutes: number; time: string }[];
}

const scenarios = loadScenarios();

/** Replays every `<source>.log` of a fixture folder, in name order, through all shipped scenarios. */
function replay(dir: string, expected: Expected): { decisions: Decision[]; malformed: number } {
  process.env.TZ = expected.timeZone ?? 'UTC';
  const decisions: Decision[] = [];
  const pipeline = createPipeline({
    scenarios,
    isExempt: (ip) => isLoopback(ip) || expected.exempt.includes(ip),
    onDecision: (d) => decisions.push(d),
    now: () => Date.parse(expected.replayAt),
    replay: true,
  });
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .sort();
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    const source = file.replace(/\.log$/, '') as LogSource;
    expect(logSources, `${file} names a source`).toContain(source);
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) if (line) pipeline.push(line, source);
  }
  const stats = pipeline.stats();
  const malformed = Object.values(stats.sources).reduce((n, s) => n + s.skipped.malformed, 0);
  return { decisions, malformed };
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('every scenario replays its fixture to the expected decisions', () => {
  expect(scenarios.map((s) => s.name)).toEqual(['http-404-scan', 'http-cc', 'ssh-bruteforce']);
  for (const scenario of scenarios) {
    it(scenario.name, () => {
      const expected = JSON.parse(readFileSync(path.join(scenario.fixture, 'expected.json'), 'utf8')) as Expected;
      const { decisions, malformed } = replay(scenario.fixture, expected);
      expect(malformed).toBe(expected.malformed ?? 0);
      expect(decisions.map((d) => ({ ip: d.ip, scenario: d.scenario, reason: d.reason, durationMinutes: d.durationMinutes, time: iso(d.time) }))).toEqual(
        expected.decisions,
      );
      // A fixture must exercise its own scenario.
      expect(decisions.some((d) => d.scenario === scenario.name)).toBe(true);
      for (const d of decisions) expect(d.until - d.time).toBe(d.durationMinutes * 60_000);
    });
  }
});
