-- When an AI worker last took up a move for each account's game: the next move goes to the
-- account served longest ago, so that one account's many games against the AI cannot hold
-- back another account's (a queue per account, taken in turn).
CREATE TABLE ai_served (
    account_id BIGINT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    served_ms  BIGINT NOT NULL
);
