import type { AuditCheckResult } from '@rampart/contracts';
import { checksById, judge, type Executor } from '../src/index.ts';
import { factsOf, makeRoot, type FixtureEntry } from './fixture-root.ts';

/** Judges the named checks against a fixture root written for the test. */
export async function judgeIn(files: Record<string, FixtureEntry>, ids: string[], exec?: Executor): Promise<Record<string, AuditCheckResult>> {
  const facts = await factsOf(makeRoot(files), exec);
  return Object.fromEntries(
    ids.map((id) => {
      const check = checksById.get(id);
      if (!check) throw new Error(`no check ${id}`);
      return [id, judge(check, facts)];
    }),
  );
}
