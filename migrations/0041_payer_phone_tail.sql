-- The payer column shows a phone as 233*****1180: its last four digits must find the payment, as a card's last four do.
-- The expression is the one transactions.db.ts compares, so the search reads this index, not a range of days; card
-- payments have no phone and no entry (the storage budget, decision 018).
CREATE INDEX transactions_by_msisdn_tail ON transactions (business_id, substr(customer_msisdn, -4), created_at) WHERE customer_msisdn IS NOT NULL;
