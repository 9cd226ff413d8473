-- Trust terminals (issue 28): a signed-in terminal that holds its address on the agent's super
-- whitelist while it beats. The token is kept only as its SHA-256, like a session's. The rows are
-- the console's (they follow a console sign-in); the list entry itself is the agent's.
CREATE TABLE trust_terminals (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  token_hash    TEXT NOT NULL UNIQUE,
  user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  ip            TEXT NOT NULL,
  user_agent    TEXT NOT NULL DEFAULT '',
  proxied       INTEGER NOT NULL DEFAULT 0 CHECK (proxied IN (0, 1)),
  started_at    INTEGER NOT NULL,
  last_beat     INTEGER NOT NULL,
  -- The end of the address's entry while this terminal holds it; NULL: holds nothing (not started,
  -- another source lists the address, or lapsed).
  trusted_until INTEGER,
  -- 1: another source listed the address when the terminal started, so it holds nothing.
  covered       INTEGER NOT NULL DEFAULT 0 CHECK (covered IN (0, 1)),
  keep_until    INTEGER,
  -- Set when the hold lapsed for want of beats (the expiry event was recorded).
  lapsed_at     INTEGER
);
CREATE INDEX trust_terminals_user ON trust_terminals (user_id);
