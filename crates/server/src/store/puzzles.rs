//! The puzzles' storage (issue 25): the puzzles, seeded from the file the play crate ships,
//! and each account's attempts and record (solved, failed, the streak).

use std::collections::HashMap;

use sqlx::Row as _;
use sqlx::any::AnyRow;
use swapboard_play::GameId;
use swapboard_play::puzzles::{Puzzle, Theme};

use super::pool::Store;

/// The puzzles inserted by one statement: 100 rows of 10 values, within both databases'
/// limits on a statement's parameters.
const SEED_BATCH: usize = 100;

/// The step between two days' puzzles in the stored order: a prime, so that the days visit
/// every puzzle before one comes again (unless there are a multiple of 7,919 of them).
const DAILY_STRIDE: i64 = 7_919;

/// The columns of a puzzle row, in the order [`puzzle_of`] reads them.
const COLUMNS: &str = "id, game, size, position, solution, line, difficulty, theme, nodes";

/// An account's record at the puzzles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PuzzleRecord {
    /// Puzzles solved at the first attempt.
    pub(crate) solved: i64,
    /// Puzzles failed at the first attempt.
    pub(crate) failed: i64,
    /// Puzzles solved in a row, up to now.
    pub(crate) streak: i64,
    /// The longest such run.
    pub(crate) best_streak: i64,
}

/// Which puzzles a list shows.
#[derive(Clone, Debug)]
pub(crate) struct PuzzleFilter {
    /// Only this game's.
    pub(crate) game: Option<GameId>,
    /// Only those at least this hard.
    pub(crate) min_difficulty: i64,
    /// Only those at most this hard.
    pub(crate) max_difficulty: i64,
    /// At most this many.
    pub(crate) limit: i64,
    /// Only the games the server offers.
    pub(crate) offered: Vec<GameId>,
}

/// `game IN ($from, ...)` over `games`, the placeholders numbered from `from` (a list of no
/// game matches nothing).
fn games_in(games: &[GameId], from: usize) -> String {
    if games.is_empty() {
        return "1 = 0".to_owned();
    }
    let marks: Vec<String> = (from..from + games.len())
        .map(|k| format!("${k}"))
        .collect();
    format!("game IN ({})", marks.join(", "))
}

fn puzzle_of(row: &AnyRow) -> anyhow::Result<Puzzle> {
    let id: String = row.try_get(0)?;
    let game: String = row.try_get(1)?;
    let size: i64 = row.try_get(2)?;
    let line: String = row.try_get(5)?;
    let difficulty: i64 = row.try_get(6)?;
    let theme: String = row.try_get(7)?;
    let nodes: i64 = row.try_get(8)?;
    let damaged = |what: &str| anyhow::anyhow!("puzzle {id}: stored {what} does not read");
    Ok(Puzzle {
        game: game.parse().map_err(|_| damaged("game"))?,
        size: usize::try_from(size).map_err(|_| damaged("size"))?,
        position: row.try_get(3)?,
        solution: row.try_get(4)?,
        line: line.split_whitespace().map(str::to_owned).collect(),
        difficulty: u32::try_from(difficulty).map_err(|_| damaged("difficulty"))?,
        theme: Theme::of_str(&theme).ok_or_else(|| damaged("theme"))?,
        nodes: u64::try_from(nodes).map_err(|_| damaged("nodes"))?,
        id,
    })
}

