-- Swap 61 rooms: a game master, 9 or 10 seats, six rounds of sealed bids.
-- Times are milliseconds since the Unix epoch (INTEGER), the same on both backends.

CREATE TABLE rooms (
    id             TEXT    PRIMARY KEY,
    master_id      INTEGER NOT NULL REFERENCES accounts (id),
    status         TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished')),
    -- The seats wanted (9 or 10); once started, the seats drawn.
    seats          INTEGER NOT NULL CHECK (seats BETWEEN 9 AND 10),
    -- Round 5's variation, as swap61 writes variations ('theme', 'corners+seat-exchange').
    round5         TEXT    NOT NULL,
    -- How long each round is open, from the moment it opens.
    round_ms       INTEGER NOT NULL CHECK (round_ms > 0),
    -- The seed asked for at creation (a u64, as text), drawn at the start when NULL.
    seed           TEXT,
    -- Once started: the swapboard-swap61/1 setup (JSON: seat order, start grid, rounds).
    setup          TEXT,
    -- The grid now and the open round (0 = pregame .. 5; 6 once the game is over).
    grid           TEXT,
    round          INTEGER NOT NULL DEFAULT 0 CHECK (round BETWEEN 0 AND 6),
    -- When the open round resolves by itself; NULL in the lobby, while paused, and at the end.
    deadline_ms    INTEGER,
    -- While paused: the time the open round had left.
    paused_left_ms INTEGER,
    -- The invite, stored only as its SHA-256.
    invite_hash    TEXT    NOT NULL UNIQUE,
    created_ms     INTEGER NOT NULL,
    updated_ms     INTEGER NOT NULL
);
CREATE INDEX rooms_by_deadline ON rooms (deadline_ms) WHERE deadline_ms IS NOT NULL;
CREATE INDEX rooms_by_master ON rooms (master_id, status);

-- In the lobby, who joined (seat = order of joining); once started, the published seat
-- order. `name` is the seat's name in the game file; a seat is an account's, the bot's, or
-- (after an import) nobody's until the game master gives it to one.
CREATE TABLE room_seats (
    room_id    TEXT    NOT NULL REFERENCES rooms (id),
    seat       INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 10),
    name       TEXT    NOT NULL,
    account_id INTEGER REFERENCES accounts (id),
    bot        INTEGER NOT NULL DEFAULT 0 CHECK (bot IN (0, 1)),
    PRIMARY KEY (room_id, seat),
    CHECK (account_id IS NULL OR bot = 0)
);
CREATE UNIQUE INDEX room_seats_once ON room_seats (room_id, account_id);
CREATE INDEX room_seats_by_account ON room_seats (account_id);

-- One row per (room, round, seat): submissions of different players never touch the same
-- row. `receipt` is the SHA-256 of `text`; `is_final` is the player's "I am done".
CREATE TABLE room_submissions (
    room_id      TEXT    NOT NULL REFERENCES rooms (id),
    round        INTEGER NOT NULL CHECK (round BETWEEN 0 AND 5),
    seat         INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 10),
    text         TEXT    NOT NULL,
    receipt      TEXT    NOT NULL,
    is_final     INTEGER NOT NULL DEFAULT 0 CHECK (is_final IN (0, 1)),
    submitted_ms INTEGER NOT NULL,
    PRIMARY KEY (room_id, round, seat)
);

-- The resolved rounds in force: the grid after each and its scores (JSON, seat order; NULL
-- for the pregame).
CREATE TABLE room_rounds (
    room_id     TEXT    NOT NULL REFERENCES rooms (id),
    round       INTEGER NOT NULL CHECK (round BETWEEN 0 AND 5),
    grid        TEXT    NOT NULL,
    scores      TEXT,
    resolved_ms INTEGER NOT NULL,
    PRIMARY KEY (room_id, round)
);

-- Everything that happened to a room, for its game master; never changed, never deleted.
CREATE TABLE room_audit (
    id      INTEGER PRIMARY KEY,
    room_id TEXT    NOT NULL REFERENCES rooms (id),
    at_ms   INTEGER NOT NULL,
    actor   TEXT    NOT NULL,
    action  TEXT    NOT NULL,
    detail  TEXT    NOT NULL
);
CREATE INDEX room_audit_by_room ON room_audit (room_id, id);
CREATE TRIGGER room_audit_no_update BEFORE UPDATE ON room_audit
BEGIN
    SELECT RAISE(ABORT, 'room_audit is append-only');
END;
CREATE TRIGGER room_audit_no_delete BEFORE DELETE ON room_audit
BEGIN
    SELECT RAISE(ABORT, 'room_audit is append-only');
END;
