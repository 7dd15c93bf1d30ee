-- The Unicode TR39 confusable skeleton of each account's name (`play::names::skeleton`),
-- so that a name which merely looks like an account's ("аdmin" with a Cyrillic а, "rnike"
-- for "mike") is found through an index. Accounts made before this migration get theirs
-- when the server starts (the skeleton is computed in Rust, not SQL).
ALTER TABLE accounts ADD COLUMN name_skeleton TEXT;
CREATE INDEX accounts_by_skeleton ON accounts (name_skeleton);
