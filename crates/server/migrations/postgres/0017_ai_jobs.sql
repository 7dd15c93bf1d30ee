-- The AI's moves as jobs (issue 28): one row per game and ply the AI is to move at, so that
-- any number of AI workers, on any machines, share them; a claimed job carries a lease, and a
-- worker that dies mid-search has its job taken again once the lease has run out. The row is
-- removed in the transaction that plays the move.
CREATE TABLE ai_jobs (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    created_ms BIGINT NOT NULL,
    -- The worker holding the job and until when (NULL: free to claim).
    claimed_by TEXT,
    lease_until_ms BIGINT,
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX ai_jobs_by_lease ON ai_jobs (lease_until_ms, created_ms);
