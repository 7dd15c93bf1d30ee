-- Puzzles proven by the solver (issue 25; how they are made: docs/PUZZLES.md). The rows are
-- seeded from the file the play crate ships (`store/puzzles.rs`) when the server starts.
CREATE TABLE puzzles (
    id         TEXT    PRIMARY KEY,
    game       TEXT    NOT NULL,
    size       INTEGER NOT NULL CHECK (size > 0),
    position   TEXT    NOT NULL,
    solution   TEXT    NOT NULL,
    -- The proof's main line, moves separated by spaces.
    line       TEXT    NOT NULL,
    difficulty INTEGER NOT NULL,
    theme      TEXT    NOT NULL,
    nodes      INTEGER NOT NULL CHECK (nodes >= 0),
    -- The daily puzzle walks the puzzles in this order.
    seq        INTEGER NOT NULL UNIQUE
);
-- The list of a game's puzzles by difficulty.
CREATE INDEX puzzles_by_game ON puzzles (game, difficulty);

-- Each account's attempts, the first one at each puzzle deciding solved or failed.
CREATE TABLE puzzle_attempts (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    puzzle_id  TEXT    NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    correct    INTEGER NOT NULL CHECK (correct IN (0, 1)),
    at_ms      INTEGER NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
);

-- Each account's record: puzzles solved and failed, the current run of solved ones and the
-- best run.
CREATE TABLE puzzle_records (
    account_id  INTEGER PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    solved      INTEGER NOT NULL DEFAULT 0 CHECK (solved >= 0),
    failed      INTEGER NOT NULL DEFAULT 0 CHECK (failed >= 0),
    streak      INTEGER NOT NULL DEFAULT 0 CHECK (streak >= 0),
    best_streak INTEGER NOT NULL DEFAULT 0 CHECK (best_streak >= 0)
);
