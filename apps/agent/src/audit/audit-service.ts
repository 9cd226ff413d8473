import path from 'node:path';
import {
  allChecks,
  applyPlan,
  checksById,
  loadJournal,
  planReinforcement,
  revertItems,
  runAudit,
  type Executor,
  type FactName,
} from '@rampart/audit';
import { withTransaction, type Db } from '@rampart/sqlite';
import type {
  AuditCheckResult,
  AuditInventorySnapshot,
  AuditLevel,
  AuditOutcome,
  AuditProgressView,
  AuditResultRow,
  AuditRun,
  AuditStarted,
  AuditStatus,
  AuditSummary,
  ModuleFlags,
  ReinforceItem,
  ReinforceItemResult,
  ReinforceProgress,
} from '@rampart/contracts';
import { openAuditDb } from './audit-db.ts';
import { takeInventorySnapshot } from './inventory-snapshot.ts';

/**
 * The security audit in the agent (DESIGN.md: the agent owns audits). Readings:
 * - Where: `root` and `executor` come from the agent's options. The agent's main entry passes `/`
 *   and the real executor (or `RAMPART_AUDIT_ROOT`, which the browser tests point at a fixture
 *   root they write); an agent started without them (every test agent) has no audit: starts and
 *   applies are refused with `audit_not_available`, so no test audits or changes the host's /etc.
 * - One thing at a time: an audit, or an apply, runs in the background; a second start, an apply
 *   during a run, or a revert during either is refused with the spec's "execution in progress".
 * - Kept: the last 20 runs and their results (`<state>/audit.db`). A run that was in progress when
 *   the agent stopped is marked `interrupted` when it starts again.
 * - Reinforcement plans against facts gathered again at apply time (the planner refuses a file
 *   that changed since it was read), without the slow collectors no fixable check uses (the find
 *   pass, dpkg --verify, apt-get -s). The journal is the engine's, in the agent's state dir, so
 *   everything applied can be reverted after a restart.
 */
export interface AuditTarget {
  root: string;
  executor: Executor;
}

export interface AuditServiceOptions {
  stateDir: string;
  /** Absent: this agent cannot audit (see above). */
  target: AuditTarget | null;
  moduleFlags: () => Promise<ModuleFlags>;
  log: (line: string) => void;
  now?: () => number;
  /** Another job that shares the audit's "execution in progress" (the patch tab's apt runs). */
  otherBusy?: () => boolean;
}

type Row = Record<string, unknown>;

/** How many runs the history keeps. */
export const keptRuns = 20;

const slowFacts: readonly FactName[] = ['filesystem', 'dpkgVerify', 'upgrades'];
const fixableChecks = allChecks.filter((check) => check.fix !== undefined);
const usedByFixes = new Set(fixableChecks.flatMap((check) => check.uses));
const skipForReinforce = slowFacts.filter((name) => !usedByFixes.has(name));

const json = <T>(value: unknown): T | null => (value === null || value === undefined ? null : (JSON.parse(String(value)) as T));

function toRun(row: Row): AuditRun {
  return {
    id: Number(row['id']),
    status: String(row['status']) as AuditRun['status'],
    account: String(row['account']),
    started_at: Number(row['started_at']),
    finished_at: row['finished_at'] === null ? null : Number(row['finished_at']),
    duration_ms: row['duration_ms'] === null ? null : Number(row['duration_ms']),
    score: row['score'] === null ? null : Number(row['score']),
    counts: json(row['counts']),
    failed_by_level: json(row['failed_by_level']),
    error: row['error'] === null ? null : String(row['error']),
  };
}

function toResultRow(row: Row): AuditResultRow | null {
  const check = checksById.get(String(row['check_id']));
  if (!check) return null;
  return {
    id: check.id,
    cis_section: check.cisSection,
    category: check.category,
    level: String(row['level']) as AuditLevel,
    outcome: String(row['outcome']) as AuditOutcome,
    fixable: Number(row['fixable']) === 1,
    title: check.title,
    advice: check.advice,
    evidence: JSON.parse(String(row['evidence'])) as AuditResultRow['evidence'],
  };
}

