-- Analyses and reviews as the AI workers' jobs (issue 28), beside the AI's moves: a request
-- writes the job, and any AI worker (the one `serve` embeds or `swapboard ai-worker`
-- processes elsewhere) claims it with a lease, computes it and stores the answer.

-- A review's row is its job: 'running' with no lease is waiting for a worker; the worker
-- holding it is named, so that a worker whose lease ran out cannot overwrite another's work.
ALTER TABLE reviews ADD COLUMN claimed_by TEXT;
CREATE INDEX reviews_to_claim ON reviews (claimed_until_ms, updated_ms) WHERE status = 'running';

-- One analysis per position and level of a finished game, computed once: a finished game
-- never changes, so a stored answer is the answer for good.
CREATE TABLE analyses (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    level INTEGER NOT NULL,
    created_ms BIGINT NOT NULL,
    -- The worker holding the job and until when (NULL: free to claim).
    claimed_by TEXT,
    lease_until_ms BIGINT,
    -- The analysis as the API's JSON, once computed.
    answer TEXT,
    PRIMARY KEY (game_id, ply, level)
);
CREATE INDEX analyses_to_claim ON analyses (lease_until_ms, created_ms) WHERE answer IS NULL;
