-- Issue 24: an admin may decide the result of a game being played; the game ends with the
-- termination `adjudicated`. SQLite cannot alter a CHECK, so `games` is rebuilt.
--
-- The migration runs in one transaction, where `PRAGMA foreign_keys = OFF` does nothing:
-- dropping `games` deletes, by their ON DELETE CASCADE, the rows of every table that
-- references it. Those rows are kept in temporary tables and put back; the references
-- without a cascade (challenges, tournament games, rematches) are deferred to the commit,
-- by which time every game is back. Renaming `games` aside instead would not do: SQLite
-- rewrites the other tables' references to follow the rename. Every table with a foreign key
-- on `games` must be listed here (the server's test `migration_keeps_every_game` checks it).
PRAGMA defer_foreign_keys = ON;

CREATE TEMP TABLE kept_games AS SELECT * FROM games;
CREATE TEMP TABLE kept_seats AS SELECT * FROM seats;
CREATE TEMP TABLE kept_moves AS SELECT * FROM moves;
CREATE TEMP TABLE kept_deadlines AS SELECT * FROM deadlines;
CREATE TEMP TABLE kept_reviews AS SELECT * FROM reviews;
CREATE TEMP TABLE kept_rating_changes AS SELECT * FROM rating_changes;
CREATE TEMP TABLE kept_ai_jobs AS SELECT * FROM ai_jobs;

DROP TABLE games;

CREATE TABLE games (
    id                   TEXT    PRIMARY KEY,
    game                 TEXT    NOT NULL,
    size                 INTEGER NOT NULL,
    status               TEXT    NOT NULL CHECK (status IN ('waiting', 'playing', 'finished')),
    ply                  INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
    position             TEXT    NOT NULL,
    clock_days           INTEGER,
    clock_initial_ms     INTEGER,
    clock_increment_ms   INTEGER,
    -- The seat (0 = first player) that won, NULL for a draw or an unfinished game.
    winner_seat          INTEGER,
    termination          TEXT CHECK (termination IN ('rules', 'resigned', 'timeout', 'aborted', 'adjudicated')),
    created_ms           INTEGER NOT NULL,
    updated_ms           INTEGER NOT NULL,
    clock_left_first_ms  INTEGER,
    clock_left_second_ms INTEGER,
    turn_started_ms      INTEGER,
    invite               TEXT,
    rematch_id           TEXT REFERENCES games (id),
    rated                INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    tournament_id        TEXT,
    vacation_first       INTEGER NOT NULL DEFAULT 0,
    vacation_second      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_status_and_update ON games (status, updated_ms);

INSERT INTO games SELECT * FROM kept_games;
INSERT INTO seats SELECT * FROM kept_seats;
INSERT INTO moves SELECT * FROM kept_moves;
INSERT INTO deadlines SELECT * FROM kept_deadlines;
INSERT INTO reviews SELECT * FROM kept_reviews;
INSERT INTO rating_changes SELECT * FROM kept_rating_changes;
INSERT INTO ai_jobs SELECT * FROM kept_ai_jobs;

DROP TABLE kept_games;
DROP TABLE kept_seats;
DROP TABLE kept_moves;
DROP TABLE kept_deadlines;
DROP TABLE kept_reviews;
DROP TABLE kept_rating_changes;
DROP TABLE kept_ai_jobs;
