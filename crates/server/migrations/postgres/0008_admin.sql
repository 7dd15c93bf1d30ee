-- The operators' tools (issue 24): roles, bans and the append-only admin log.

-- Who may do what beyond playing: 'admin' (everything) or 'moderator' (bans).
CREATE TABLE roles (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    role       TEXT   NOT NULL CHECK (role IN ('admin', 'moderator')),
    granted_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, role)
);

-- When the account was banned; NULL for an account in good standing.
ALTER TABLE accounts ADD COLUMN banned_ms BIGINT;

-- Every act of an administrator or moderator, and of the operator at the command line
-- (actor 'operator'): only ever inserted into.
CREATE TABLE admin_log (
    id     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at_ms  BIGINT NOT NULL,
    actor  TEXT   NOT NULL,
    action TEXT   NOT NULL,
    target TEXT   NOT NULL,
    detail TEXT   NOT NULL
);
CREATE FUNCTION admin_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'admin_log is append-only';
END;
$$;
CREATE TRIGGER admin_log_no_change BEFORE UPDATE OR DELETE ON admin_log
    FOR EACH ROW EXECUTE FUNCTION admin_log_append_only();
