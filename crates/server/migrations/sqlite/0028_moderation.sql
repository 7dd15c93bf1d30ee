-- Issue 48: the moderators' page. A ban may end by itself (`ban_until_ms`; none: for good)
-- and keeps its reason, told to its owner at login; moderators keep notes on an account;
-- the admin log is read by actor, action and target; the banned and muted are listed.
ALTER TABLE accounts ADD COLUMN ban_until_ms INTEGER;
ALTER TABLE accounts ADD COLUMN ban_reason TEXT;
CREATE INDEX accounts_banned ON accounts (banned_ms) WHERE banned_ms IS NOT NULL;
CREATE INDEX accounts_ban_ends ON accounts (ban_until_ms) WHERE ban_until_ms IS NOT NULL;
CREATE INDEX accounts_muted ON accounts (chat_muted_until_ms)
    WHERE chat_muted_until_ms IS NOT NULL;

CREATE TABLE moderator_notes (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    author     TEXT    NOT NULL,
    text       TEXT    NOT NULL,
    at_ms      INTEGER NOT NULL
);
CREATE INDEX moderator_notes_by_account ON moderator_notes (account_id, id);

CREATE INDEX admin_log_by_target ON admin_log (target, id);
CREATE INDEX admin_log_by_actor ON admin_log (actor, id);
CREATE INDEX admin_log_by_action ON admin_log (action, id);
