-- Issue 24: an admin may decide the result of a game being played; the game ends with the
-- termination `adjudicated`. The column's check (named by PostgreSQL's default,
-- games_termination_check) is replaced by one that knows the new word.
ALTER TABLE games DROP CONSTRAINT games_termination_check;
ALTER TABLE games ADD CONSTRAINT games_termination_check
    CHECK (termination IN ('rules', 'resigned', 'timeout', 'aborted', 'adjudicated'));
