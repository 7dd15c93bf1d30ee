-- Ratings by size band (issue 49): one Glicko-2 pool per game and band of board sizes
-- (`GameId::bands`, docs/RATINGS.md), so that a game on a small board no longer moves the
-- rating of the usual one.
--
-- The records are remade rather than converted: `ratings` is emptied into its new shape, and
-- each rated game's `rating_changes.band` stays NULL until the rerate that the server runs
-- when it opens a database holding such changes (`Store::place_in_bands`) replays every
-- rated game into its band, through the same code as `swapboard admin rerate`. That rerate
-- also unrates the games played on boards the solver has proved from the start.
DROP TABLE ratings;
CREATE TABLE ratings (
    account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game         TEXT    NOT NULL,
    -- `small`, `standard` or `large`.
    band         TEXT    NOT NULL,
    rating       REAL    NOT NULL,
    rd           REAL    NOT NULL,
    volatility   REAL    NOT NULL,
    games        INTEGER NOT NULL CHECK (games >= 0),
    -- When the last rated game ended (its second is what the ratings used).
    last_game_ms INTEGER,
    PRIMARY KEY (account_id, game, band)
);
-- The leaderboard walks a pool from the top rating down.
CREATE INDEX ratings_by_pool ON ratings (game, band, rating);

ALTER TABLE rating_changes ADD COLUMN band TEXT;
DROP INDEX rating_changes_history;
CREATE INDEX rating_changes_history ON rating_changes (account_id, game, band, at_ms);
-- The changes still to place in a band: what the server looks for when it opens.
CREATE INDEX rating_changes_unplaced ON rating_changes (game_id) WHERE band IS NULL;

-- Whether the challenger asked for a rated game in so many words (`"rated": true`): a game
-- between a person and a bot is rated only when both asked (the joiner at its join).
ALTER TABLE games ADD COLUMN rated_asked INTEGER NOT NULL DEFAULT 0 CHECK (rated_asked IN (0, 1));
