-- Dated Partner API versions (issue 29, point 8; docs/api-changelog.md): each key is pinned to the version that was
-- current when it was made, and answers as that version unless a request names another in PP-Version. A rolled key
-- keeps its predecessor's version, so rolling a secret never changes what the processor's code reads.
ALTER TABLE api_keys ADD COLUMN api_version TEXT NOT NULL DEFAULT '2026-11-27' CHECK (api_version GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]');
ALTER TABLE platform_keys ADD COLUMN api_version TEXT NOT NULL DEFAULT '2026-11-27' CHECK (api_version GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]');
