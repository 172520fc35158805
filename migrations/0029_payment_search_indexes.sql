-- A payment found by what a person has to hand, within the period shown (docs/decisions/037-forgiving-payment-search.md):
-- its amount, or the last characters of its reference. Without these, either search read every payment of the period.
-- The tail index keys the last four characters in capitals; a longer tail is then checked on the few rows it finds.
CREATE INDEX transactions_by_amount ON transactions (business_id, amount, created_at);
CREATE INDEX transactions_by_reference_tail ON transactions (business_id, upper(substr(reference, -4)), created_at);
