-- The whole schema of swapboard serve on SQLite: accounts and credentials are served now;
-- games, seats, moves, challenges and deadlines are laid down for the games that plug in next.
-- Times are milliseconds since the Unix epoch (INTEGER), the same on both backends.

CREATE TABLE accounts (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL,
    -- The name folded to lower case: names are unique regardless of case.
    name_key      TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL,
    created_ms    INTEGER NOT NULL
);

-- Bearer tokens and browser sessions, stored only as the SHA-256 of the secret.
CREATE TABLE credentials (
    secret_hash TEXT    PRIMARY KEY,
    account_id  INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL CHECK (kind IN ('token', 'session')),
    created_ms  INTEGER NOT NULL,
    expires_ms  INTEGER
);
CREATE INDEX credentials_by_account ON credentials (account_id);

CREATE TABLE games (
    id                 TEXT    PRIMARY KEY,
    game               TEXT    NOT NULL,
    size               INTEGER NOT NULL,
    status             TEXT    NOT NULL CHECK (status IN ('waiting', 'playing', 'finished')),
    ply                INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
    position           TEXT    NOT NULL,
    clock_days         INTEGER,
    clock_initial_ms   INTEGER,
    clock_increment_ms INTEGER,
    -- The seat (0 = first player) that won, NULL for a draw or an unfinished game.
    winner_seat        INTEGER,
    termination        TEXT CHECK (termination IN ('rules', 'resigned', 'timeout', 'aborted')),
    created_ms         INTEGER NOT NULL,
    updated_ms         INTEGER NOT NULL
);
CREATE INDEX games_by_status ON games (status);

-- Who sits where: an account, an AI level, or nobody yet (an open seat).
CREATE TABLE seats (
    game_id      TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    account_id   INTEGER REFERENCES accounts (id),
    ai_level     INTEGER CHECK (ai_level BETWEEN 1 AND 8),
    remaining_ms INTEGER,
    PRIMARY KEY (game_id, seat),
    CHECK (account_id IS NULL OR ai_level IS NULL)
);
CREATE INDEX seats_by_account ON seats (account_id);

-- One row per accepted move: the primary key makes two racers for one ply land exactly once.
CREATE TABLE moves (
    game_id   TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 0),
    seat      INTEGER NOT NULL,
    move      TEXT    NOT NULL,
    played_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE challenges (
    id                 TEXT    PRIMARY KEY,
    challenger_id      INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    -- NULL with no invite: an open challenge in the lobby.
    target_id          INTEGER REFERENCES accounts (id) ON DELETE CASCADE,
    invite_hash        TEXT UNIQUE,
    game               TEXT    NOT NULL,
    size               INTEGER NOT NULL,
    colour             TEXT    NOT NULL CHECK (colour IN ('first', 'second', 'random')),
    clock_days         INTEGER,
    clock_initial_ms   INTEGER,
    clock_increment_ms INTEGER,
    game_id            TEXT REFERENCES games (id),
    created_ms         INTEGER NOT NULL
);
CREATE INDEX challenges_open ON challenges (game_id, target_id);

-- When a game's clock runs out unless a move comes first; claimed by one scheduler at a time.
CREATE TABLE deadlines (
    game_id          TEXT    PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    ply              INTEGER NOT NULL,
    due_ms           INTEGER NOT NULL,
    claimed_until_ms INTEGER
);
CREATE INDEX deadlines_by_due ON deadlines (due_ms);
