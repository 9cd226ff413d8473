import type { ReinforceItemResult } from '@rampart/contracts';
import type { Executor } from '../executor.ts';
import { RootFs } from '../root-fs.ts';
import { firstFailure, undoEntry } from './apply.ts';
import { loadJournal, saveJournal } from './journal.ts';
import type { JournalEntry } from './plan-schema.ts';

/**
 * Reverts journaled items — the named ones, or all — newest first: restores each file's bytes,
 * mode, owner and mtime (or deletes what was created), drops the entry, then undoes the live effect
 * (reload ssh, sysctl -w the value the kernel had). Items edit some files in place (login.defs):
 * reverting one restores the bytes from before it, so every item applied after it on the same
 * file is reverted with it — and reported — rather than left journaled over bytes it no longer holds.
 */
function withLaterSharers(entries: readonly JournalEntry[], wanted: Set<string>): Set<string> {
  const closed = new Set(wanted);
  let grew = true;
  while (grew) {
    grew = false;
    entries.forEach((entry, i) => {
      if (!closed.has(entry.checkId)) return;
      const paths = new Set(entry.changes.filter((c) => c.kind !== 'created_dir').map((c) => c.path));
      for (const later of entries.slice(i + 1))
        if (!closed.has(later.checkId) && later.changes.some((c) => paths.has(c.path))) {
          closed.add(later.checkId);
          grew = true;
        }
    });
  }
  return closed;
}

export async function revertItems(options: { root: string; exec: Executor; stateDir: string; checkIds?: readonly string[] }): Promise<ReinforceItemResult[]> {
  const fs = new RootFs(options.root);
  const journal = loadJournal(options.stateDir);
  const wanted = options.checkIds ? new Set(options.checkIds) : null;
  const results: ReinforceItemResult[] = [];
  for (const id of wanted ?? []) if (!journal.entries.some((e) => e.checkId === id)) results.push({ checkId: id, status: 'failed', effect: 'none', reason: { key: 'audit_nothing_to_revert', values: { id } } });

  const closed = wanted ? withLaterSharers(journal.entries, wanted) : null;
  const reverted = [...journal.entries].reverse().filter((e) => !closed || closed.has(e.checkId));
  for (const entry of reverted) {
    undoEntry(fs, entry);
    journal.entries.splice(journal.entries.indexOf(entry), 1);
    saveJournal(options.stateDir, journal);
  }
  const seen = new Set<string>();
  for (const entry of reverted) {
    const commands = entry.deactivate.filter((c) => !seen.has([c.command, ...c.args].join(' ')));
    commands.forEach((c) => seen.add([c.command, ...c.args].join(' ')));
    const failed = await firstFailure(options.exec, commands);
    results.push({ checkId: entry.checkId, status: 'reverted', effect: entry.effect, service: entry.service, reason: failed ? { key: 'audit_apply_failed', values: { error: failed } } : undefined });
  }
  return results;
}
