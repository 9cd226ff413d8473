const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// A line stamped a little ahead of the clock is clock skew, not last year.
const futureSlackMs = 24 * 3600_000;

/**
 * Reads RFC 3164's `Nov 22 01:02:03`, which has neither year nor zone: the host's local time, in the
 * year that puts it no later than `now` (plus a day of slack), so a December line read in January
 * lands in the year before. Undefined for a date that does not exist.
 */
export function classicSyslogTime(month: string, day: number, hms: string, now: number): number | undefined {
  // Lines come in bursts that share a stamp: remember the last answer (for the same hour of the clock).
  const hour = Math.floor(now / 3600_000);
  if (last.month === month && last.day === day && last.hms === hms && last.hour === hour) return last.time;
  const time = convert(month, day, hms, now);
  last = { month, day, hms, hour, time };
  return time;
}

let last: { month: string; day: number; hms: string; hour: number; time: number | undefined } = { month: '', day: 0, hms: '', hour: 0, time: undefined };

function convert(month: string, day: number, hms: string, now: number): number | undefined {
  const m = months.indexOf(month);
  const [h, min, s] = hms.split(':').map(Number) as [number, number, number];
  if (m < 0 || day < 1 || day > 31 || h > 23 || min > 59 || s > 60) return undefined;
  const year = new Date(now).getFullYear();
  for (const y of [year, year - 1]) {
    const t = new Date(y, m, day, h, min, s).getTime();
    // Feb 29 in a year without one rolls into March: not this year.
    if (new Date(t).getDate() !== day) continue;
    if (t <= now + futureSlackMs) return t;
  }
  return undefined;
}
