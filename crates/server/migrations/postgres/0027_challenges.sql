-- A challenge (a game waiting for its opponent) can end before it starts: its challenger
-- cancels it, the challenged declines it (with a reason), or it expires, and then it is
-- finished as aborted, with `closed` saying which and `closed_reason` the decline's words.
-- `expires_ms`: when a waiting game stops being joinable (none for the games of before).
ALTER TABLE games ADD COLUMN closed TEXT;
ALTER TABLE games ADD COLUMN closed_reason TEXT;
ALTER TABLE games ADD COLUMN expires_ms BIGINT;
CREATE INDEX games_expiring ON games (expires_ms) WHERE status = 'waiting';
