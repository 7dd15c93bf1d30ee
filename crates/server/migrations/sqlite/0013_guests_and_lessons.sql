-- Guests and lessons (issue 25).

-- When a visitor's guest account was made (it plays the AI without a password, under a name
-- `guest-...`); NULL for an account signed up with a name and password. Signing up from a
-- guest session turns that very row into the new account, so its games stay its own.
ALTER TABLE accounts ADD COLUMN guest_ms INTEGER;

-- How far each account (guests included) has come in each game's lesson: the furthest step
-- done, counted from 1 (0: none yet).
CREATE TABLE lesson_progress (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game       TEXT    NOT NULL,
    done       INTEGER NOT NULL CHECK (done >= 0),
    updated_ms INTEGER NOT NULL,
    PRIMARY KEY (account_id, game)
);
