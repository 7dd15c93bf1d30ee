-- Clocks the server runs: each side's time when its turn last began (live time controls)
-- and when the side to move began its turn. The clock is rebuilt from these on every move,
-- so no instance keeps it in memory.
ALTER TABLE games ADD COLUMN clock_left_first_ms INTEGER;
ALTER TABLE games ADD COLUMN clock_left_second_ms INTEGER;
ALTER TABLE games ADD COLUMN turn_started_ms INTEGER;

-- The lobby lists waiting games and games being played, most recent first.
CREATE INDEX games_by_status_and_update ON games (status, updated_ms);

-- The games with an AI seat, which a starting server looks through to resume AI turns.
CREATE INDEX seats_with_ai ON seats (game_id) WHERE ai_level IS NOT NULL;
