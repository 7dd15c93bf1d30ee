-- Guests that never came back are removed after a retention period (issue 25,
-- `serve --guest-days`): the scheduler finds them, the oldest first, through this index of
-- the guests alone (an account signed up has guest_ms NULL and is not in it).
CREATE INDEX accounts_guests ON accounts (guest_ms) WHERE guest_ms IS NOT NULL;
