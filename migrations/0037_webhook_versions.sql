-- Webhook payloads in dated versions (issue 29, point 3; docs/api-changelog.md 2026-12-01). A change of an event's
-- shape breaks receivers, so it comes with a version date, and each webhook endpoint is pinned to the version current
-- when it was made, as API keys are (migration 0035): the endpoints made before versions existed get 2026-11-27.
ALTER TABLE webhook_endpoints ADD COLUMN api_version TEXT NOT NULL DEFAULT '2026-11-27' CHECK (api_version GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]');
-- An event is stored once and rendered in each reader's version (functions/partner-api/event-versions.ts): payload
-- holds its data in the shape of payload_version (the events written before this migration: 2026-11-27), and
-- payload_extra the few facts an older version's shape says that payload does not hold (a JSON object), or NULL.
ALTER TABLE webhook_events ADD COLUMN payload_version TEXT NOT NULL DEFAULT '2026-11-27' CHECK (payload_version GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]');
ALTER TABLE webhook_events ADD COLUMN payload_extra TEXT CHECK (payload_extra IS NULL OR (json_valid(payload_extra) AND json_type(payload_extra) = 'object'));
