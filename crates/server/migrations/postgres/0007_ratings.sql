-- Glicko-2 ratings, one pool per two-player game (issue 26; the rules: docs/RATINGS.md).
-- Ratings change in the transaction that ends a rated game (`store/ratings.rs`).

-- Whether a game counts for the ratings: chosen at the challenge; games made before ratings
-- existed were not played as rated.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));

-- Each account's record in each game's pool, after its last rated game (league's
-- PlayerRating): RD is grown by inactivity when shown, never stored grown.
CREATE TABLE ratings (
    account_id   BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game         TEXT    NOT NULL,
    rating       DOUBLE PRECISION NOT NULL,
    rd           DOUBLE PRECISION NOT NULL,
    volatility   DOUBLE PRECISION NOT NULL,
    games        BIGINT  NOT NULL CHECK (games >= 0),
    -- When the last rated game ended (its second is what the ratings used).
    last_game_ms BIGINT,
    PRIMARY KEY (account_id, game)
);
-- The leaderboard walks a pool from the top rating down.
CREATE INDEX ratings_by_pool ON ratings (game, rating);

-- One row per player of each rated game: the game view's rating before and change, and the
-- player's history. The key makes a second rating of one game fail: it is rated once.
CREATE TABLE rating_changes (
    game_id           TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat              BIGINT  NOT NULL CHECK (seat >= 0),
    account_id        BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game              TEXT    NOT NULL,
    at_ms             BIGINT  NOT NULL,
    -- The rating going in (RD grown to the game's end) ...
    before_rating     DOUBLE PRECISION NOT NULL,
    before_rd         DOUBLE PRECISION NOT NULL,
    before_volatility DOUBLE PRECISION NOT NULL,
    -- ... and after it.
    rating            DOUBLE PRECISION NOT NULL,
    rd                DOUBLE PRECISION NOT NULL,
    volatility        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_changes_history ON rating_changes (account_id, game, at_ms);
-- Rerating replays the rated games in the order they ended.
CREATE INDEX rating_changes_by_time ON rating_changes (at_ms, game_id);
