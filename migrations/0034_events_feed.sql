-- The events feed (issue 29, point 2: GET /api/v1/events): every event a business's changes make is kept, whether or
-- not an endpoint subscribes to its type, so a receiver that was down (or an integrator with no endpoint at all) can
-- read what happened. The feed reads the last 30 days by when the portal recorded each event (created_at), newest
-- first, optionally of one type. Migration 0026 renamed the old created_at (and so its index) to happened_at; the
-- record time had no index.
CREATE INDEX webhook_events_by_record ON webhook_events (business_id, created_at, id);
CREATE INDEX webhook_events_by_type ON webhook_events (business_id, type, created_at, id);
-- The daily drop of events older than the feed's 30 days that no delivery refers to (functions/webhooks/events.db.ts
-- dropOldEvents) asks, for each, whether a delivery refers to it: by this index, not by reading the deliveries.
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (business_id, event_id);
