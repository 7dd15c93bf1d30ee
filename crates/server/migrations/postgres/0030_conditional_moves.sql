-- Issue 50: conditional moves. A player waiting for the opponent's move keeps a plan of
-- replies, one row each: when the opponent's move at `ply` leads to the position `after`,
-- the server plays `reply` in that move's transaction. `path` is the plan's moves up to the
-- move answered; the rows of the branches the game leaves are deleted with the move that
-- leaves them. `games.conditional` says a plan waits, so that a move of a game without one
-- reads nothing more; `moves.by_condition` marks a reply the plan played.
CREATE TABLE conditional_moves (
    game_id  TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply      BIGINT  NOT NULL,
    after    TEXT    NOT NULL,
    seat     BIGINT  NOT NULL CHECK (seat IN (0, 1)),
    path     TEXT    NOT NULL,
    reply    TEXT    NOT NULL,
    base_ply BIGINT  NOT NULL,
    PRIMARY KEY (game_id, ply, after)
);
ALTER TABLE games ADD COLUMN conditional BIGINT NOT NULL DEFAULT 0 CHECK (conditional IN (0, 1));
ALTER TABLE moves ADD COLUMN by_condition BIGINT NOT NULL DEFAULT 0 CHECK (by_condition IN (0, 1));
