-- Platform operators (docs/decisions/039-platform-operators.md): the acquirer's own staff, who bootstrap a deployment,
-- onboard businesses, hold the switch's credential and watch every business. Their rows live in the core database
-- (every database gets every migration; only the core one fills these tables).

-- A person's place on the platform's staff. A person (users) may be staff, a business's employee, or both.
CREATE TABLE platform_staff (
  user_id    TEXT PRIMARY KEY REFERENCES users (id),
  role       TEXT NOT NULL CHECK (role IN ('Platform Administrator', 'Platform Support')),
  status     TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;

-- Where a business stands with the platform, beside where it lives: the session's one read of the directory tells
-- the guard both. Suspended: its people are signed out and its keys refused, the switch's payments still applied.
-- Closed: read-only, nothing deleted.
ALTER TABLE business_shards ADD COLUMN lifecycle TEXT NOT NULL DEFAULT 'active' CHECK (lifecycle IN ('active', 'suspended', 'closed'));

-- The name a business trades under, when it is not its registered (legal) name.
ALTER TABLE businesses ADD COLUMN trading_name TEXT CHECK (trading_name IS NULL OR length(trim(trading_name)) BETWEEN 1 AND 120);

-- The platform's maker-checker: what one Platform Administrator asks and another decides. Its own table because a
-- business's requests live with the business (on its shard) and these concern the platform itself.
CREATE TABLE platform_requests (
  id          TEXT PRIMARY KEY,
  kind        TEXT NOT NULL CHECK (kind IN ('onboard_business', 'suspend_business', 'reactivate_business', 'close_business', 'run_job', 'move_business', 'replay_queue')),
  -- What it acts on: the business (for onboarding, the id the new business will have), the job or the queue.
  subject_id  TEXT NOT NULL CHECK (length(subject_id) BETWEEN 1 AND 100),
  after_json  TEXT NOT NULL CHECK (json_valid(after_json)),
  maker_id    TEXT NOT NULL REFERENCES users (id),
  made_at     TEXT NOT NULL,
  status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'stale')),
  checker_id  TEXT REFERENCES users (id),
  decided_at  TEXT,
  reason      TEXT,
  -- What applying it did (the new business's id, a job run's outcome), for the request's page.
  outcome_json TEXT CHECK (outcome_json IS NULL OR json_valid(outcome_json)),
  -- Nobody decides their own request.
  CHECK (checker_id IS NULL OR checker_id <> maker_id),
  CHECK ((status IN ('approved', 'rejected')) = (checker_id IS NOT NULL AND decided_at IS NOT NULL)),
  CHECK (status <> 'rejected' OR length(trim(coalesce(reason, ''))) > 0)
) STRICT;
CREATE INDEX platform_requests_by_status ON platform_requests (status, made_at);
-- One open request of a kind for one subject: a second "suspend" while the first waits is the same request.
CREATE UNIQUE INDEX platform_requests_one_open ON platform_requests (kind, subject_id) WHERE status = 'pending';

-- The switch's credential: a platform key acts for whichever business a request names (PP-Business), within its
-- scopes. Shaped as a business's api_keys: hashed, shown once, prefix, last use, roll (the old one expires) and revoke.
CREATE TABLE platform_keys (
  id           TEXT PRIMARY KEY,
  name         TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 60),
  prefix       TEXT NOT NULL,
  secret_hash  TEXT NOT NULL UNIQUE CHECK (length(secret_hash) = 64),
  scopes       TEXT NOT NULL CHECK (json_valid(scopes) AND json_type(scopes) = 'array'),
  created_by   TEXT REFERENCES users (id),
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER,
  expires_at   INTEGER,
  rolled_to    TEXT REFERENCES platform_keys (id),
  revoked_at   INTEGER,
  revoked_by   TEXT REFERENCES users (id),
  CHECK ((rolled_to IS NULL) = (expires_at IS NULL))
) STRICT;

-- Each run of a scheduled job, on the cron or asked for by the platform ("run now"): last run, outcome, duration.
CREATE TABLE job_runs (
  id           INTEGER PRIMARY KEY,
  job          TEXT NOT NULL CHECK (length(job) BETWEEN 1 AND 40 AND job NOT GLOB '*[^a-z_-]*'),
  trigger      TEXT NOT NULL CHECK (trigger IN ('schedule', 'platform')),
  -- The platform request that asked for it ("run now").
  request_id   TEXT,
  started_at   TEXT NOT NULL,
  finished_at  TEXT,
  outcome      TEXT CHECK (outcome IS NULL OR outcome IN ('ok', 'failed')),
  duration_ms  INTEGER CHECK (duration_ms IS NULL OR duration_ms >= 0),
  detail       TEXT CHECK (detail IS NULL OR length(detail) <= 500),
  CHECK ((finished_at IS NULL) = (outcome IS NULL))
) STRICT;
CREATE INDEX job_runs_by_job ON job_runs (job, id);
