import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { journalSchema, type Journal } from './plan-schema.ts';

/**
 * The reinforcement journal: a JSON file under the caller's state directory, written (atomically,
 * by rename) before every change, so a restart — or a crash mid-item — keeps what can be reverted.
 */
export const journalFileName = 'audit-reinforce-journal.json';

export function journalPath(stateDir: string): string {
  return path.join(stateDir, journalFileName);
}

export function loadJournal(stateDir: string): Journal {
  let text: string;
  try {
    text = readFileSync(journalPath(stateDir), 'utf8');
  } catch {
    return { version: 1, entries: [] };
  }
  return journalSchema.parse(JSON.parse(text));
}

export function saveJournal(stateDir: string, journal: Journal): void {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const file = journalPath(stateDir);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(journalSchema.parse(journal), null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}
