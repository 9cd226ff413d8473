/*
 * Dates as the server's (or the browser's) local clock shows them, the same in both languages.
 * Local days are what "today", daily archives, "once a day" notices and per-day lock-outs count in.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** An epoch-milliseconds time as its local day, YYYY-MM-DD. */
export function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** An epoch-milliseconds time as YYYY-MM-DD HH:mm:ss, local. */
export function localDateTime(ms: number): string {
  const d = new Date(ms);
  return `${localDay(ms)} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
