//! The lessons' storage (issue 25): how many steps of each game's lesson an account (a
//! guest's too) has done.

use sqlx::Row as _;

use super::pool::Store;

impl Store {
    /// How many steps of `game`'s lesson the account has done (0 when it has not started).
    pub(crate) async fn lesson_progress(&self, account_id: i64, game: &str) -> anyhow::Result<i64> {
        let row =
            sqlx::query("SELECT done FROM lesson_progress WHERE account_id = $1 AND game = $2")
                .bind(account_id)
                .bind(game)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|row| row.try_get(0)).transpose()?.unwrap_or(0))
    }

    /// Records that the account has done the steps of `game`'s lesson up to `done` (a step
    /// done again, or an earlier one, never lowers it); how many are done now. One
    /// statement, so two tabs recording at once keep the larger.
    pub(crate) async fn lesson_done(
        &self,
        account_id: i64,
        game: &str,
        done: i64,
    ) -> anyhow::Result<i64> {
        let row = self
            .write_returning(
                sqlx::query(
                    "INSERT INTO lesson_progress (account_id, game, done, updated_ms) \
             VALUES ($1, $2, $3, $4) \
             ON CONFLICT (account_id, game) DO UPDATE SET \
             done = CASE WHEN excluded.done > lesson_progress.done \
                         THEN excluded.done ELSE lesson_progress.done END, \
             updated_ms = excluded.updated_ms \
             RETURNING done",
                )
                .bind(account_id)
                .bind(game)
                .bind(done)
                .bind(self.now_ms()),
            )
            .await?
            .ok_or(sqlx::Error::RowNotFound)?;
        Ok(row.try_get(0)?)
    }
}
