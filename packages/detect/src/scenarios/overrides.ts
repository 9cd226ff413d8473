import type { Scenario, ScenarioOverrides } from './schema.ts';
import { scenarioOverridesSchema } from './schema.ts';

/**
 * The scenarios as the administrator set them: disabled ones left out, thresholds, windows and
 * block durations replaced. Names without a scenario are ignored (the settings also hold rules
 * other engines enforce, such as port scans). Throws for an override of the wrong shape.
 */
export function applyOverrides(scenarios: readonly Scenario[], overrides: ScenarioOverrides = {}): Scenario[] {
  const checked = scenarioOverridesSchema.parse(overrides);
  const active: Scenario[] = [];
  for (const scenario of scenarios) {
    const o = checked[scenario.name];
    if (o?.enabled === false) continue;
    active.push({
      ...scenario,
      threshold: o?.threshold ?? scenario.threshold,
      window: o?.window ?? scenario.window,
      decision: { ...scenario.decision, duration_minutes: o?.duration_minutes ?? scenario.decision.duration_minutes },
    });
  }
  return active;
}
