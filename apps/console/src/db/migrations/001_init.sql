-- Panel accounts. Names compare case-insensitively (the spec: account names are case-insensitive).
CREATE TABLE users (
  id            INTEGER PRIMARY KEY,
  username      TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  role          TEXT NOT NULL CHECK (role IN ('admin', 'technician', 'auditor', 'other')),
  status        INTEGER NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
  remark        TEXT NOT NULL DEFAULT '',
  lang          TEXT NOT NULL DEFAULT 'zh-CN',
  created_at    INTEGER NOT NULL,
  last_login_at INTEGER,
  last_login_ip TEXT
);

-- Sessions: only the SHA-256 of the opaque token is stored. expires_at NULL = never (session timeout 0).
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  seen_at    INTEGER NOT NULL,
  expires_at INTEGER,
  ip         TEXT NOT NULL,
  user_agent TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user ON sessions(user_id);

-- Failed sign-ins per client IP per local day.
CREATE TABLE login_failures (
  ip    TEXT NOT NULL,
  day   TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (ip, day)
);

-- Settings as JSON values under stable keys.
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- The one registration of this console (row id 1).
CREATE TABLE registration (
  id             INTEGER PRIMARY KEY CHECK (id = 1),
  product_key    TEXT NOT NULL,
  product_id     TEXT NOT NULL,
  device_id      TEXT NOT NULL,
  expires_at     INTEGER NOT NULL,
  transfers_left INTEGER NOT NULL,
  registered_at  INTEGER NOT NULL,
  valid          INTEGER NOT NULL DEFAULT 1
);

-- Desired state of each module switch; the agent is made to match.
CREATE TABLE modules (
  key    TEXT PRIMARY KEY,
  status INTEGER NOT NULL CHECK (status IN (0, 1))
);

-- Notices (the header badge counts unread ones; the log issue fills them).
CREATE TABLE notices (
  id       INTEGER PRIMARY KEY,
  title    TEXT NOT NULL,
  content  TEXT NOT NULL DEFAULT '',
  add_time INTEGER NOT NULL,
  readed   INTEGER NOT NULL DEFAULT 0
);