impl Store {
    /// Adds the puzzles of `puzzles` the database lacks (all of them on a first start), and
    /// brings up to date the line, difficulty and theme of those it holds otherwise (a
    /// newer binary's file, re-examined when what a puzzle's words claim was made exact:
    /// issue 45), in one transaction. Nothing is written when the database holds every
    /// puzzle as the list has it. A stored puzzle the list no longer has is kept: attempts
    /// refer to it.
    pub(crate) async fn seed_puzzles(&self, puzzles: &[Puzzle]) -> anyhow::Result<()> {
        let rows = sqlx::query("SELECT id, line, difficulty, theme FROM puzzles")
            .fetch_all(&self.pool)
            .await?;
        let mut stored = HashMap::with_capacity(rows.len());
        for row in &rows {
            let id: String = row.try_get(0)?;
            let line: String = row.try_get(1)?;
            let difficulty: i64 = row.try_get(2)?;
            let theme: String = row.try_get(3)?;
            stored.insert(id, (line, difficulty, theme));
        }
        let mut missing = Vec::new();
        let mut changed = Vec::new();
        for puzzle in puzzles {
            match stored.get(&puzzle.id) {
                None => missing.push(puzzle),
                Some((line, difficulty, theme))
                    if *line != puzzle.line.join(" ")
                        || *difficulty != i64::from(puzzle.difficulty)
                        || theme != puzzle.theme.as_str() =>
                {
                    changed.push(puzzle);
                }
                Some(_) => {}
            }
        }
        if missing.is_empty() && changed.is_empty() {
            return Ok(());
        }
        let mut tx = self.begin_write().await?;
        for puzzle in changed {
            sqlx::query("UPDATE puzzles SET line = $1, difficulty = $2, theme = $3 WHERE id = $4")
                .bind(puzzle.line.join(" "))
                .bind(i64::from(puzzle.difficulty))
                .bind(puzzle.theme.as_str())
                .bind(puzzle.id.clone())
                .execute(&mut *tx)
                .await?;
        }
        let next: i64 = sqlx::query("SELECT COALESCE(MAX(seq) + 1, 0) FROM puzzles")
            .fetch_one(&mut *tx)
            .await?
            .try_get(0)?;
        for (batch_index, batch) in missing.chunks(SEED_BATCH).enumerate() {
            let rows: Vec<String> = (0..batch.len())
                .map(|i| {
                    let p = i * 10;
                    format!(
                        "(${}, ${}, ${}, ${}, ${}, ${}, ${}, ${}, ${}, ${})",
                        p + 1,
                        p + 2,
                        p + 3,
                        p + 4,
                        p + 5,
                        p + 6,
                        p + 7,
                        p + 8,
                        p + 9,
                        p + 10
                    )
                })
                .collect();
            let sql = format!(
                "INSERT INTO puzzles ({COLUMNS}, seq) VALUES {} ON CONFLICT DO NOTHING",
                rows.join(", ")
            );
            let mut query = sqlx::query(&sql);
            for (i, puzzle) in batch.iter().enumerate() {
                let seq = next + i64::try_from(batch_index * SEED_BATCH + i)?;
                query = query
                    .bind(puzzle.id.clone())
                    .bind(puzzle.game.as_str())
                    .bind(i64::try_from(puzzle.size)?)
                    .bind(puzzle.position.clone())
                    .bind(puzzle.solution.clone())
                    .bind(puzzle.line.join(" "))
                    .bind(i64::from(puzzle.difficulty))
                    .bind(puzzle.theme.as_str())
                    .bind(i64::try_from(puzzle.nodes)?)
                    .bind(seq);
            }
            query.execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The puzzles `filter` asks for, easiest first.
    pub(crate) async fn puzzles(&self, filter: PuzzleFilter) -> anyhow::Result<Vec<Puzzle>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM puzzles WHERE ($1 = '' OR game = $1) AND difficulty >= $2 \
             AND difficulty <= $3 AND {} ORDER BY difficulty, id LIMIT $4",
            games_in(&filter.offered, 5)
        );
        let mut query = sqlx::query(&sql)
            .bind(filter.game.map_or("", GameId::as_str))
            .bind(filter.min_difficulty)
            .bind(filter.max_difficulty)
            .bind(filter.limit);
        for game in &filter.offered {
            query = query.bind(game.as_str());
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter().map(puzzle_of).collect()
    }

    /// The puzzle of that id, if any.
    pub(crate) async fn puzzle(&self, id: &str) -> anyhow::Result<Option<Puzzle>> {
        let sql = format!("SELECT {COLUMNS} FROM puzzles WHERE id = $1");
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(puzzle_of).transpose()
    }

    /// The puzzle of day `day` (days since the Unix epoch), the same for everyone on a day:
    /// day `d` takes the puzzle at `d * DAILY_STRIDE` (modulo their number) in the order they
    /// were stored, so that consecutive days hop between the file's games and sizes and every
    /// puzzle comes in turn (the stride is a prime), among the `offered` games' puzzles.
    /// `None` when there is no puzzle.
    pub(crate) async fn daily_puzzle(
        &self,
        day: i64,
        offered: &[GameId],
    ) -> anyhow::Result<Option<Puzzle>> {
        let sql = format!(
            "SELECT COUNT(*) FROM puzzles WHERE {}",
            games_in(offered, 1)
        );
        let mut query = sqlx::query(&sql);
        for game in offered {
            query = query.bind(game.as_str());
        }
        let count: i64 = query.fetch_one(&self.pool).await?.try_get(0)?;
        if count == 0 {
            return Ok(None);
        }
        let sql = format!(
            "SELECT {COLUMNS} FROM puzzles WHERE {} ORDER BY seq LIMIT 1 OFFSET $1",
            games_in(offered, 2)
        );
        let mut query = sqlx::query(&sql).bind(
            day.rem_euclid(count)
                .wrapping_mul(DAILY_STRIDE)
                .rem_euclid(count),
        );
        for game in offered {
            query = query.bind(game.as_str());
        }
        let row = query.fetch_optional(&self.pool).await?;
        row.as_ref().map(puzzle_of).transpose()
    }

    /// Records an account's attempt at a puzzle and answers its record after it. Only the
    /// first attempt at a puzzle counts (solved or failed, and the streak): trying again
    /// after seeing the solution changes nothing.
    pub(crate) async fn record_attempt(
        &self,
        account_id: i64,
        puzzle_id: &str,
        correct: bool,
        at_ms: i64,
    ) -> anyhow::Result<PuzzleRecord> {
        let mut tx = self.begin_write().await?;
        let first = sqlx::query(
            "INSERT INTO puzzle_attempts (account_id, puzzle_id, correct, at_ms) \
             VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        )
        .bind(account_id)
        .bind(puzzle_id)
        .bind(i64::from(correct))
        .bind(at_ms)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if first {
            sqlx::query(
                "INSERT INTO puzzle_records (account_id) VALUES ($1) ON CONFLICT DO NOTHING",
            )
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
            let sql = if correct {
                "UPDATE puzzle_records SET solved = solved + 1, streak = streak + 1, \
                 best_streak = CASE WHEN streak + 1 > best_streak THEN streak + 1 \
                 ELSE best_streak END WHERE account_id = $1"
            } else {
                "UPDATE puzzle_records SET failed = failed + 1, streak = 0 WHERE account_id = $1"
            };
            sqlx::query(sql).bind(account_id).execute(&mut *tx).await?;
        }
        let record = record_in(&mut tx, account_id).await?;
        tx.commit().await?;
        Ok(record)
    }
}

async fn record_in(
    conn: &mut sqlx::AnyConnection,
    account_id: i64,
) -> anyhow::Result<PuzzleRecord> {
    let row = sqlx::query(
        "SELECT solved, failed, streak, best_streak FROM puzzle_records WHERE account_id = $1",
    )
    .bind(account_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else {
        return Ok(PuzzleRecord::default());
    };
    Ok(PuzzleRecord {
        solved: row.try_get(0)?,
        failed: row.try_get(1)?,
        streak: row.try_get(2)?,
        best_streak: row.try_get(3)?,
    })
}
