import type { Db } from '@rampart/sqlite';

export type CounterName = 'events' | 'photos' | 'attacks';

/** Row counts kept beside the rows: callers add to them inside the transaction that changed the rows. */
export interface Counters {
  get(name: CounterName): number;
  add(name: CounterName, delta: number): void;
}

export function openCounters(db: Db): Counters {
  const select = db.prepare('SELECT value FROM counters WHERE name = ?');
  const update = db.prepare('UPDATE counters SET value = value + ? WHERE name = ?');
  return {
    get: (name) => Number(select.get(name)?.['value'] ?? 0),
    add: (name, delta) => {
      if (delta !== 0) update.run(delta, name);
    },
  };
}
