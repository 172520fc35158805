-- An authenticator app (TOTP, RFC 6238) as a person's own factor for fresh checks (docs/decisions/049-authenticator-app.md).
-- Like passkeys, a person's factors are theirs and live in the core database beside the sessions they check; the
-- shards keep this table empty (one schema).
CREATE TABLE authenticator_apps (
  id            TEXT PRIMARY KEY,
  user_id       TEXT NOT NULL REFERENCES users (id),
  -- The 20-byte secret, AES-GCM under a key derived from the deployment's OTP secret (iv and ciphertext, base64url):
  -- shown once while it is set up, never again, never logged.
  secret_sealed TEXT NOT NULL,
  -- The session that set it up: only it may confirm it, within 10 minutes.
  session_id    TEXT NOT NULL REFERENCES sessions (id),
  created_at    TEXT NOT NULL,
  -- Set once a current code was typed back; until then it checks nothing.
  confirmed_at  TEXT,
  -- The newest time step taken: a code of it or an earlier step is never taken again (RFC 6238 section 5.2).
  last_step     INTEGER,
  last_used_at  TEXT,
  -- Removed ones stay for the audit log and are never accepted again.
  removed_at    TEXT
) STRICT;
CREATE INDEX authenticator_apps_by_user ON authenticator_apps (user_id, removed_at);
-- At most one confirmed authenticator app a person at a time.
CREATE UNIQUE INDEX authenticator_apps_one_standing ON authenticator_apps (user_id) WHERE confirmed_at IS NOT NULL AND removed_at IS NULL;

-- A check may now be made by the authenticator app. A CHECK cannot be altered in SQLite, so fresh_checks is rebuilt
-- with the same rows and its index made again (nothing references it).
PRAGMA defer_foreign_keys = true;
CREATE TABLE fresh_checks_rebuilt (
  id          TEXT PRIMARY KEY,
  business_id TEXT NOT NULL,
  session_id  TEXT NOT NULL REFERENCES sessions (id),
  user_id     TEXT NOT NULL REFERENCES users (id),
  binding     TEXT NOT NULL CHECK (length(binding) BETWEEN 1 AND 300),
  method      TEXT NOT NULL CHECK (method IN ('passkey', 'totp', 'sms')),
  -- The passkey, the authenticator app or the code that made it.
  proof_id    TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  expires_at  TEXT NOT NULL,
  used_at     TEXT
) STRICT;
INSERT INTO fresh_checks_rebuilt SELECT id, business_id, session_id, user_id, binding, method, proof_id, created_at, expires_at, used_at FROM fresh_checks;
DROP TABLE fresh_checks;
ALTER TABLE fresh_checks_rebuilt RENAME TO fresh_checks;
CREATE INDEX fresh_checks_open ON fresh_checks (session_id, binding, created_at);
