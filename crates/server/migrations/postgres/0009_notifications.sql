-- Notifications (issue 27; docs/NOTIFICATIONS.md). Times are milliseconds since the Unix
-- epoch, the same on both backends.

-- The outbox: one row per event and account told of it, written in the transaction of the
-- event (a move, a game's end, a challenge, a round resolved). It is the account's inbox,
-- and the delivery worker's queue for the other channels.
CREATE TABLE outbox (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id       BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    -- your_turn, challenge, game_ended, rematch, round_opened, round_results,
    -- deadline_24h, deadline_1h (docs/NOTIFICATIONS.md).
    kind             TEXT    NOT NULL,
    -- What it is about (a mail's link), if anything.
    game_id          TEXT,
    room_id          TEXT,
    -- What it says, for a person: never a secret (no Swap 61 bid).
    message          TEXT    NOT NULL,
    -- At most one row per key: an event two instances may both see (a reminder) is
    -- written once.
    dedupe           TEXT    UNIQUE,
    created_ms       BIGINT NOT NULL,
    read_ms          BIGINT,
    -- Delivery: pending (due at next_ms), sending (a worker's until claimed_until_ms),
    -- digest (waits for the account's daily digest), done, failed (gave up), lost (its
    -- worker died while sending: never sent again, so never sent twice).
    state            TEXT    NOT NULL DEFAULT 'pending'
                     CHECK (state IN ('pending', 'sending', 'digest', 'done', 'failed', 'lost')),
    attempts         BIGINT NOT NULL DEFAULT 0,
    next_ms          BIGINT NOT NULL,
    claimed_until_ms BIGINT,
    -- What delivery did: inbox (only), mail, digest, throttled, watching; or the last error.
    outcome          TEXT,
    done_ms          BIGINT,
    -- The SHA-256 of the one-click unsubscribe secret its mail carried.
    unsubscribe_hash TEXT    UNIQUE
);
CREATE INDEX outbox_by_account ON outbox (account_id, id);
CREATE INDEX outbox_due ON outbox (state, next_ms);

-- An account's mail address, confirmed by a one-time link, and its digest hour.
CREATE TABLE email_addresses (
    account_id       BIGINT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    email            TEXT    NOT NULL,
    -- The SHA-256 of the confirmation secret, until confirmed.
    token_hash       TEXT    UNIQUE,
    token_expires_ms BIGINT,
    confirmed_ms     BIGINT,
    -- The hour (UTC) of the daily digest, and when the last one went.
    digest_hour      BIGINT NOT NULL DEFAULT 8 CHECK (digest_hour BETWEEN 0 AND 23),
    digest_sent_ms   BIGINT,
    created_ms       BIGINT NOT NULL
);

-- Per account and kind, how it is mailed: immediate, digest or off (no row: the default).
CREATE TABLE notification_prefs (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    mail       TEXT    NOT NULL CHECK (mail IN ('immediate', 'digest', 'off')),
    PRIMARY KEY (account_id, kind)
);

-- Who watches a game live now, per socket (every instance's): a your-turn mail waits for
-- none of them. A row not refreshed for a minute is a socket whose instance died.
CREATE TABLE watchers (
    socket_id  TEXT    PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game_id    TEXT    NOT NULL,
    seen_ms    BIGINT NOT NULL
);
CREATE INDEX watchers_by_game ON watchers (game_id, account_id);
