-- A game's deadline (when the player to move runs out of time) and the scheduler's claim on
-- it move into the game's row: the move's one update of the game sets them, and no move
-- pays a statement for a table of its own. The index holds only games with a deadline.
ALTER TABLE games ADD COLUMN due_ms INTEGER;
ALTER TABLE games ADD COLUMN claimed_until_ms INTEGER;
UPDATE games SET
    due_ms = (SELECT d.due_ms FROM deadlines d WHERE d.game_id = games.id AND d.ply = games.ply),
    claimed_until_ms = (SELECT d.claimed_until_ms FROM deadlines d
                        WHERE d.game_id = games.id AND d.ply = games.ply)
WHERE status = 'playing';
DROP TABLE deadlines;
CREATE INDEX games_due ON games (due_ms) WHERE due_ms IS NOT NULL;
