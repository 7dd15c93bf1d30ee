-- Delivery looks only at the rows still to be delivered (pending) or being delivered
-- (sending): an index of each, kept apart from the inbox's history, so that a claim reads
-- due rows only, however long the history grows and however many notices a busy minute
-- settles.
DROP INDEX outbox_due;
CREATE INDEX outbox_pending ON outbox (next_ms, id) WHERE state = 'pending';
CREATE INDEX outbox_sending ON outbox (claimed_until_ms) WHERE state = 'sending';
