-- The operators' remaining tools (issue 24): which address each account signed up from (for
-- the administrators' list of recent sign-ups), and rooms an administrator closed.

-- The client address of the sign-up (behind a trusted proxy, the forwarded one); NULL for
-- accounts made before this column, and cleared when an account is deleted.
ALTER TABLE accounts ADD COLUMN signup_addr TEXT;
CREATE INDEX accounts_by_signup ON accounts (created_ms);
CREATE INDEX accounts_by_signup_addr ON accounts (signup_addr, created_ms);

-- When an administrator closed the room before its last round (it is then 'finished').
ALTER TABLE rooms ADD COLUMN closed_ms BIGINT;
