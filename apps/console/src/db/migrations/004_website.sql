-- Website protection (issue 6): the desired state the console keeps and turns into the gateway's
-- configuration file. The gateway runs unprivileged and only reads that file; the console is the
-- one writer. Lists (listen, server_names, upstreams, trusted_proxies) are JSON arrays.
-- tls_key is sealed (AES-256-GCM under the console's key file), never stored in clear.
CREATE TABLE website_sites (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  name            TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('on', 'off')),
  running         INTEGER NOT NULL CHECK (running IN (0, 1)),
  listen          TEXT NOT NULL,
  server_names    TEXT NOT NULL,
  upstreams       TEXT NOT NULL,
  tls_cert        TEXT NOT NULL DEFAULT '',
  tls_key         TEXT NOT NULL DEFAULT '',
  trusted_proxies TEXT NOT NULL DEFAULT '[]',
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);

-- One row per settings group (base, request, protect, sql, attack, response, lists), JSON of the
-- website.ts schema; a missing row means the defaults. Module-wide: every site uses them.
CREATE TABLE website_settings (
  tab   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- The interception list and the authorization list: addresses with an end time.
CREATE TABLE website_timed (
  list       TEXT NOT NULL CHECK (list IN ('intercept', 'author')),
  ip         TEXT NOT NULL,
  reason     TEXT NOT NULL,
  detail     TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (list, ip)
);
CREATE INDEX website_timed_expiry ON website_timed (list, expires_at);
