-- Sign-in groundwork (functions/auth): exact one-time-code counters, and the
-- indexes the code and session checks read.

-- Hourly counters of one-time codes, per phone number (scope 'phone', key the
-- msisdn) and per account (scope 'account', key the user id). A window starts at
-- the first code or failure and lasts one hour (epoch ms). A code is only stored
-- in the same D1 batch that counts it, and that batch rolls back when a count
-- would pass its limit, so concurrent requests never exceed it.
CREATE TABLE otp_counters (
  scope        TEXT NOT NULL CHECK (scope IN ('phone', 'account')),
  key          TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  sends        INTEGER NOT NULL DEFAULT 0 CHECK (sends >= 0),
  failures     INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
  PRIMARY KEY (scope, key)
) STRICT, WITHOUT ROWID;

-- The newest code a session asked for (verification and the resend cooldown).
CREATE INDEX otp_challenges_by_session ON otp_challenges (session_id, created_at);
