//! The AI's moves as jobs shared by every AI worker (`crate::ai_worker`): a row per game and
//! ply the AI is to move at, claimed with a lease. On PostgreSQL claimers skip each other's
//! locked rows (`FOR UPDATE SKIP LOCKED`), so any number of workers on any machines claim
//! different jobs; on SQLite the database's single writer serialises the claims.

use sqlx::{Any, Row as _, Transaction};

use super::pool::{Backend, Store, now_ms};

/// A claimed job: the AI is to move in this game at this ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AiJob {
    /// The game.
    pub(crate) game_id: String,
    /// The ply the AI moves at; a game that has moved on since makes the job stale.
    pub(crate) ply: u32,
}

impl Store {
    /// Writes the job for the AI's move at `ply` if the seat to move there is an AI's; a job
    /// already written is kept (the key makes it exist once).
    pub(crate) async fn enqueue_ai_job(
        &self,
        game_id: &str,
        ply: u32,
        seat: u8,
    ) -> anyhow::Result<()> {
        let mut tx = self.begin_write().await?;
        Self::enqueue_ai_job_in(&mut tx, game_id, ply, seat).await?;
        tx.commit().await?;
        Ok(())
    }

    /// As [`Store::enqueue_ai_job`], in the transaction that makes it the seat's turn.
    pub(super) async fn enqueue_ai_job_in(
        tx: &mut Transaction<'static, Any>,
        game_id: &str,
        ply: u32,
        seat: u8,
    ) -> sqlx::Result<()> {
        sqlx::query(
            "INSERT INTO ai_jobs (game_id, ply, created_ms) \
             SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM seats \
               WHERE game_id = $1 AND seat = $4 AND ai_level IS NOT NULL) \
             ON CONFLICT (game_id, ply) DO NOTHING",
        )
        .bind(game_id)
        .bind(i64::from(ply))
        .bind(now_ms())
        .bind(i64::from(seat))
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// Removes the game's jobs for plies before `ply` (played, or made stale by the move
    /// being stored in this transaction).
    pub(super) async fn finish_ai_jobs_in(
        tx: &mut Transaction<'static, Any>,
        game_id: &str,
        ply: u32,
    ) -> sqlx::Result<()> {
        sqlx::query("DELETE FROM ai_jobs WHERE game_id = $1 AND ply < $2")
            .bind(game_id)
            .bind(i64::from(ply))
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    /// Removes one job: its game moved on or ended without it, or nobody AI is to move.
    pub(crate) async fn drop_ai_job(&self, job: &AiJob) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM ai_jobs WHERE game_id = $1 AND ply = $2")
            .bind(&job.game_id)
            .bind(i64::from(job.ply))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Claims the oldest job nobody holds (or whose holder's lease ran out) for `worker`
    /// until `lease_ms` from now; `None` when there is none.
    pub(crate) async fn claim_ai_job(
        &self,
        worker: &str,
        lease_ms: i64,
    ) -> anyhow::Result<Option<AiJob>> {
        let now = now_ms();
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let mut tx = self.begin_write().await?;
        let row = sqlx::query(&format!(
            "SELECT game_id, ply FROM ai_jobs \
             WHERE lease_until_ms IS NULL OR lease_until_ms < $1 \
             ORDER BY created_ms, game_id LIMIT 1{lock}"
        ))
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let job = AiJob {
            game_id: row.try_get(0)?,
            ply: u32::try_from(row.try_get::<i64, _>(1)?)?,
        };
        sqlx::query(
            "UPDATE ai_jobs SET claimed_by = $1, lease_until_ms = $2 \
             WHERE game_id = $3 AND ply = $4",
        )
        .bind(worker)
        .bind(now.saturating_add(lease_ms))
        .bind(&job.game_id)
        .bind(i64::from(job.ply))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(job))
    }
}
