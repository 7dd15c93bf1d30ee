-- Puzzles proven by the solver (issue 25; how they are made: docs/PUZZLES.md). The rows are
-- seeded from the file the play crate ships (`store/puzzles.rs`) when the server starts.
CREATE TABLE puzzles (
    id         TEXT    PRIMARY KEY,
    game       TEXT    NOT NULL,
    size       BIGINT  NOT NULL CHECK (size > 0),
    position   TEXT    NOT NULL,
    solution   TEXT    NOT NULL,
    -- The proof's main line, moves separated by spaces.
    line       TEXT    NOT NULL,
    difficulty BIGINT  NOT NULL,
    theme      TEXT    NOT NULL,
    nodes      BIGINT  NOT NULL CHECK (nodes >= 0),
    -- The daily puzzle walks the puzzles in this order.
    seq        BIGINT  NOT NULL UNIQUE
);
-- The list of a game's puzzles by difficulty.
CREATE INDEX puzzles_by_game ON puzzles (game, difficulty);

-- Each account's attempts, the first one at each puzzle deciding solved or failed.
CREATE TABLE puzzle_attempts (
    account_id BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    puzzle_id  TEXT    NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    correct    BIGINT  NOT NULL CHECK (correct IN (0, 1)),
    at_ms      BIGINT  NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
);

-- Each account's record: puzzles solved and failed, the current run of solved ones and the
-- best run.
CREATE TABLE puzzle_records (
    account_id  BIGINT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    solved      BIGINT  NOT NULL DEFAULT 0 CHECK (solved >= 0),
    failed      BIGINT  NOT NULL DEFAULT 0 CHECK (failed >= 0),
    streak      BIGINT  NOT NULL DEFAULT 0 CHECK (streak >= 0),
    best_streak BIGINT  NOT NULL DEFAULT 0 CHECK (best_streak >= 0)
);
