-- Passkeys (issue 15, decision 024): a person's WebAuthn credentials, and the
-- single-use challenges of adding one, signing in with one and a fresh check.
-- Sign-in lives in the core database (decision 021); like sessions and
-- otp_challenges these tables are the core's, and the shards keep them empty
-- (every database gets every migration: one schema).

CREATE TABLE passkeys (
  id            TEXT PRIMARY KEY,
  user_id       TEXT NOT NULL REFERENCES users (id),
  -- base64url, as the browser and @simplewebauthn give it; one credential is one person's.
  credential_id TEXT NOT NULL UNIQUE,
  -- The COSE public key, base64url.
  public_key    TEXT NOT NULL,
  -- The authenticator's signature counter (0 for those that keep none): a lower one is a clone.
  counter       INTEGER NOT NULL DEFAULT 0 CHECK (counter >= 0),
  -- JSON array of transports ("internal", "usb", "hybrid", ...), the hint the browser gets back.
  transports    TEXT NOT NULL DEFAULT '[]',
  name          TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 1000),
  created_at    TEXT NOT NULL,
  last_used_at  TEXT,
  -- Removed passkeys stay (the audit log names them); a removed one is never accepted again.
  removed_at    TEXT
) STRICT;
CREATE INDEX passkeys_by_user ON passkeys (user_id, removed_at);

-- A challenge answers exactly one ceremony: it is bound to the session and the
-- person that asked, to its purpose, and for a check to what is being checked
-- (binding); it lives 2 minutes and is used up by one conditional UPDATE.
CREATE TABLE webauthn_challenges (
  id          TEXT PRIMARY KEY,
  session_id  TEXT NOT NULL REFERENCES sessions (id),
  user_id     TEXT NOT NULL REFERENCES users (id),
  purpose     TEXT NOT NULL CHECK (purpose IN ('register', 'sign-in', 'check')),
  binding     TEXT,
  challenge   TEXT NOT NULL UNIQUE,
  created_at  TEXT NOT NULL,
  expires_at  TEXT NOT NULL,
  used_at     TEXT,
  CHECK ((purpose = 'check') = (binding IS NOT NULL))
) STRICT;
CREATE INDEX webauthn_challenges_by_session ON webauthn_challenges (session_id, created_at);
