-- Figures built from closed days, kept so a year's report is not summed again
-- on every request (issue 13; docs/decisions/020-page-time.md). A day is closed
-- once it is over (Africa/Accra), but a payment may still land on it (the
-- Partner API takes payments up to 90 days old, and reversals): so each
-- business has a version, which the ingest batch bumps whenever it changes a
-- rollup of a past day, and a kept figure is used only under the version it
-- was built at. Old entries are dropped when new ones are written.
CREATE TABLE closed_day_versions (
  business_id TEXT PRIMARY KEY REFERENCES businesses (id),
  version     INTEGER NOT NULL CHECK (version >= 1)
) STRICT, WITHOUT ROWID;

CREATE TABLE closed_day_cache (
  business_id TEXT NOT NULL REFERENCES businesses (id),
  -- What was built and over which closed days, e.g. "report:day:2025-11-24:2026-11-22".
  key         TEXT NOT NULL CHECK (length(key) <= 200),
  version     INTEGER NOT NULL CHECK (version >= 0),
  -- JSON of the rows.
  body        TEXT NOT NULL,
  built_at    INTEGER NOT NULL,
  PRIMARY KEY (business_id, key)
) STRICT, WITHOUT ROWID;

CREATE INDEX closed_day_cache_built ON closed_day_cache (business_id, built_at);
