-- Issue 26: a finished Swap 61 room rates its seated accounts (Weng-Lin through
-- swapboard_league::multiplayer, in the transaction that resolves the last round), and an
-- account may declare itself a bot (`swapboard bot` does). Times are milliseconds since the
-- Unix epoch, the same on both backends.

-- Each account's Swap 61 skill after its last rated room (mu, sigma: Weng-Lin's rating and
-- uncertainty; shown as the conservative mu - 3 sigma).
CREATE TABLE room_skills (
    account_id   INTEGER PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL CHECK (sigma > 0),
    rooms        INTEGER NOT NULL CHECK (rooms >= 0),
    last_room_ms INTEGER NOT NULL
);
-- The Swap 61 leaderboard walks the skills from the best conservative estimate down.
CREATE INDEX room_skills_by_ordinal ON room_skills ((mu - 3 * sigma));

-- One row per rated seat of each finished room: the change and the player's history. The key
-- makes a second rating of one room fail: it is rated once.
CREATE TABLE room_skill_changes (
    room_id      TEXT    NOT NULL REFERENCES rooms (id),
    seat         INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 10),
    account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    -- The seat's final rank among the room's rated seats (1 is first; ties share a rank).
    rank         INTEGER NOT NULL CHECK (rank >= 1),
    before_mu    REAL    NOT NULL,
    before_sigma REAL    NOT NULL,
    after_mu     REAL    NOT NULL,
    after_sigma  REAL    NOT NULL,
    at_ms        INTEGER NOT NULL,
    PRIMARY KEY (room_id, seat)
);
CREATE INDEX room_skill_changes_by_account ON room_skill_changes (account_id, at_ms);
-- Rerating replays the rooms in the order they finished.
CREATE INDEX room_skill_changes_by_time ON room_skill_changes (at_ms, room_id);

-- 1: the account is played by a program (rated like a person, marked as a bot everywhere).
ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL DEFAULT 0 CHECK (bot IN (0, 1));
