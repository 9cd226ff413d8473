const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const pad = (n: number, width = 2, fill = '0'): string => String(n).padStart(width, fill);

/**
 * RFC 5424 TIMESTAMP: RFC 3339 with milliseconds and the local zone's offset (`Z` when it is zero).
 * `-` (NILVALUE) when `time` is not a date the grammar can carry (not finite, or a year outside 0000-9999).
 */
export function rfc3339(time: number): string {
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return '-';
  let offset = -date.getTimezoneOffset();
  // Zones before standard time had offsets with seconds (LMT), which HH:MM cannot say: use UTC then.
  if (!Number.isInteger(offset)) offset = 0;
  // Read the wall-clock fields from the shifted instant so they always agree with the offset printed.
  const wall = new Date(date.getTime() + offset * 60_000);
  const year = wall.getUTCFullYear();
  if (year < 0 || year > 9999) return '-';
  const day = `${pad(year, 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`;
  const clock = `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}.${pad(wall.getUTCMilliseconds(), 3)}`;
  const zone = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${day}T${clock}${zone}`;
}

/**
 * RFC 3164 TIMESTAMP `Mmm dd hh:mm:ss` in local time, the day padded with a space.
 * The format has no "unknown" value; RFC 3164 §4.3.2 has a relay put in its own time instead, so do that.
 */
export function rfc3164Time(time: number): string {
  let date = new Date(time);
  if (Number.isNaN(date.getTime())) date = new Date();
  const clock = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return `${months[date.getMonth()] ?? 'Jan'} ${pad(date.getDate(), 2, ' ')} ${clock}`;
}
