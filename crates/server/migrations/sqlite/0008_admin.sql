-- The operators' tools (issue 24): roles, bans and the append-only admin log.

-- Who may do what beyond playing: 'admin' (everything) or 'moderator' (bans).
CREATE TABLE roles (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    role       TEXT    NOT NULL CHECK (role IN ('admin', 'moderator')),
    granted_ms INTEGER NOT NULL,
    PRIMARY KEY (account_id, role)
);

-- When the account was banned; NULL for an account in good standing.
ALTER TABLE accounts ADD COLUMN banned_ms INTEGER;

-- Every act of an administrator or moderator, and of the operator at the command line
-- (actor 'operator'): only ever inserted into.
CREATE TABLE admin_log (
    id     INTEGER PRIMARY KEY,
    at_ms  INTEGER NOT NULL,
    actor  TEXT    NOT NULL,
    action TEXT    NOT NULL,
    target TEXT    NOT NULL,
    detail TEXT    NOT NULL
);
CREATE TRIGGER admin_log_no_update BEFORE UPDATE ON admin_log
BEGIN
    SELECT RAISE(ABORT, 'admin_log is append-only');
END;
CREATE TRIGGER admin_log_no_delete BEFORE DELETE ON admin_log
BEGIN
    SELECT RAISE(ABORT, 'admin_log is append-only');
END;
