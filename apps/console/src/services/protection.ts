import type { Db } from '../db/database.ts';
import type { ConsoleContext } from '../context.ts';
import { getSetting, setSetting } from '../db/settings.ts';

export interface ProtectionStatus {
  mode: 'on' | 'temp_off' | 'off';
  minutes_left: number | null;
}

/** Protection state now; a temporary disable whose time is up reads (and is stored) as on again. */
export function protectionStatus(db: Db, now: number): ProtectionStatus {
  const p = getSetting(db, 'protection');
  if (p.mode === 'temp_off') {
    if (p.until === null || p.until <= now) {
      setSetting(db, 'protection', { mode: 'on', until: null });
      return { mode: 'on', minutes_left: null };
    }
    return { mode: 'temp_off', minutes_left: Math.ceil((p.until - now) / 60_000) };
  }
  return { mode: p.mode, minutes_left: null };
}

/** Turns protection off for `minutes`; it comes back by itself when the time is up. */
export async function pauseProtection(ctx: ConsoleContext, minutes: number, _account: string): Promise<void> {
  setSetting(ctx.db, 'protection', { mode: 'temp_off', until: ctx.now() + minutes * 60_000 });
}

/** Turns protection back on now. */
export async function resumeProtection(ctx: ConsoleContext, _account: string): Promise<void> {
  setSetting(ctx.db, 'protection', { mode: 'on', until: null });
}
