-- Issue 49: tournaments one can follow. `rounds_asked`: the rounds its creator asked for,
-- kept beside `rounds` (what it plays: a small Swiss plays fewer), so the page says so
-- (NULL for the tournaments of before). A notification about a tournament names it, so
-- that the inbox and the mail link to its page.
ALTER TABLE tournaments ADD COLUMN rounds_asked INTEGER;
ALTER TABLE outbox ADD COLUMN tournament_id TEXT;
