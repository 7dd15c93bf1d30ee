-- Issue 27: a tournament may forbid the vacation bank in its games (its creator's choice at
-- creation; the server's monthly ones allow it). 1: a player's bank may carry a clock that
-- ran out in one of its games, as in any correspondence game; 0: it may not.
ALTER TABLE tournaments ADD COLUMN vacation INTEGER NOT NULL DEFAULT 1 CHECK (vacation IN (0, 1));