export class AuditService {
  readonly db: Db;
  readonly #options: AuditServiceOptions;
  readonly #now: () => number;
  #busy: 'audit' | 'reinforce' | null = null;
  #progress: AuditProgressView | null = null;
  #reinforce: ReinforceProgress = { running: false, done: 0, total: 0, results: [] };
  #closed = false;
  /** The background work in flight, for tests and close. */
  #work: Promise<void> = Promise.resolve();

  constructor(options: AuditServiceOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.db = openAuditDb(path.join(options.stateDir, 'audit.db'));
    const stopped = this.db.prepare("UPDATE audit_runs SET status = 'interrupted', finished_at = ? WHERE status = 'running'").run(this.#now());
    if (Number(stopped.changes) > 0) options.log(`audit: ${stopped.changes} run(s) in progress when the agent stopped marked interrupted`);
  }

  /** A run or an apply or revert is in progress. */
  get busy(): boolean {
    return this.#busy !== null;
  }

  get available(): boolean {
    return this.#options.target !== null;
  }

  /** Resolves when the background audit or apply in flight has finished (tests). */
  idle(): Promise<void> {
    return this.#work;
  }

  #latestRun(): AuditRun | null {
    const row = this.db.prepare('SELECT * FROM audit_runs ORDER BY id DESC LIMIT 1').get();
    return row ? toRun(row) : null;
  }

