-- Issue 24, defect 2 (docs/decisions/032-webhook-times-and-checks.md): a webhook's retries, the disabling rule and
-- the delivery log count from when the PORTAL made the event, not from when the thing it describes happened (a
-- payment's occurred_at may be days old when it reaches the portal).
--
-- webhook_events.created_at held the time the event describes; it is now happened_at (the envelope's `created`),
-- and created_at is when the portal made the row, as everywhere else. webhook_deliveries.created_at (already a
-- column) is when the portal made the delivery: retries and the disabling rule count from it, the log sorts by it.
ALTER TABLE webhook_events RENAME COLUMN created_at TO happened_at;
ALTER TABLE webhook_events ADD COLUMN created_at INTEGER;

-- The backfill: the event's first automatic attempt is within seconds of the portal making it; an event never
-- attempted was queued then; else only the time it describes is known.
UPDATE webhook_events SET created_at = coalesce(
  (SELECT min(a.at) FROM webhook_attempts a WHERE a.business_id = webhook_events.business_id AND a.event_id = webhook_events.id AND a.manual = 0),
  (SELECT min(d.queued_at) FROM webhook_deliveries d WHERE d.business_id = webhook_events.business_id AND d.event_id = webhook_events.id),
  happened_at
);
UPDATE webhook_deliveries SET created_at = coalesce(
  (SELECT min(a.at) FROM webhook_attempts a WHERE a.business_id = webhook_deliveries.business_id AND a.delivery_id = webhook_deliveries.id AND a.manual = 0),
  (SELECT e.created_at FROM webhook_events e WHERE e.business_id = webhook_deliveries.business_id AND e.id = webhook_deliveries.event_id),
  created_at
);

-- When the endpoint was made or last enabled (epoch ms): an endpoint is never disabled as "every delivery failed
-- for 24 hours" for a delivery made before it was (re-)enabled. Backfilled from when it was made or, when the audit
-- log says it was enabled again since, from that.
ALTER TABLE webhook_endpoints ADD COLUMN enabled_at INTEGER;
UPDATE webhook_endpoints SET enabled_at = 1000 * max(
  unixepoch(created_at),
  coalesce(
    (SELECT max(unixepoch(a.created_at)) FROM audit_log a
     WHERE a.business_id = webhook_endpoints.business_id AND a.entity = 'webhook_endpoint' AND a.entity_id = webhook_endpoints.id
       AND a.action = 'webhook_endpoint.enable'),
    0
  )
);
