import { collectProcesses, collectUsers } from '@rampart/audit';
import type { AuditInventorySnapshot } from '@rampart/contracts';
import type { AuditTarget } from './audit-service.ts';

/**
 * The user and process tabs' findings as a finished run saves them (rows with a finding only). A
 * tab that fails to read is null in the snapshot, so the report leaves it out rather than claiming
 * nothing was found.
 */
export async function takeInventorySnapshot(target: AuditTarget, now: number, log: (line: string) => void): Promise<AuditInventorySnapshot> {
  const part = async <T extends { findings: unknown[] }>(name: string, read: () => Promise<T[]> | T[]): Promise<T[] | null> => {
    try {
      return (await read()).filter((row) => row.findings.length > 0);
    } catch (error) {
      log(`audit: the ${name} findings could not be saved with the run: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  };
  return {
    taken_at: now,
    users: await part('account', () => collectUsers({ root: target.root, exec: target.executor })),
    processes: await part('process', () => collectProcesses({ root: target.root })),
  };
}
