-- Authenticator-app (TOTP) enrolments, one per account. The secret is sealed (AES-256-GCM under the
-- console's key file), never stored in clear. active = 0 until the user confirms a first code;
-- last_step is the last 30-second step accepted, so one code cannot be used twice.
CREATE TABLE totp_enrolments (
  user_id    INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret     TEXT NOT NULL,
  active     INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1)),
  last_step  INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);

-- Loose login check: an (account, IP) pair verified on this local day signs in without a code again.
CREATE TABLE sign_in_verified (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  ip      TEXT NOT NULL,
  day     TEXT NOT NULL,
  PRIMARY KEY (user_id, ip, day)
);
