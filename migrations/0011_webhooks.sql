-- Webhooks going out (issue 12, points 7 and 8; docs/webhooks.md). A business's
-- endpoints, the events that happened to it, one delivery per endpoint and event
-- (the outbox: written in the same D1 batch as the change the event describes,
-- then sent to the WEBHOOKS queue), and every attempt of a delivery (the log).
-- Instants: epoch ms, except the endpoint's created/updated (ISO, like other settings rows).

CREATE TABLE webhook_endpoints (
  id                           TEXT PRIMARY KEY CHECK (id LIKE 'we\_%' ESCAPE '\'),
  business_id                  TEXT NOT NULL REFERENCES businesses (id),
  url                          TEXT NOT NULL CHECK (length(url) BETWEEN 8 AND 2000),
  description                  TEXT NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  -- A JSON array of event types (functions/webhooks/types.ts).
  event_types                  TEXT NOT NULL CHECK (json_valid(event_types) AND json_type(event_types) = 'array'),
  secret                       TEXT NOT NULL,
  -- While a secret is being rolled, deliveries are signed with both until this instant.
  previous_secret              TEXT,
  previous_secret_expires_at   INTEGER,
  status                       TEXT NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  disabled_reason              TEXT,
  disabled_at                  INTEGER,
  -- The last 2xx; an endpoint whose deliveries all failed since before a delivery's event is disabled (docs/webhooks.md).
  last_success_at              INTEGER,
  created_by                   TEXT REFERENCES users (id),
  created_at                   TEXT NOT NULL,
  updated_at                   TEXT NOT NULL,
  CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL)),
  CHECK ((status = 'disabled') = (disabled_reason IS NOT NULL))
) STRICT;
CREATE INDEX webhook_endpoints_by_business ON webhook_endpoints (business_id, created_at, id);

CREATE TABLE webhook_events (
  id          TEXT PRIMARY KEY CHECK (id LIKE 'evt\_%' ESCAPE '\'),
  business_id TEXT NOT NULL REFERENCES businesses (id),
  type        TEXT NOT NULL,
  payload     TEXT NOT NULL CHECK (json_valid(payload)),
  created_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_events_by_business ON webhook_events (business_id, created_at, id);

CREATE TABLE webhook_deliveries (
  id              TEXT PRIMARY KEY,
  business_id     TEXT NOT NULL REFERENCES businesses (id),
  endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id        TEXT NOT NULL REFERENCES webhook_events (id),
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at INTEGER NOT NULL,
  -- The outbox marker: when the delivery was handed to the WEBHOOKS queue (NULL: not yet).
  queued_at       INTEGER,
  -- One consumer sends a delivery at a time: it holds it until this instant.
  lease_until     INTEGER,
  last_status     INTEGER,
  last_error      TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  UNIQUE (endpoint_id, event_id)
) STRICT;
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (business_id, endpoint_id, created_at, id);
-- The dispatcher's and the cron sweep's work list: small, since delivered and failed rows leave it.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (queued_at, next_attempt_at) WHERE status = 'pending';

CREATE TABLE webhook_attempts (
  id            INTEGER PRIMARY KEY,
  business_id   TEXT NOT NULL REFERENCES businesses (id),
  delivery_id   TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  endpoint_id   TEXT NOT NULL,
  event_id      TEXT NOT NULL,
  attempt       INTEGER NOT NULL CHECK (attempt >= 1),
  at            INTEGER NOT NULL,
  -- NULL: no answer (refused, unreachable, timed out, or not sent because the URL is not allowed).
  response_status INTEGER,
  latency_ms    INTEGER,
  -- The first 1 KB of the answer.
  response_body TEXT,
  error         TEXT,
  -- A person pressed "Send again".
  manual        INTEGER NOT NULL DEFAULT 0 CHECK (manual IN (0, 1))
) STRICT;
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (business_id, delivery_id, id);
CREATE INDEX webhook_attempts_by_endpoint ON webhook_attempts (business_id, endpoint_id, id);

-- terminal.silent is announced once per silence: the last_seen_at (-1: never seen)
-- it was announced for. A heartbeat changes last_seen_at, so the next silence is announced again.
ALTER TABLE terminals ADD COLUMN silent_announced_seen_at INTEGER;
