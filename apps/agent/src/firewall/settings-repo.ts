import type { Db } from '@rampart/sqlite';
import { attackSettingsSchema, defaultAttackSettings, type AttackSettings } from '@rampart/contracts';

/** Attack-protection settings; a damaged value falls back to the defaults rather than stopping protection. */
export class SettingsRepo {
  readonly #db: Db;
  readonly #log: (line: string) => void;
  constructor(db: Db, log: (line: string) => void) {
    this.#db = db;
    this.#log = log;
  }

  attack(): AttackSettings {
    const row = this.#db.prepare("SELECT value FROM settings WHERE key = 'attack'").get();
    if (!row) return structuredClone(defaultAttackSettings);
    const parsed = attackSettingsSchema.safeParse(JSON.parse(String(row['value'])));
    if (parsed.success) return parsed.data;
    this.#log('firewall: stored attack settings are not valid; using the defaults');
    return structuredClone(defaultAttackSettings);
  }

  setAttack(settings: AttackSettings): void {
    this.#db.prepare("INSERT INTO settings (key, value) VALUES ('attack', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(JSON.stringify(settings));
  }
}
