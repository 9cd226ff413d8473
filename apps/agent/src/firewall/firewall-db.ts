import { openSqlite, type Db } from '@rampart/sqlite';

/**
 * The firewall's desired state on disk (`<state>/firewall.db`): rules, the three address lists,
 * the interception list, the attack settings and the common areas. The kernel ruleset is rebuilt from it at start.
 * Entries are keyed by their text, so adding one twice is a no-op, and `is_host` splits single
 * addresses (hash sets) from networks and ranges (interval sets).
 */
const migrations: readonly string[] = [
  `
  CREATE TABLE rules (
    id         INTEGER PRIMARY KEY,
    direction  TEXT NOT NULL,
    protocol   TEXT NOT NULL,
    ports      TEXT NOT NULL,
    ips        TEXT NOT NULL,
    areas      TEXT NOT NULL,
    action     TEXT NOT NULL,
    priority   INTEGER NOT NULL,
    enabled    INTEGER NOT NULL,
    remark     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX rules_direction ON rules (direction, priority);

  CREATE TABLE list_entries (
    id         INTEGER PRIMARY KEY,
    list       TEXT NOT NULL,
    address    TEXT NOT NULL,
    is_host    INTEGER NOT NULL,
    remark     TEXT NOT NULL,
    added_by   TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    expires_at INTEGER
  ) STRICT;
  CREATE UNIQUE INDEX list_entries_address ON list_entries (list, address);
  CREATE INDEX list_entries_nets ON list_entries (list, is_host);
  CREATE INDEX list_entries_expiry ON list_entries (expires_at) WHERE expires_at IS NOT NULL;

  CREATE TABLE intercepts (
    id         INTEGER PRIMARY KEY,
    ip         TEXT NOT NULL UNIQUE,
    reason     TEXT NOT NULL,
    detail     TEXT NOT NULL,
    blocked_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX intercepts_expiry ON intercepts (expires_at);

  CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;
  `,
  // Common areas (named sets of countries and provinces that rules reference as `common:<id>`),
  // kept here because the kernel is rebuilt from this file at boot, without the console; and
  // where a super-whitelist entry came from (by hand, the panel sign-in, the trust terminal).
  `
  CREATE TABLE common_areas (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL COLLATE NOCASE UNIQUE,
    members    TEXT NOT NULL,
    remark     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  ALTER TABLE list_entries ADD COLUMN source TEXT NOT NULL DEFAULT 'manual';
  `,
];

export function openFirewallDb(path: string): Db {
  return openSqlite(path, migrations, 'firewall');
}
