-- Tournaments run by the server (issue 26; docs/TOURNAMENTS.md): round robin in divisions
-- of at most 10, or Swiss. Played round by round: the games of round r+1 are created in the
-- transaction of the game end that completes round r (`store/tournaments.rs`).

CREATE TABLE tournaments (
    id                 TEXT    PRIMARY KEY,
    game               TEXT    NOT NULL,
    size               INTEGER NOT NULL,
    format             TEXT    NOT NULL CHECK (format IN ('round_robin', 'swiss')),
    -- Swiss: the rounds asked for; round robin: the schedule's length, set at the start.
    rounds             INTEGER NOT NULL CHECK (rounds >= 0),
    -- The games' time control, as the games table stores it.
    clock_days         INTEGER,
    clock_initial_ms   INTEGER,
    clock_increment_ms INTEGER,
    starts_ms          INTEGER NOT NULL,
    min_players        INTEGER NOT NULL,
    max_players        INTEGER NOT NULL,
    rated              INTEGER NOT NULL CHECK (rated IN (0, 1)),
    -- NULL: made by the server's monthly schedule (or its creator's account was deleted).
    creator_id         INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
    status             TEXT    NOT NULL DEFAULT 'open'
                       CHECK (status IN ('open', 'running', 'finished')),
    -- The round being played (0 before the start).
    round              INTEGER NOT NULL DEFAULT 0,
    -- The monthly edition's key (`GAME:YYYY-MM`): one edition per game and month.
    edition            TEXT    UNIQUE,
    created_ms         INTEGER NOT NULL,
    started_ms         INTEGER,
    finished_ms        INTEGER
);
-- The scheduler's pass: the open tournaments whose start has come.
CREATE INDEX tournaments_by_status ON tournaments (status, starts_ms);

-- The entrants, with the rating they started with (seeding, pairing, last tie-break).
CREATE TABLE tournament_players (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    account_id    INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    joined_ms     INTEGER NOT NULL,
    rating        REAL    NOT NULL DEFAULT 1500,
    -- Round robin: the division (from 1), set at the start.
    division      INTEGER NOT NULL DEFAULT 0,
    withdrawn_ms  INTEGER,
    PRIMARY KEY (tournament_id, account_id)
);
CREATE INDEX tournament_players_by_account ON tournament_players (account_id);

-- Every pairing, and the game it is played in (NULL: a forfeit decided without a game, a
-- withdrawn player's later round robin game).
CREATE TABLE tournament_games (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round >= 1),
    division      INTEGER NOT NULL DEFAULT 0,
    first_id      INTEGER NOT NULL REFERENCES accounts (id),
    second_id     INTEGER NOT NULL REFERENCES accounts (id),
    game_id       TEXT    UNIQUE REFERENCES games (id),
    -- first, second or draw, once decided.
    result        TEXT    CHECK (result IN ('first', 'second', 'draw')),
    PRIMARY KEY (tournament_id, round, first_id)
);

-- A Swiss round's one-point bye.
CREATE TABLE tournament_byes (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    PRIMARY KEY (tournament_id, round)
);

-- A game a tournament made: it cannot be aborted (a flag or a resignation before the
-- second move loses it), and its end feeds the tournament.
ALTER TABLE games ADD COLUMN tournament_id TEXT;
