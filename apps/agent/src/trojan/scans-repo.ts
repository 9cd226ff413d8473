import path from 'node:path';
import type { Db } from '@rampart/sqlite';
import type { TrojanHandled, TrojanResult, TrojanScan, TrojanScanKind, WebshellFileResult, WebshellFinding } from '@rampart/contracts';
import { likePattern } from '../firewall/rules-repo.ts';

type Row = Record<string, unknown>;

/** Stored results beyond this many are dropped, oldest first. */
export const maxStoredResults = 100_000;

const toScan = (row: Row): TrojanScan => ({
  id: Number(row['id']),
  kind: String(row['kind']) as TrojanScanKind,
  paths: JSON.parse(String(row['paths'])) as string[],
  state: String(row['state']) as TrojanScan['state'],
  done: Number(row['done']),
  total: Number(row['total']),
  walkDone: Number(row['walk_done']) === 1,
  currentPath: String(row['current_path']),
  flagged: Number(row['flagged']),
  unscanned: Number(row['unscanned']),
  account: String(row['account']),
  started: Number(row['started']),
  ended: row['ended'] === null ? null : Number(row['ended']),
});

const toResult = (row: Row): TrojanResult => ({
  id: Number(row['id']),
  scanId: row['scan_id'] === null ? null : Number(row['scan_id']),
  path: String(row['path']),
  name: path.basename(String(row['path'])),
  size: Number(row['size']),
  mtimeMs: Number(row['mtime_ms']),
  sha256: String(row['sha256']),
  language: String(row['language']) as TrojanResult['language'],
  risk: String(row['risk']) as TrojanResult['risk'],
  reason: String(row['reason']) as TrojanResult['reason'],
  rule: String(row['rule']),
  findings: JSON.parse(String(row['findings'])) as WebshellFinding[],
  handled: String(row['handled']) as TrojanHandled,
  isolateId: row['isolate_id'] === null ? null : Number(row['isolate_id']),
  found: Number(row['found']),
});

/** The strongest finding: its reason and rule name the result (an unscanned file's reason says why). */
export function leadingFinding(result: Pick<WebshellFileResult, 'status' | 'unscannedReason' | 'findings'>): { reason: TrojanResult['reason']; rule: string } {
  if (result.status === 'unscanned') return { reason: result.unscannedReason ?? 'unscanned_error', rule: '' };
  // The engine's verdict lists findings strongest first (packages/webshell/src/verdict.ts).
  const top = result.findings[0];
  return { reason: top?.reason ?? 'unscanned_error', rule: top?.rule ?? '' };
}

/** Scans and the files they (or the watch, scan id null) reported. */
export class ScansRepo {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  createScan(kind: TrojanScanKind, paths: readonly string[], account: string, now: number): TrojanScan {
    const id = Number(this.#db.prepare(`INSERT INTO trojan_scans (kind, paths, state, done, total, walk_done, current_path, flagged, unscanned, account, started, ended)
      VALUES (?, ?, 'start', 0, 0, 0, '', 0, 0, ?, ?, NULL)`).run(kind, JSON.stringify(paths), account, now).lastInsertRowid);
    return this.scan(id) as TrojanScan;
  }

  saveScan(scan: TrojanScan): void {
    this.#db.prepare(`UPDATE trojan_scans SET state = ?, done = ?, total = ?, walk_done = ?, current_path = ?, flagged = ?, unscanned = ?, ended = ? WHERE id = ?`)
      .run(scan.state, scan.done, scan.total, scan.walkDone ? 1 : 0, scan.currentPath, scan.flagged, scan.unscanned, scan.ended, scan.id);
  }

  scan(id: number): TrojanScan | null {
    const row = this.#db.prepare('SELECT * FROM trojan_scans WHERE id = ?').get(id);
    return row ? toScan(row) : null;
  }

  lastScan(): TrojanScan | null {
    const row = this.#db.prepare("SELECT * FROM trojan_scans WHERE state IN ('end', 'complete') ORDER BY id DESC LIMIT 1").get();
    return row ? toScan(row) : null;
  }

  scanPage(kind: TrojanScanKind | undefined, offset: number, limit: number): { total: number; list: TrojanScan[] } {
    const where = kind ? 'kind = ?' : '1';
    const args = kind ? [kind] : [];
    const total = Number(this.#db.prepare(`SELECT count(*) AS n FROM trojan_scans WHERE ${where}`).get(...args)?.['n'] ?? 0);
    const list = this.#db.prepare(`SELECT * FROM trojan_scans WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`).all(...args, limit, offset).map(toScan);
    return { total, list };
  }

  /** Scans left running by an agent that stopped: they ended then (the spec's `end`). */
  endInterrupted(now: number): number {
    return Number(this.#db.prepare("UPDATE trojan_scans SET state = 'end', ended = ? WHERE state IN ('start', 'scanning')").run(now).changes);
  }

  addResult(scanId: number | null, result: WebshellFileResult, handled: TrojanHandled, isolateId: number | null, now: number): number {
    const { reason, rule } = leadingFinding(result);
    return Number(this.#db.prepare(`INSERT INTO trojan_results (scan_id, path, size, mtime_ms, sha256, language, risk, reason, rule, findings, handled, isolate_id, found)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(scanId, result.path, result.size, result.mtimeMs, result.sha256, result.language, result.risk, reason, rule, JSON.stringify(result.findings), handled, isolateId, now).lastInsertRowid);
  }

  result(id: number): TrojanResult | null {
    const row = this.#db.prepare('SELECT * FROM trojan_results WHERE id = ?').get(id);
    return row ? toResult(row) : null;
  }

  setHandled(id: number, handled: TrojanHandled, isolateId: number | null): void {
    this.#db.prepare('UPDATE trojan_results SET handled = ?, isolate_id = ? WHERE id = ?').run(handled, isolateId, id);
  }

  resultPage(query: { scanId?: number; watch?: boolean; flaggedOnly: boolean; keyword?: string; offset: number; limit: number }): { total: number; list: TrojanResult[] } {
    const clauses: string[] = [];
    const args: (string | number)[] = [];
    if (query.scanId !== undefined) { clauses.push('scan_id = ?'); args.push(query.scanId); } else if (query.watch) clauses.push('scan_id IS NULL');
    if (query.flaggedOnly) clauses.push("risk IN ('high', 'medium')");
    if (query.keyword) { clauses.push("path LIKE ? ESCAPE '\\'"); args.push(likePattern(query.keyword)); }
    const where = clauses.length ? clauses.join(' AND ') : '1';
    const total = Number(this.#db.prepare(`SELECT count(*) AS n FROM trojan_results WHERE ${where}`).get(...args)?.['n'] ?? 0);
    const list = this.#db.prepare(`SELECT * FROM trojan_results WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`).all(...args, query.limit, query.offset).map(toResult);
    return { total, list };
  }

  /** Web shells found (high or medium) since `since`, by the watch and by scans. */
  foundSince(since: number): number {
    return Number(this.#db.prepare("SELECT count(*) AS n FROM trojan_results WHERE found >= ? AND risk IN ('high', 'medium')").get(since)?.['n'] ?? 0);
  }

  /** Keeps the newest `keep` results. */
  trimResults(keep = maxStoredResults): number {
    const row = this.#db.prepare('SELECT max(id) AS top FROM trojan_results').get();
    const top = Number(row?.['top'] ?? 0);
    if (top <= keep) return 0;
    return Number(this.#db.prepare('DELETE FROM trojan_results WHERE id <= ?').run(top - keep).changes);
  }
}
