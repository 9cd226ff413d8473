import { createHash } from 'node:crypto';
import { chmodSync, chownSync, readFileSync, writeFileSync } from 'node:fs';
import type { ReinforceItemResult } from '@rampart/contracts';
import type { Executor } from '../executor.ts';
import { RootFs } from '../root-fs.ts';
import { changeForAttributes, changeForWrite, hostPathFor, undoChange, UnsafePathError } from './file-ops.ts';
import { loadJournal, saveJournal } from './journal.ts';
import type { Plan } from './plan.ts';
import type { Command, Journal, JournalChange, JournalEntry, PlannedItem } from './plan-schema.ts';

/**
 * Applies a plan against the root, item by item: record the undo in the journal, change the file,
 * run the item's validation (sshd -t) and roll the item back when it fails. Activation (reload ssh,
 * sysctl -p) runs once at the end for the items that stayed. Progress is reported per item.
 */
export interface ApplyOptions {
  root: string;
  exec: Executor;
  stateDir: string;
  onProgress?: (p: { done: number; total: number; result: ReinforceItemResult }) => void;
  now?: () => number;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const line = (c: Command) => [c.command, ...c.args].join(' ');

function entryFor(journal: Journal, item: PlannedItem, now: number): JournalEntry {
  // Applying an item again keeps the first record of each path: revert goes back to before the first time.
  let entry = journal.entries.find((e) => e.checkId === item.checkId);
  if (!entry) {
    entry = { checkId: item.checkId, status: 'applying', appliedAt: now, changes: [], deactivate: item.deactivate, effect: item.effect, service: item.service };
    journal.entries.push(entry);
  }
  return entry;
}

function applySteps(fs: RootFs, item: PlannedItem, entry: JournalEntry, record: () => void): void {
  const known = new Set(entry.changes.map((c) => c.path));
  const remember = (change: JournalChange) => {
    if (known.has(change.path)) return;
    known.add(change.path);
    entry.changes.push(change);
    record();
  };
  for (const step of item.steps) {
    const host = hostPathFor(fs, step.path, (dir) => remember({ kind: 'created_dir', path: dir }));
    if (step.kind === 'write') {
      if (step.expectSha256 !== undefined && sha256(readFileSync(host)) !== step.expectSha256) throw new Error(`${step.path} changed since the audit read it`);
      remember(changeForWrite(step.path, host));
      writeFileSync(host, step.content);
      chmodSync(host, step.mode);
    } else {
      remember(changeForAttributes(step.path, host));
      if (step.uid !== undefined || step.gid !== undefined) chownSync(host, step.uid ?? -1, step.gid ?? -1);
      if (step.mode !== undefined) chmodSync(host, step.mode);
    }
  }
}

/** Undoes an entry's changes, newest first. */
export function undoEntry(fs: RootFs, entry: JournalEntry): void {
  for (const change of [...entry.changes].reverse()) undoChange(fs, change);
}

export async function applyPlan(plan: Plan, options: ApplyOptions): Promise<ReinforceItemResult[]> {
  const fs = new RootFs(options.root);
  const now = options.now ?? Date.now;
  const journal = loadJournal(options.stateDir);
  const record = () => saveJournal(options.stateDir, journal);
  const results: ReinforceItemResult[] = [];
  const total = plan.items.length + plan.refused.length;
  const report = (result: ReinforceItemResult) => {
    results.push(result);
    options.onProgress?.({ done: results.length, total, result });
  };
  for (const refused of plan.refused) report(refused);

  const applied: PlannedItem[] = [];
  for (const item of plan.items) {
    const fresh = !journal.entries.some((e) => e.checkId === item.checkId);
    const entry = entryFor(journal, item, now());
    const before = entry.changes.length;
    const base = { checkId: item.checkId, effect: item.effect, service: item.service };
    const rollBack = () => {
      // Undo only what this attempt changed; an earlier application of the item stays journaled.
      undoEntry(fs, { ...entry, changes: entry.changes.slice(before) });
      entry.changes.splice(before);
      if (fresh) journal.entries.splice(journal.entries.indexOf(entry), 1);
      record();
    };
    try {
      record();
      applySteps(fs, item, entry, record);
    } catch (error) {
      rollBack();
      const reason: ReinforceItemResult['reason'] = error instanceof UnsafePathError ? { key: 'audit_unsafe_path', values: { path: error.path } } : { key: 'audit_apply_failed', values: { error: error instanceof Error ? error.message : String(error) } };
      report({ ...base, status: 'failed', reason });
      continue;
    }
    const failed = await firstFailure(options.exec, item.validate);
    if (failed) {
      rollBack();
      report({ ...base, status: 'rolled_back', reason: { key: 'audit_sshd_test_failed', values: { error: failed } } });
      continue;
    }
    entry.status = 'applied';
    record();
    applied.push(item);
    report({ ...base, status: 'applied' });
  }

  // One reload per service for the whole run; a failed reload leaves the change on disk and says so.
  const activations = new Map<string, Command>();
  for (const item of applied) for (const c of item.activate) activations.set(line(c), c);
  for (const [key, command] of activations) {
    const failed = await firstFailure(options.exec, [command]);
    if (!failed) continue;
    for (const r of results) if (r.status === 'applied' && applied.find((i) => i.checkId === r.checkId)?.activate.some((c) => line(c) === key)) r.reason = { key: 'audit_apply_failed', values: { error: failed } };
  }
  return results;
}

/** Runs commands in order; the first failure's message, or undefined when all succeed. */
export async function firstFailure(exec: Executor, commands: readonly Command[]): Promise<string | undefined> {
  for (const c of commands) {
    const result = await exec(c.command, c.args);
    if (result.code !== 0) return `${line(c)}: ${(result.stderr || result.stdout).trim() || `exit ${result.code}`}`;
  }
  return undefined;
}
