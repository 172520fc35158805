-- Session limits (issue 15, point 3; docs/decisions/026-session-limits.md): a session ends after 30 minutes without
-- activity by the person and 12 hours after sign-in began (created_at). last_active_at is when the person last did
-- something (a page or an action); the guard refreshes it at most once a minute. NULL: nothing since created_at.
ALTER TABLE sessions ADD COLUMN last_active_at TEXT;
