-- The Partner API's lists (issue 29, point 1; docs/partner-api.md "Lists"): each is newest first by its creation time
-- and id, one keyset page at a time, and each filter it takes has an index in that order, so a page reads its rows and
-- no more, and a deep page costs what the first costs. Payments (transactions_by_*), merchants (merchants_by_created)
-- and terminals (by serial) had theirs already; these are the others'.
CREATE INDEX points_of_sale_by_created ON points_of_sale (business_id, created_at, id);
CREATE INDEX points_of_sale_by_merchant_created ON points_of_sale (business_id, merchant_id, created_at, id);
CREATE INDEX disputes_by_opened ON disputes (business_id, opened_at, id);
CREATE INDEX disputes_by_status_opened ON disputes (business_id, status, opened_at, id);
CREATE INDEX settlements_by_created ON settlements (business_id, created_at, id);
CREATE INDEX settlements_by_status_created ON settlements (business_id, status, created_at, id);
CREATE INDEX refunds_by_created ON refunds (business_id, created_at, id);
CREATE INDEX refunds_by_status_created ON refunds (business_id, status, created_at, id);
