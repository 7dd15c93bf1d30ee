-- Invite links: the secret of a game joined by its link only, kept while the game waits
-- (shown to its creator, compared in constant time) and cleared when the game starts.
ALTER TABLE games ADD COLUMN invite TEXT;
-- The rematch offered after a finished game: the new game's id, set once.
ALTER TABLE games ADD COLUMN rematch_id TEXT REFERENCES games (id);

-- The review of a finished game, computed once, in the background, by whichever instance
-- claims it (a claim whose instance died is taken again after its lease).
CREATE TABLE reviews (
    game_id          TEXT    PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    status           TEXT    NOT NULL CHECK (status IN ('running', 'done')),
    done             INTEGER NOT NULL DEFAULT 0,
    total            INTEGER NOT NULL,
    -- The reviewed moves as JSON, once done.
    moves            TEXT,
    claimed_until_ms INTEGER,
    updated_ms       INTEGER NOT NULL
);
