-- Issue 27: the vacation bank, password resets by mail, web push. Times are milliseconds
-- since the Unix epoch, the same on both backends.

-- An account's vacation bank for one calendar year (UTC): the days spent of the yearly
-- allowance (an operator's option), and until when the account is away on purpose. No row:
-- nothing spent.
CREATE TABLE vacation (
    account_id    INTEGER PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    year          INTEGER NOT NULL,
    used          INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0),
    away_until_ms INTEGER
);

-- Every day spent, and why: `clock` (a correspondence clock would have run out in that
-- game) or `taken` (the player took days on purpose, for all their games).
CREATE TABLE vacation_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game_id    TEXT,
    days       INTEGER NOT NULL CHECK (days > 0),
    reason     TEXT    NOT NULL CHECK (reason IN ('clock', 'taken')),
    at_ms      INTEGER NOT NULL
);
CREATE INDEX vacation_log_by_account ON vacation_log (account_id, id);

-- The days of vacation each seat spent in a game (shown with the game).
ALTER TABLE games ADD COLUMN vacation_first INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN vacation_second INTEGER NOT NULL DEFAULT 0;

-- A password reset asked for by mail ("forgot password"): the SHA-256 of the one-time
-- secret its mail's link carries (the secret itself is never stored), until it is used
-- (the row goes) or expires. Made by the delivery worker when it sends the mail.
CREATE TABLE password_resets (
    token_hash TEXT   PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    expires_ms INTEGER NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE INDEX password_resets_by_account ON password_resets (account_id);
-- A reset is asked for by address as well as by name.
CREATE INDEX email_addresses_by_email ON email_addresses (lower(email));
