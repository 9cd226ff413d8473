import { eventKindDef, internalArea, isAttackKind, isInternalAddress } from '@rampart/contracts';
import type { Db } from '@rampart/sqlite';
import type { Counters } from './counters.ts';

/** The area of an address: an ISO country code, `internal`, or '' when unknown. */
export type AreaOf = (ip: string) => string;

/** What the rollups need of a stored event. Each one counts once, folded or not. */
export interface RollupEvent {
  time: number;
  kind: string;
  module: string;
  ip: string;
  /** How many events this stands for (a folded row's 1 + repeats, in the back-fill); default 1. */
  copies?: number;
}

export const minuteMs = 60_000;
export const hourMs = 3_600_000;
/** Minute rows are for the live hour; older ones are dropped as the writer goes. */
const keepMinutesMs = 48 * hourMs;
/** The newest attacks kept for the live list (the page shows 30). */
export const recentAttacksKept = 100;

/** Local midnight of a time, remembering the last day's bounds so a burst costs no Date work. */
export function localDayStarts(): (time: number) => number {
  let start = 0;
  let end = -1;
  return (time) => {
    if (time >= start && time < end) return start;
    const d = new Date(time);
    start = new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
    end = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
    return start;
  };
}

/** Only address areas without geo data: private ranges are `internal`, the rest unknown. */
export const defaultAreaOf: AreaOf = (ip) => (ip !== '' && isInternalAddress(ip) ? internalArea : '');

export interface Rollups {
  /** Counts a written batch; call inside the flush's transaction. */
  add(events: readonly RollupEvent[]): void;
  /** Counts events stored before the rollups (the back-fill): as `add`, but old attacks stay out of the live list. */
  addOld(events: readonly RollupEvent[]): void;
  /** Drops buckets that start before `time` (retention); call inside a transaction. */
  pruneBefore(time: number): void;
}

interface Cell {
  bucket: number;
  module: string;
  kind: string;
  area: string;
  attack: number;
  count: number;
}

/**
 * Rollups of security events (catalogue category `security`): per minute, hour and local day by
 * module, kind and area; attacks (contracts `attackEventKinds`) per address per hour; the newest
 * attacks. A batch is gathered in memory first, so an attack wave costs one UPSERT per cell.
 */
export function openRollups(db: Db, counters: Counters, areaOf: AreaOf, now: () => number): Rollups {
  const upsert = (table: string) =>
    db.prepare(
      `INSERT INTO ${table} (bucket, module, kind, area, attack, count) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (bucket, module, kind, area) DO UPDATE SET count = count + excluded.count`,
    );
  const tables = { minute: upsert('rollup_minute'), hour: upsert('rollup_hour'), day: upsert('rollup_day') };
  const upsertIp = db.prepare(
    `INSERT INTO rollup_ip_hour (bucket, ip, area, count) VALUES (?, ?, ?, ?)
     ON CONFLICT (bucket, ip) DO UPDATE SET count = count + excluded.count`,
  );
  const insertRecent = db.prepare('INSERT INTO recent_attacks (time, module, kind, ip, area) VALUES (?, ?, ?, ?, ?)');
  const trimRecent = db.prepare(`DELETE FROM recent_attacks WHERE id <= (SELECT max(id) FROM recent_attacks) - ${recentAttacksKept}`);
  const dropMinutes = db.prepare('DELETE FROM rollup_minute WHERE bucket < ?');
  const prune = ['rollup_minute', 'rollup_hour', 'rollup_day', 'rollup_ip_hour'].map((t) => db.prepare(`DELETE FROM ${t} WHERE bucket < ?`));
  const prunedAttacks = db.prepare('SELECT coalesce(sum(count), 0) AS n FROM rollup_day WHERE bucket < ? AND attack = 1');
  const dayStart = localDayStarts();
  // Attack waves come from few addresses again and again: remember their areas.
  const areas = new Map<string, string>();
  const area = (ip: string): string => {
    let a = areas.get(ip);
    if (a === undefined) {
      a = ip === '' ? '' : areaOf(ip);
      if (areas.size >= 50_000) areas.clear();
      areas.set(ip, a);
    }
    return a;
  };
  let minutesPrunedAt = 0;

  function bump(cells: Map<string, Cell>, bucket: number, e: RollupEvent, a: string, attack: number): void {
    const key = `${bucket}\u0001${e.module}\u0001${e.kind}\u0001${a}`;
    const cell = cells.get(key);
    const n = e.copies ?? 1;
    if (cell) cell.count += n;
    else cells.set(key, { bucket, module: e.module, kind: e.kind, area: a, attack, count: n });
  }

  function count(events: readonly RollupEvent[], live: boolean): void {
    const minute = new Map<string, Cell>();
    const hour = new Map<string, Cell>();
    const day = new Map<string, Cell>();
    const ips = new Map<string, { bucket: number; ip: string; area: string; count: number }>();
    const recent: { e: RollupEvent; area: string }[] = [];
    let attacks = 0;
    const t = now();
    for (const e of events) {
      if (eventKindDef(e.kind)?.category !== 'security') continue;
      const a = area(e.ip);
      const attack = isAttackKind(e.kind) ? 1 : 0;
      const h = e.time - (e.time % hourMs);
      // Late events (an import, a backlog) skip the minute table: only the live hour reads it.
      if (e.time >= t - keepMinutesMs) bump(minute, e.time - (e.time % minuteMs), e, a, attack);
      bump(hour, h, e, a, attack);
      bump(day, dayStart(e.time), e, a, attack);
      if (!attack) continue;
      const n = e.copies ?? 1;
      attacks += n;
      if (live) recent.push({ e, area: a });
      if (e.ip !== '') {
        const key = `${h}\u0001${e.ip}`;
        const cell = ips.get(key);
        if (cell) cell.count += n;
        else ips.set(key, { bucket: h, ip: e.ip, area: a, count: n });
      }
    }
    for (const [cells, stmt] of [[minute, tables.minute], [hour, tables.hour], [day, tables.day]] as const) {
      for (const c of cells.values()) stmt.run(c.bucket, c.module, c.kind, c.area, c.attack, c.count);
    }
    for (const c of ips.values()) upsertIp.run(c.bucket, c.ip, c.area, c.count);
    for (const { e, area: a } of recent.slice(-recentAttacksKept)) insertRecent.run(e.time, e.module, e.kind, e.ip, a);
    if (recent.length > 0) trimRecent.run();
    counters.add('attacks', attacks);
    if (t - minutesPrunedAt >= hourMs) {
      minutesPrunedAt = t;
      dropMinutes.run(t - keepMinutesMs);
    }
  }

  return {
    add: (events) => count(events, true),
    addOld: (events) => count(events, false),
    pruneBefore(time) {
      counters.add('attacks', -Number(prunedAttacks.get(time)?.['n'] ?? 0));
      for (const stmt of prune) stmt.run(time);
    },
  };
}
