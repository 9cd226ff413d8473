import { localDay, type DynamicOverview } from '@rampart/contracts';
import type { Db } from '@rampart/sqlite';
import type { Counters } from './counters.ts';
import { hourMs, minuteMs } from './rollups.ts';
import { num, str, type Row } from './sql.ts';

const topIps = 20;
const latestCount = 30;

function dayStartOf(time: number, offsetDays = 0): number {
  const d = new Date(time);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + offsetDays).getTime();
}

/** The dashboard's panels, each one query on the rollups (bench/dynamic.ts times them). */
export interface RollupReader {
  counts(now: number): DynamicOverview['counts'];
  trend(now: number): DynamicOverview['trend'];
  report(now: number): DynamicOverview['report'];
  areas(now: number): DynamicOverview['areas'];
  ips(now: number): DynamicOverview['ips'];
  latest(): DynamicOverview['latest'];
  security(now: number): DynamicOverview['security'];
  minutes(now: number): DynamicOverview['minutes'];
  overview(now: number): Omit<DynamicOverview, 'server_area'>;
}

export function rollupReader(db: Db, counters: Counters): RollupReader {
  const dayCount = db.prepare('SELECT coalesce(sum(count), 0) AS n FROM rollup_day WHERE bucket = ? AND attack = 1');
  const days = db.prepare('SELECT bucket, sum(count) AS n FROM rollup_day WHERE bucket >= ? AND attack = 1 GROUP BY bucket');
  const byKind = (attackOnly: boolean) =>
    db.prepare(
      `SELECT module, kind, sum(count) AS n FROM rollup_hour WHERE bucket >= ? ${attackOnly ? 'AND attack = 1' : ''}
       GROUP BY module, kind ORDER BY n DESC, module, kind`,
    );
  const reportStmt = byKind(true);
  const securityStmt = byKind(false);
  const areasStmt = db.prepare('SELECT area, sum(count) AS n FROM rollup_hour WHERE bucket >= ? AND attack = 1 GROUP BY area ORDER BY n DESC, area');
  const ipsStmt = db.prepare(`SELECT ip, max(area) AS area, sum(count) AS n FROM rollup_ip_hour WHERE bucket >= ? GROUP BY ip ORDER BY n DESC, ip LIMIT ${topIps}`);
  const latestStmt = db.prepare(`SELECT id, time, module, kind, ip, area FROM recent_attacks ORDER BY time DESC, id DESC LIMIT ${latestCount}`);
  const minutesStmt = db.prepare('SELECT bucket, sum(count) AS n FROM rollup_minute WHERE bucket >= ? AND attack = 1 GROUP BY bucket');
  // 24 hourly buckets: the current hour and the 23 before it.
  const since24h = (now: number) => now - (now % hourMs) - 23 * hourMs;
  const kindRows = (rows: Row[]) => rows.map((r) => ({ module: str(r['module']), kind: str(r['kind']), count: num(r['n']) }));

  const reader: RollupReader = {
    counts: (now) => ({
      today: num(dayCount.get(dayStartOf(now))?.['n']),
      yesterday: num(dayCount.get(dayStartOf(now, -1))?.['n']),
      total: counters.get('attacks'),
    }),
    trend(now) {
      const counts = new Map(days.all(dayStartOf(now, -6)).map((r) => [num(r['bucket']), num(r['n'])]));
      return Array.from({ length: 7 }, (_, i) => {
        const start = dayStartOf(now, i - 6);
        return { day: localDay(start), count: counts.get(start) ?? 0 };
      });
    },
    report: (now) => kindRows(reportStmt.all(since24h(now))),
    security: (now) => kindRows(securityStmt.all(since24h(now))),
    areas: (now) => areasStmt.all(since24h(now)).map((r) => ({ area: str(r['area']), count: num(r['n']) })),
    ips: (now) => ipsStmt.all(since24h(now)).map((r) => ({ ip: str(r['ip']), area: str(r['area']), count: num(r['n']) })),
    latest: () =>
      latestStmt.all().map((r) => ({ id: num(r['id']), time: num(r['time']), module: str(r['module']), kind: str(r['kind']), ip: str(r['ip']), area: str(r['area']) })),
    minutes(now) {
      const first = now - (now % minuteMs) - 59 * minuteMs;
      const counts = new Map(minutesStmt.all(first).map((r) => [num(r['bucket']), num(r['n'])]));
      return Array.from({ length: 60 }, (_, i) => ({ time: first + i * minuteMs, count: counts.get(first + i * minuteMs) ?? 0 }));
    },
    overview: (now) => ({
      at: now,
      counts: reader.counts(now),
      trend: reader.trend(now),
      report: reader.report(now),
      areas: reader.areas(now),
      ips: reader.ips(now),
      latest: reader.latest(),
      security: reader.security(now),
      minutes: reader.minutes(now),
    }),
  };
  return reader;
}
