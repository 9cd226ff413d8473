import type { Db } from '../db/database.ts';
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
