import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { z } from 'zod';
import { scenarioSchema, type Scenario } from './schema.ts';

/** The scenarios that ship with the package. */
export const builtInScenarioDir = fileURLToPath(new URL('../../scenarios/', import.meta.url));

/** A scenario file that cannot be used; the message names the file and the field. */
export class ScenarioError extends Error {
  readonly file: string;
  readonly field: string;

  constructor(file: string, field: string, problem: string) {
    super(`scenario ${file}: ${field ? `${field}: ` : ''}${problem}`);
    this.name = 'ScenarioError';
    this.file = file;
    this.field = field;
  }
}

/** Field path and problem of one zod issue; a union (one value or a list) is reported by its first branch. */
function describeIssue(issue: z.core.$ZodIssue, at: PropertyKey[] = []): [string, string] {
  const path = [...at, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors[0]?.[0]) return describeIssue(issue.errors[0][0], path);
  // An unknown key is reported on its parent; name the key itself.
  if (issue.code === 'unrecognized_keys') return [[...path, issue.keys[0]].join('.'), 'unknown field'];
  return [path.join('.'), issue.message];
}

function schemaError(file: string, error: z.ZodError): ScenarioError {
  const [field, problem] = describeIssue(error.issues[0]!);
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more: ${error.issues.slice(1).map((i) => describeIssue(i).join(': ')).join('; ')})` : '';
  return new ScenarioError(file, field, problem + more);
}

/**
 * Reads and checks one scenario file: YAML, the schema, its name against the file name, and that
 * its fixture folder exists. `fixture` comes back as an absolute path.
 */
export function loadScenarioFile(file: string): Scenario {
  let data: unknown;
  try {
    data = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ScenarioError(file, '', error instanceof Error ? error.message : String(error));
  }
  const result = scenarioSchema.safeParse(data);
  if (!result.success) throw schemaError(file, result.error);
  const scenario = result.data;
  const base = path.basename(file).replace(/\.ya?ml$/, '');
  if (scenario.name !== base) throw new ScenarioError(file, 'name', `must match the file name (${base})`);
  const fixture = path.resolve(path.dirname(file), scenario.fixture);
  if (!existsSync(path.join(fixture, 'expected.json'))) throw new ScenarioError(file, 'fixture', `no expected.json in ${fixture}`);
  return { ...scenario, fixture };
}

/** Every `*.yaml` in `dir`, in name order. Throws ScenarioError at the first bad file: a bad scenario stops the start. */
export function loadScenarios(dir: string = builtInScenarioDir): Scenario[] {
  const files = readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort();
  return files.map((name) => loadScenarioFile(path.join(dir, name)));
}
