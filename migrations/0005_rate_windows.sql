-- The per-client rate windows serve more than analytics now (sign-in look-ups):
-- one table, keyed "<limit name>:<client>".
ALTER TABLE analytics_rate_windows RENAME TO rate_windows;
DROP INDEX analytics_rate_windows_by_start;
CREATE INDEX rate_windows_by_start ON rate_windows (window_start);
