const months: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };
const format = /^(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;

/** Common Log Format time, `22/Nov/2026:01:02:03 +0800`, as ms since the epoch; undefined if it is not one. */
export function parseClfTime(text: string): number | undefined {
  // Neighbouring lines mostly share their second.
  if (text === lastText) return lastTime;
  lastTime = convert(text);
  lastText = text;
  return lastTime;
}

let lastText = '';
let lastTime: number | undefined;

function convert(text: string): number | undefined {
  const m = format.exec(text);
  if (!m) return undefined;
  const month = months[m[2]!];
  if (month === undefined) return undefined;
  const [day, year, h, min, s] = [m[1], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number];
  if (day < 1 || day > 31 || h > 23 || min > 59 || s > 60) return undefined;
  const local = Date.UTC(year, month, day, h, min, s);
  // 31/Feb would roll into March: not a date.
  if (new Date(local).getUTCDate() !== day) return undefined;
  const offset = (m[7] === '-' ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9])) * 60_000;
  return local - offset;
}
