//! The reviews of finished games, as the AI workers' jobs: a request writes the game's row
//! (`running`, nobody holding it), any AI worker claims it with a lease, renews the lease at
//! each position it reviews, and stores the moves for good; every instance then answers from
//! the database, before and after a restart. A worker that dies lets its lease run out, and
//! the next worker to look claims the review again and starts over.

use sqlx::Row as _;

use super::ai_jobs::{AnyQuery, JobQueue, LeasedJob};
use super::pool::Store;

/// Where a game's review stands, once asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewState {
    /// Done: the reviewed moves, as the JSON stored.
    Done(String),
    /// Waiting for a worker, or under way.
    Running {
        /// Positions reviewed.
        done: u32,
        /// Positions to review.
        total: u32,
    },
}

/// A review claimed by a worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ReviewJob {
    /// The game reviewed.
    pub(crate) game_id: String,
}

/// The reviews waiting: the oldest asked for first.
const REVIEWS: JobQueue = JobQueue {
    table: "reviews",
    keys: "game_id",
    lease: "claimed_until_ms",
    free: "status = 'running'",
    order: "updated_ms, game_id",
    reset: ", done = 0",
};

impl LeasedJob for ReviewJob {
    const QUEUE: &'static JobQueue = &REVIEWS;

    fn bind_key<'q>(&'q self, query: AnyQuery<'q>) -> AnyQuery<'q> {
        query.bind(&self.game_id)
    }
}

impl Store {
    /// The review of a game if someone asked for it; `None` when nobody has.
    pub async fn review_state(&self, game_id: &str) -> anyhow::Result<Option<ReviewState>> {
        let row = sqlx::query("SELECT status, done, total, moves FROM reviews WHERE game_id = $1")
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
        let count = |column: &str| -> anyhow::Result<u32> {
            let value: i64 = row.try_get(column)?;
            Ok(u32::try_from(value).unwrap_or(0))
        };
        Ok(Some(ReviewState::Running {
            done: count("done")?,
            total: count("total")?,
        }))
    }

    /// Asks for the review of a game of `total` positions: writes its job unless it was
    /// asked for already; whether this call wrote it.
    pub async fn request_review(&self, game_id: &str, total: u32) -> anyhow::Result<bool> {
        let inserted = sqlx::query(
            "INSERT INTO reviews (game_id, status, done, total, updated_ms) \
             VALUES ($1, 'running', 0, $2, $3) ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(i64::from(total))
        .bind(self.now_ms())
        .execute(&self.pool)
        .await?;
        Ok(inserted.rows_affected() == 1)
    }

    /// Claims the oldest review nobody holds (or whose holder's lease ran out) for `worker`
    /// until `lease_ms` from now; `None` when none is waiting.
    pub(crate) async fn claim_review(
        &self,
        worker: &str,
        lease_ms: i64,
    ) -> anyhow::Result<Option<ReviewJob>> {
        let row = self.claim_job(&REVIEWS, worker, lease_ms).await?;
        Ok(row
            .map(|row| row.try_get(0))
            .transpose()?
            .map(|game_id| ReviewJob { game_id }))
    }

    /// Records the progress of a review `worker` holds and renews its lease; whether it
    /// still holds it (a worker whose lease ran out and was taken over stops).
    pub(crate) async fn review_progress(
        &self,
        job: &ReviewJob,
        worker: &str,
        done: u32,
        lease_ms: i64,
    ) -> anyhow::Result<bool> {
        let now = self.now_ms();
        let renewed = sqlx::query(
            "UPDATE reviews SET done = $1, claimed_until_ms = $2, updated_ms = $3 \
             WHERE game_id = $4 AND status = 'running' AND claimed_by = $5",
        )
        .bind(i64::from(done))
        .bind(now.saturating_add(lease_ms))
        .bind(now)
        .bind(&job.game_id)
        .bind(worker)
        .execute(&self.pool)
        .await?;
        Ok(renewed.rows_affected() == 1)
    }

    /// Stores a finished review (its moves as JSON) for good, if `worker` still holds it.
    pub(crate) async fn finish_review(
        &self,
        job: &ReviewJob,
        worker: &str,
        moves: &str,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE reviews SET status = 'done', done = total, moves = $1, claimed_by = NULL, \
             claimed_until_ms = NULL, updated_ms = $2 \
             WHERE game_id = $3 AND status = 'running' AND claimed_by = $4",
        )
        .bind(moves)
        .bind(self.now_ms())
        .bind(&job.game_id)
        .bind(worker)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
