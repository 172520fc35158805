-- The shard fences of migration 0013 (decision 021) for the business tables that came after them: the cold archive's
-- months (0014) and the figures kept from closed days (0015). A business being moved takes no write of these either.
CREATE TRIGGER archive_months_fence_insert BEFORE INSERT ON archive_months WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER archive_months_fence_update BEFORE UPDATE ON archive_months WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER closed_day_versions_fence_insert BEFORE INSERT ON closed_day_versions WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER closed_day_versions_fence_update BEFORE UPDATE ON closed_day_versions WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
