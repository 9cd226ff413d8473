import { minutesOfDay, type RemoteWindow } from '@rampart/contracts';

/*
 * Remote windows are written in the server's local time; the kernel's `meta hour` counts UTC
 * seconds of the day and `meta day` the UTC weekday (0 is Sunday). So windows are converted here,
 * with the UTC offset in force when the ruleset is planned, and planned again when it changes (DST).
 * nft is run with TZ=UTC so that it does not convert the hours a second time.
 */

const dayMinutes = 1440;
const weekMinutes = 7 * dayMinutes;

/** A piece of a window inside one UTC day: [from, to) in minutes of that day, on these UTC weekdays. */
export interface UtcWindowPiece {
  days: number[];
  from: number;
  to: number;
}

/** Local windows → UTC pieces, grouped by equal hours, in a stable order. `offsetMinutes` is minutes east of UTC. */
export function utcWindowPieces(windows: readonly RemoteWindow[], offsetMinutes: number): UtcWindowPiece[] {
  const byHours = new Map<string, { from: number; to: number; days: Set<number> }>();
  for (const window of windows) {
    const length = minutesOfDay(window.end) - minutesOfDay(window.start);
    for (const day of new Set(window.days)) {
      let start = (((day * dayMinutes + minutesOfDay(window.start) - offsetMinutes) % weekMinutes) + weekMinutes) % weekMinutes;
      const end = start + length;
      while (start < end) {
        const dayStart = Math.floor(start / dayMinutes) * dayMinutes;
        const pieceEnd = Math.min(end, dayStart + dayMinutes);
        const from = start - dayStart;
        const to = pieceEnd - dayStart;
        const key = `${from}-${to}`;
        const entry = byHours.get(key) ?? { from, to, days: new Set<number>() };
        entry.days.add((dayStart / dayMinutes) % 7);
        byHours.set(key, entry);
        start = pieceEnd;
      }
    }
  }
  return [...byHours.values()]
    .map((entry) => ({ days: [...entry.days].sort((a, b) => a - b), from: entry.from, to: entry.to }))
    .sort((a, b) => a.from - b.from || a.to - b.to || a.days[0]! - b.days[0]!);
}

const two = (n: number) => String(n).padStart(2, '0');

/** `meta hour` bounds are inclusive to the second: [from, to) minutes become "HH:MM:00"-"HH:MM:59". */
export function hourRange(piece: UtcWindowPiece): [string, string] {
  const last = piece.to * 60 - 1;
  return [`${two(Math.floor(piece.from / 60))}:${two(piece.from % 60)}:00`, `${two(Math.floor(last / 3600))}:${two(Math.floor((last % 3600) / 60))}:${two(last % 60)}`];
}

/** Does a UTC moment fall inside the windows? (The evaluator's answer, which must equal the kernel's.) */
export function insideWindows(windows: readonly RemoteWindow[], offsetMinutes: number, at: number): boolean {
  if (windows.length === 0) return true;
  const date = new Date(at);
  const minute = date.getUTCHours() * 60 + date.getUTCMinutes();
  return utcWindowPieces(windows, offsetMinutes).some((piece) => piece.days.includes(date.getUTCDay()) && minute >= piece.from && minute < piece.to);
}

/**
 * When the UTC offset next changes after `now` (a DST switch), to the minute; null when it does
 * not change within `horizonDays`. `offsetAt` gives the offset (minutes east) at a moment.
 */
export function nextOffsetChange(now: number, offsetAt: (at: number) => number, horizonDays = 400): number | null {
  const current = offsetAt(now);
  const hour = 3_600_000;
  let low = now;
  for (let at = now + hour; at <= now + horizonDays * 86_400_000; at += hour) {
    if (offsetAt(at) !== current) {
      // The switch is within (low, at]: narrow it down to the minute.
      let high = at;
      while (high - low > 60_000) {
        const mid = low + Math.floor((high - low) / 120_000) * 60_000;
        if (offsetAt(mid) === current) low = mid;
        else high = mid;
      }
      return high;
    }
    low = at;
  }
  return null;
}

/** The offset of the process's time zone at a moment (minutes east of UTC). */
export function localOffsetAt(at: number): number {
  return -new Date(at).getTimezoneOffset();
}
