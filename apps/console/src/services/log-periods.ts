import type { LogPeriod } from '@rampart/contracts';

function startOfLocalDay(time: number, daysBack = 0): number {
  const day = new Date(time);
  day.setHours(0, 0, 0, 0);
  day.setDate(day.getDate() - daysBack);
  return day.getTime();
}

/**
 * The time range [from, to) of a log period in the server's local days: today, yesterday and the
 * day before are whole days; today and 7 / 30 / 90 days run from the start of the day (N-1 days
 * ago) with no upper bound, so what is stored while the page is open shows up.
 */
export function periodRange(period: LogPeriod, now: number): { from: number; to?: number } {
  switch (period) {
    case 'today':
      return { from: startOfLocalDay(now) };
    case 'yesterday':
      return { from: startOfLocalDay(now, 1), to: startOfLocalDay(now) };
    case 'before_yesterday':
      return { from: startOfLocalDay(now, 2), to: startOfLocalDay(now, 1) };
    case '7d':
      return { from: startOfLocalDay(now, 6) };
    case '30d':
      return { from: startOfLocalDay(now, 29) };
    case '90d':
      return { from: startOfLocalDay(now, 89) };
  }
}
