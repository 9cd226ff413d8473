import type { Db } from '@rampart/sqlite';
import { defaultRemoteAccess, remoteAccessSchema, type RemoteAccess } from '@rampart/contracts';

/**
 * Remote protection's access rule, kept in the firewall's database (its settings table): the
 * chain it becomes is part of the firewall's ruleset, so one store and one transaction hold both.
 */
export class RemoteRepo {
  readonly #db: Db;
  readonly #log: (line: string) => void;
  constructor(db: Db, log: (line: string) => void) {
    this.#db = db;
    this.#log = log;
  }

  access(): RemoteAccess {
    const row = this.#db.prepare("SELECT value FROM settings WHERE key = 'remote'").get();
    if (!row) return structuredClone(defaultRemoteAccess);
    const parsed = remoteAccessSchema.safeParse(JSON.parse(String(row['value'])));
    if (parsed.success) return parsed.data;
    this.#log('remote: stored settings are not valid; using the defaults');
    return structuredClone(defaultRemoteAccess);
  }

  setAccess(access: RemoteAccess): void {
    this.#db.prepare("INSERT INTO settings (key, value) VALUES ('remote', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(JSON.stringify(access));
  }
}
