//! The reviews of finished games: computed once, by whichever instance claims the game, and
//! stored, so that every instance answers from the database, before and after a restart.
//!
//! A claim is a lease, as the deadlines' are: the instance that holds it renews it with each
//! position it reviews; one that died lets its lease run out, and the next request for the
//! review claims it again and starts over.

use sqlx::Row as _;

use super::pool::{Store, now_ms};

/// Where a game's review stands, when someone has begun it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewState {
    /// Done: the reviewed moves, as the JSON stored.
    Done(String),
    /// Under way on an instance whose lease holds.
    Running {
        /// Positions reviewed.
        done: u32,
        /// Positions to review.
        total: u32,
    },
}

impl Store {
    /// The review of a game if it is done or under way at `now`; `None` when nobody has
    /// begun it, or its lease ran out (its instance died): it is then to be claimed.
    pub async fn review_state(
        &self,
        game_id: &str,
        now: i64,
    ) -> anyhow::Result<Option<ReviewState>> {
        let row = sqlx::query(
            "SELECT status, done, total, moves, claimed_until_ms FROM reviews WHERE game_id = $1",
        )
        .bind(game_id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let status: String = row.try_get("status")?;
        if status == "done" {
            let moves: Option<String> = row.try_get("moves")?;
            return Ok(Some(ReviewState::Done(
                moves.unwrap_or_else(|| "[]".to_owned()),
            )));
        }
        let lease: Option<i64> = row.try_get("claimed_until_ms")?;
        if lease.is_none_or(|until| until <= now) {
            return Ok(None);
        }
        let count = |column: &str| -> anyhow::Result<u32> {
            let value: i64 = row.try_get(column)?;
            Ok(u32::try_from(value).unwrap_or(0))
        };
        Ok(Some(ReviewState::Running {
            done: count("done")?,
            total: count("total")?,
        }))
    }

    /// Claims the review of a game for this caller until `lease_until_ms`, to review `total`
    /// positions; whether the claim is this caller's. Two callers racing for one claim:
    /// exactly one wins, by the primary key (a new row) or by the lease's condition (the row
    /// of an instance that died).
    pub async fn claim_review(
        &self,
        game_id: &str,
        total: u32,
        now: i64,
        lease_until_ms: i64,
    ) -> anyhow::Result<bool> {
        let inserted = sqlx::query(
            "INSERT INTO reviews (game_id, status, done, total, claimed_until_ms, updated_ms) \
             VALUES ($1, 'running', 0, $2, $3, $4) ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(i64::from(total))
        .bind(lease_until_ms)
        .bind(now)
        .execute(&self.pool)
        .await?;
        if inserted.rows_affected() == 1 {
            return Ok(true);
        }
        let taken = sqlx::query(
            "UPDATE reviews SET done = 0, total = $1, claimed_until_ms = $2, updated_ms = $3 \
             WHERE game_id = $4 AND status = 'running' \
             AND (claimed_until_ms IS NULL OR claimed_until_ms <= $3)",
        )
        .bind(i64::from(total))
        .bind(lease_until_ms)
        .bind(now)
        .bind(game_id)
        .execute(&self.pool)
        .await?;
        Ok(taken.rows_affected() == 1)
    }

    /// Records the progress of a review this caller holds, and renews its lease.
    pub async fn review_progress(
        &self,
        game_id: &str,
        done: u32,
        lease_until_ms: i64,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE reviews SET done = $1, claimed_until_ms = $2, updated_ms = $3 \
             WHERE game_id = $4 AND status = 'running'",
        )
        .bind(i64::from(done))
        .bind(lease_until_ms)
        .bind(now_ms())
        .bind(game_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Stores a finished review (its moves as JSON) for good.
    pub async fn finish_review(&self, game_id: &str, moves: &str) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE reviews SET status = 'done', done = total, moves = $1, \
             claimed_until_ms = NULL, updated_ms = $2 WHERE game_id = $3",
        )
        .bind(moves)
        .bind(now_ms())
        .bind(game_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
