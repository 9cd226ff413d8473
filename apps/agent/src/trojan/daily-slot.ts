/**
 * The daily schedule: "HH:MM" in the server's local time. A slot is the instant that time of day
 * falls on; a tick fires when a new slot has passed since the last one fired (a slot already past
 * when the schedule is set or the agent starts does not fire: the next one does).
 */
export function lastSlotAtOrBefore(now: number, time: string): number {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  const slot = new Date(now);
  slot.setHours(hours, minutes, 0, 0);
  if (slot.getTime() > now) {
    slot.setDate(slot.getDate() - 1);
    slot.setHours(hours, minutes, 0, 0);
  }
  return slot.getTime();
}

export class DailySlot {
  #time: string;
  #fired: number;

  constructor(time: string, now: number) {
    this.#time = time;
    this.#fired = lastSlotAtOrBefore(now, time);
  }

  /** A new time of day: the slots already past today do not fire. */
  reset(time: string, now: number): void {
    if (time === this.#time) return;
    this.#time = time;
    this.#fired = lastSlotAtOrBefore(now, time);
  }

  /** True once per slot, at the first tick at or after it. */
  due(now: number): boolean {
    const slot = lastSlotAtOrBefore(now, this.#time);
    if (slot <= this.#fired) return false;
    this.#fired = slot;
    return true;
  }
}