  #latestFinished(): AuditRun | null {
    const row = this.db.prepare("SELECT * FROM audit_runs WHERE status = 'finished' ORDER BY id DESC LIMIT 1").get();
    return row ? toRun(row) : null;
  }

  status(): AuditStatus {
    return {
      available: this.available,
      running: this.#busy === 'audit',
      run: this.#latestRun(),
      progress: this.#busy === 'audit' ? this.#progress : null,
      reinforce: { ...this.#reinforce, results: [...this.#reinforce.results] },
    };
  }

  #refusal(): string | null {
    if (!this.#options.target) return 'audit_not_available';
    if (this.#busy || this.#options.otherBusy?.()) return 'audit_execution_in_progress';
    return null;
  }

  start(account: string): AuditStarted {
    const refused = this.#refusal();
    if (refused) return { started: false, run_id: null, refused };
    const target = this.#options.target!;
    const runId = Number(this.db.prepare("INSERT INTO audit_runs (status, account, started_at) VALUES ('running', ?, ?)").run(account, this.#now()).lastInsertRowid);
    this.#busy = 'audit';
    this.#progress = { phase: 'facts', done: 0, total: allChecks.length, category: null };
    this.#work = this.#run(runId, target).finally(() => {
      this.#busy = null;
      this.#progress = null;
    });
    return { started: true, run_id: runId, refused: null };
  }

  async #run(runId: number, target: AuditTarget): Promise<void> {
    let summary: AuditSummary;
    try {
      const moduleFlags = await this.#options.moduleFlags().catch(() => undefined);
      ({ summary } = await runAudit({
        root: target.root,
        exec: target.executor,
        moduleFlags,
        now: this.#now,
        onProgress: (p) => {
          this.#progress = { phase: 'checks', done: p.done, total: p.total, category: checksById.get(p.checkId)?.category ?? null };
        },
      }));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#options.log(`audit run ${runId} failed: ${message}`);
      if (!this.#closed) this.db.prepare("UPDATE audit_runs SET status = 'failed', finished_at = ?, error = ? WHERE id = ?").run(this.#now(), message.slice(0, 500), runId);
      return;
    }
    // The report of this run shows the account and process findings of this moment, not of its export.
    const snapshot = this.#closed ? null : await takeInventorySnapshot(target, this.#now(), this.#options.log);
    // The agent stopped meanwhile: the row stays `running` and is marked interrupted at the next start.
    if (this.#closed || !snapshot) return;
    this.#store(runId, summary, snapshot);
  }

  #store(runId: number, summary: AuditSummary, snapshot: AuditInventorySnapshot): void {
    withTransaction(this.db, () => {
      this.db
        .prepare("UPDATE audit_runs SET status = 'finished', finished_at = ?, duration_ms = ?, score = ?, counts = ?, failed_by_level = ?, inventory = ? WHERE id = ?")
        .run(this.#now(), Math.round(summary.durationMs), summary.score, JSON.stringify(summary.counts), JSON.stringify(summary.failedByLevel), JSON.stringify(snapshot), runId);
      const insert = this.db.prepare('INSERT INTO audit_results (run_id, seq, check_id, category, level, outcome, fixable, evidence) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      summary.results.forEach((r: AuditCheckResult, seq) => insert.run(runId, seq, r.id, r.category, r.level, r.outcome, r.fixable ? 1 : 0, JSON.stringify(r.evidence)));
      // Keep the newest runs only.
      const old = this.db.prepare('SELECT id FROM audit_runs ORDER BY id DESC LIMIT -1 OFFSET ?').all(keptRuns).map((row) => Number(row['id']));
      for (const id of old) {
        this.db.prepare('DELETE FROM audit_results WHERE run_id = ?').run(id);
        this.db.prepare('DELETE FROM audit_runs WHERE id = ?').run(id);
      }
    });
  }

  /** A run's results (the latest finished run by default), filtered by level and outcome, in catalogue order. */
  results(query: { run_id?: number; level?: AuditLevel; outcome?: AuditOutcome; offset: number; limit: number }): { run: AuditRun | null; total: number; list: AuditResultRow[] } {
    const run = query.run_id !== undefined ? ((row) => (row ? toRun(row) : null))(this.db.prepare('SELECT * FROM audit_runs WHERE id = ?').get(query.run_id)) : this.#latestFinished();
    if (!run) return { run: null, total: 0, list: [] };
    const where = ['run_id = ?'];
    const args: (string | number)[] = [run.id];
    if (query.level) {
      where.push('level = ?');
      args.push(query.level);
    }
    if (query.outcome) {
      where.push('outcome = ?');
      args.push(query.outcome);
    }
    const clause = where.join(' AND ');
    const total = Number(this.db.prepare(`SELECT count(*) AS n FROM audit_results WHERE ${clause}`).get(...args)?.['n'] ?? 0);
    const rows = this.db.prepare(`SELECT * FROM audit_results WHERE ${clause} ORDER BY seq LIMIT ? OFFSET ?`).all(...args, query.limit, query.offset);
    return { run, total, list: rows.map(toResultRow).filter((r): r is AuditResultRow => r !== null) };
  }

  /** The account and process findings saved with a run; snapshot null for a run that has none (older, or unfinished). */
  inventory(runId: number): { found: boolean; snapshot: AuditInventorySnapshot | null } {
    const row = this.db.prepare('SELECT inventory FROM audit_runs WHERE id = ?').get(runId);
    if (!row) return { found: false, snapshot: null };
    return { found: true, snapshot: json<AuditInventorySnapshot>(row['inventory']) };
  }

  history(offset: number, limit: number): { total: number; list: AuditRun[] } {
    const total = Number(this.db.prepare('SELECT count(*) AS n FROM audit_runs').get()?.['n'] ?? 0);
    return { total, list: this.db.prepare('SELECT * FROM audit_runs ORDER BY id DESC LIMIT ? OFFSET ?').all(limit, offset).map(toRun) };
  }

  #lastResults(): Map<string, ReinforceItemResult> {
    return new Map(this.db.prepare('SELECT check_id, result FROM reinforce_last').all().map((row) => [String(row['check_id']), JSON.parse(String(row['result'])) as ReinforceItemResult]));
  }

  #remember(results: readonly ReinforceItemResult[]): void {
    if (this.#closed) return;
    const upsert = this.db.prepare('INSERT INTO reinforce_last (check_id, result, at) VALUES (?, ?, ?) ON CONFLICT (check_id) DO UPDATE SET result = excluded.result, at = excluded.at');
    withTransaction(this.db, () => {
      for (const result of results) upsert.run(result.checkId, JSON.stringify(result), this.#now());
    });
  }

  /** The fixable failed checks of the latest finished run, and every check whose fix is in the journal. */
  items(): ReinforceItem[] {
    const journal = loadJournal(this.#options.stateDir);
    const applied = new Map(journal.entries.map((entry) => [entry.checkId, entry]));
    const last = this.#lastResults();
    const run = this.#latestFinished();
    const ids = run ? this.db.prepare('SELECT check_id FROM audit_results WHERE run_id = ? AND fixable = 1 ORDER BY seq').all(run.id).map((row) => String(row['check_id'])) : [];
    for (const id of applied.keys()) if (!ids.includes(id)) ids.push(id);
    return ids.flatMap((id) => {
      const check = checksById.get(id);
      if (!check) return [];
      const entry = applied.get(id);
      const result = last.get(id) ?? null;
      return [{
        id,
        category: check.category,
        level: check.level,
        title: check.title,
        advice: check.advice,
        applied: entry !== undefined,
        applied_at: entry?.appliedAt ?? null,
        effect: entry?.effect ?? result?.effect ?? null,
        service: entry?.service ?? result?.service ?? null,
        last: result,
      }];
    });
  }

  /** Starts applying the selected items in the background; progress is in `status().reinforce`. */
  apply(checkIds: readonly string[]): { started: boolean; refused: string | null } {
    if (checkIds.length === 0) return { started: false, refused: 'audit_reinforce_nothing_selected' };
    const refused = this.#refusal();
    if (refused) return { started: false, refused };
    const target = this.#options.target!;
    this.#busy = 'reinforce';
    this.#reinforce = { running: true, done: 0, total: new Set(checkIds).size, results: [] };
    this.#work = this.#apply([...new Set(checkIds)], target).finally(() => {
      this.#busy = null;
      this.#reinforce = { ...this.#reinforce, running: false };
    });
    return { started: true, refused: null };
  }

  async #apply(checkIds: string[], target: AuditTarget): Promise<void> {
    try {
      const moduleFlags = await this.#options.moduleFlags().catch(() => undefined);
      const { facts } = await runAudit({ root: target.root, exec: target.executor, moduleFlags, checks: fixableChecks, skip: skipForReinforce, now: this.#now });
      const plan = planReinforcement(facts, checkIds);
      const results = await applyPlan(plan, {
        root: target.root,
        exec: target.executor,
        stateDir: this.#options.stateDir,
        now: this.#now,
        onProgress: (p) => {
          this.#reinforce = { running: true, done: p.done, total: p.total, results: [...this.#reinforce.results, p.result] };
        },
      });
      // Activation may add a reason to an applied item after its progress was reported.
      this.#reinforce = { ...this.#reinforce, results };
      this.#remember(results);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#options.log(`audit reinforcement failed: ${message}`);
      const failed = checkIds.map((checkId): ReinforceItemResult => ({ checkId, status: 'failed', effect: 'none', reason: { key: 'audit_apply_failed', values: { error: message.slice(0, 300) } } }));
      this.#reinforce = { running: true, done: failed.length, total: failed.length, results: failed };
      this.#remember(failed);
    }
  }

  /** Reverts the named items (and any applied after them on the same file), or every journaled item. */
  async revert(checkIds: readonly string[] | undefined): Promise<{ results: ReinforceItemResult[]; refused: string | null }> {
    const refused = this.#refusal();
    if (refused) return { results: [], refused };
    const target = this.#options.target!;
    this.#busy = 'reinforce';
    try {
      const results = await revertItems({ root: target.root, exec: target.executor, stateDir: this.#options.stateDir, ...(checkIds ? { checkIds } : {}) });
      this.#remember(results);
      return { results, refused: null };
    } finally {
      this.#busy = null;
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.db.close();
  }
}
