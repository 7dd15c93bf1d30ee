-- A seat kept for one account (a game offered to `user:NAME`): empty until that account joins.
ALTER TABLE seats ADD COLUMN invited_id BIGINT REFERENCES accounts (id);
