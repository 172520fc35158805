-- Test mode (issue 29, point 6; decision 045): each business may have a test business beside it, on the same
-- database, whose id is the live one's with "~test" after it. Its records are its own rows under its own id, so no
-- live list, balance, settlement, report or webhook (all of which read one business_id) ever holds test data. The
-- directory names the live business a test business belongs to, so the platform's lists leave test businesses out and
-- the jobs that visit every business can tell them apart.
ALTER TABLE business_shards ADD COLUMN live_business_id TEXT CHECK (live_business_id IS NULL OR business_id = live_business_id || '~test');
