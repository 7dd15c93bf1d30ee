//! The analyses of positions of finished games, as the AI workers' jobs: a request writes
//! the job of its position and level, any AI worker claims it with a lease and stores the
//! answer, and the request reads it. A finished game never changes, so the answer stored is
//! the answer to every later request for that position and level, on any instance.

use sqlx::Row as _;

use super::ai_jobs::{AnyQuery, JobQueue, LeasedJob};
use super::pool::Store;

/// An analysis asked for: the position after `ply` moves of the game, at `level`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AnalysisJob {
    /// The finished game.
    pub(crate) game_id: String,
    /// The number of moves before the position.
    pub(crate) ply: u32,
    /// The AI's level.
    pub(crate) level: u8,
}

/// The analyses waiting for an answer: the oldest asked for first.
const ANALYSES: JobQueue = JobQueue {
    table: "analyses",
    keys: "game_id, ply, level",
    lease: "lease_until_ms",
    free: "answer IS NULL",
    order: "created_ms, game_id, ply",
    reset: "",
};

impl LeasedJob for AnalysisJob {
    const QUEUE: &'static JobQueue = &ANALYSES;

    fn bind_key<'q>(&'q self, query: AnyQuery<'q>) -> AnyQuery<'q> {
        query
            .bind(&self.game_id)
            .bind(i64::from(self.ply))
            .bind(i64::from(self.level))
    }
}

impl Store {
    /// The stored answer of an analysis (the API's JSON), if a worker has given it.
    pub(crate) async fn analysis_answer(
        &self,
        job: &AnalysisJob,
    ) -> anyhow::Result<Option<String>> {
        let row = sqlx::query(
            "SELECT answer FROM analyses WHERE game_id = $1 AND ply = $2 AND level = $3",
        )
        .bind(&job.game_id)
        .bind(i64::from(job.ply))
        .bind(i64::from(job.level))
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|row| row.try_get(0)).transpose()?.flatten())
    }

    /// Writes the job of an analysis unless it was asked for already; whether this call
    /// wrote it.
    pub(crate) async fn request_analysis(&self, job: &AnalysisJob) -> anyhow::Result<bool> {
        let inserted = sqlx::query(
            "INSERT INTO analyses (game_id, ply, level, created_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (game_id, ply, level) DO NOTHING",
        )
        .bind(&job.game_id)
        .bind(i64::from(job.ply))
        .bind(i64::from(job.level))
        .bind(self.now_ms())
        .execute(&self.pool)
        .await?;
        Ok(inserted.rows_affected() == 1)
    }

    /// Claims the oldest analysis without an answer that nobody holds (or whose holder's
    /// lease ran out) for `worker` until `lease_ms` from now; `None` when none is waiting.
    pub(crate) async fn claim_analysis(
        &self,
        worker: &str,
        lease_ms: i64,
    ) -> anyhow::Result<Option<AnalysisJob>> {
        let Some(row) = self.claim_job(&ANALYSES, worker, lease_ms).await? else {
            return Ok(None);
        };
        Ok(Some(AnalysisJob {
            game_id: row.try_get(0)?,
            ply: u32::try_from(row.try_get::<i64, _>(1)?)?,
            level: u8::try_from(row.try_get::<i64, _>(2)?)?,
        }))
    }

    /// Stores the answer of an analysis. The search is seeded by the position, so a second
    /// worker that computed it after a lease ran out finds it answered and changes nothing.
    pub(crate) async fn answer_analysis(
        &self,
        job: &AnalysisJob,
        answer: &str,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE analyses SET answer = $1, claimed_by = NULL, lease_until_ms = NULL \
             WHERE game_id = $2 AND ply = $3 AND level = $4 AND answer IS NULL",
        )
        .bind(answer)
        .bind(&job.game_id)
        .bind(i64::from(job.ply))
        .bind(i64::from(job.level))
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
