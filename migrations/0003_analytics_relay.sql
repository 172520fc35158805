-- Analytics relay (functions/events): the claim protocol on analytics_seen, the
-- dead-letter parking lot, and the exact per-client rate-limit windows of
-- POST /api/events.

-- One row per event hash. status:
--   claimed  one consumer is relaying it now (claim_token, claimed_at: epoch ms);
--            a claim older than the claim timeout belongs to a consumer that died
--            and may be taken over;
--   pending  a relay failed and released the claim; the next delivery claims it;
--   relayed  the events service answered 2xx (or, with no endpoint, it is stored
--            in analytics_events). Final: later deliveries are acknowledged unsent.
-- Rows written before this migration (none were) count as relayed.
ALTER TABLE analytics_seen ADD COLUMN status TEXT NOT NULL DEFAULT 'relayed' CHECK (status IN ('pending', 'claimed', 'relayed'));
ALTER TABLE analytics_seen ADD COLUMN claim_token TEXT;
ALTER TABLE analytics_seen ADD COLUMN claimed_at INTEGER;
ALTER TABLE analytics_seen ADD COLUMN relayed_at TEXT;
ALTER TABLE analytics_seen ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0);
ALTER TABLE analytics_seen ADD COLUMN last_error TEXT;

-- Events the dead-letter queue delivered (their last retry failed), kept until
-- `npm run events:replay` puts them back on the EVENTS queue. generation grows
-- each time the same event is parked again, so a replay removes only the row it sent.
CREATE TABLE analytics_parked (
  hash         TEXT PRIMARY KEY CHECK (length(hash) = 64),
  message_json TEXT NOT NULL CHECK (json_valid(message_json)),
  parked_at    TEXT NOT NULL,
  generation   INTEGER NOT NULL DEFAULT 1 CHECK (generation >= 1),
  last_error   TEXT
) STRICT, WITHOUT ROWID;

-- POST /api/events: at most N events per client per window. A window starts at a
-- client's first request and lasts 60 s; one upsert counts exactly.
CREATE TABLE analytics_rate_windows (
  client       TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count        INTEGER NOT NULL CHECK (count >= 1)
) STRICT, WITHOUT ROWID;
CREATE INDEX analytics_rate_windows_by_start ON analytics_rate_windows (window_start);
