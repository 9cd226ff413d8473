import { eventKindDef, type EventParams } from '@rampart/contracts';

/** Simple log mode folds a kind marked foldable in the catalogue, and only when the event names an IP. */
export function isFoldable(kind: string, ip: string): boolean {
  return ip !== '' && eventKindDef(kind)?.foldable === true;
}

/**
 * What, beside the day, the kind and the IP, keeps folded events apart: the values of the kind's
 * `foldBy` parameters (the attack kind, the rule, the reason, the site), '' for a kind without any.
 */
export function foldBy(kind: string, params: EventParams): string {
  const names = eventKindDef(kind)?.foldBy;
  if (!names) return '';
  return names.map((name) => String(params[name] ?? '')).join('\u0000');
}

/**
 * Returns a function giving the local calendar day of a time (ms) as yyyymmdd. It remembers the
 * bounds of the last day it computed, so a burst of events from one day costs no Date work.
 */
export function localDayCounter(): (time: number) => number {
  let start = 0;
  let end = -1;
  let day = 0;
  return (time) => {
    if (time >= start && time < end) return day;
    const d = new Date(time);
    const y = d.getFullYear();
    const m = d.getMonth();
    const date = d.getDate();
    day = y * 10_000 + (m + 1) * 100 + date;
    start = new Date(y, m, date).getTime();
    end = new Date(y, m, date + 1).getTime();
    return day;
  };
}

/** Key under which one batch gathers repeats before writing them: one day, one kind, one IP, one `foldBy`. */
export function foldKey(day: number, kind: string, ip: string, by: string): string {
  return `${day}\u0001${kind}\u0001${ip}\u0001${by}`;
}
