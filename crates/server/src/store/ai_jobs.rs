//! The AI's moves as jobs shared by every AI worker (`crate::ai_worker`): a row per game and
//! ply the AI is to move at, claimed with a lease. On PostgreSQL claimers skip each other's
//! locked rows (`FOR UPDATE SKIP LOCKED`), so any number of workers on any machines claim
//! different jobs; on SQLite the database's single writer serialises the claims.

use sqlx::any::{AnyArguments, AnyRow};
use sqlx::query::Query;
use sqlx::{Any, Row as _, Transaction};

use super::pool::{Backend, Store};

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
        self.enqueue_ai_job_in(&mut tx, game_id, ply, seat).await?;
        tx.commit().await?;
        Ok(())
    }

    /// As [`Store::enqueue_ai_job`], in the transaction that makes it the seat's turn.
    pub(super) async fn enqueue_ai_job_in(
        &self,
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
        .bind(self.now_ms())
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

    /// Claims a job nobody holds (or whose holder's lease ran out) for `worker` until
    /// `lease_ms` from now, the account served longest ago first ([`MOVES`]); `None` when
    /// there is none.
    pub(crate) async fn claim_ai_job(
        &self,
        worker: &str,
        lease_ms: i64,
    ) -> anyhow::Result<Option<AiJob>> {
        let Some(row) = self.claim_job(&MOVES, worker, lease_ms).await? else {
            return Ok(None);
        };
        let job = AiJob {
            game_id: row.try_get(0)?,
            ply: u32::try_from(row.try_get::<i64, _>(1)?)?,
        };
        // The account's turn is taken: its other games wait behind everyone else's.
        sqlx::query(
            "INSERT INTO ai_served (account_id, served_ms) \
             SELECT s.account_id, $2 FROM seats s WHERE s.game_id = $1 \
               AND s.ai_level IS NULL AND s.account_id IS NOT NULL \
             ON CONFLICT (account_id) DO UPDATE SET served_ms = excluded.served_ms",
        )
        .bind(&job.game_id)
        .bind(self.now_ms())
        .execute(&self.pool)
        .await?;
        Ok(Some(job))
    }

    /// The AI workers' jobs not yet done (waiting or under way), by kind: `move`,
    /// `analysis`, `review`. Each count reads an index of the rows not done.
    pub(crate) async fn ai_jobs_waiting(&self) -> anyhow::Result<[(&'static str, i64); 3]> {
        let row = sqlx::query(
            "SELECT (SELECT count(*) FROM ai_jobs), \
             (SELECT count(*) FROM analyses WHERE answer IS NULL), \
             (SELECT count(*) FROM reviews WHERE status = 'running')",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok([
            ("move", row.try_get(0)?),
            ("analysis", row.try_get(1)?),
            ("review", row.try_get(2)?),
        ])
    }

    /// Claims the first free job of `queue` for `worker` until `lease_ms` from now, and
    /// gives back its key columns; `None` when there is none. One statement, committed
    /// before the row is given back: on PostgreSQL claimers skip the rows others are
    /// claiming (`FOR UPDATE SKIP LOCKED`), on SQLite the single writer orders them.
    pub(super) async fn claim_job(
        &self,
        queue: &JobQueue,
        worker: &str,
        lease_ms: i64,
    ) -> sqlx::Result<Option<AnyRow>> {
        let now = self.now_ms();
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let JobQueue {
            table,
            keys,
            lease,
            free,
            order,
            reset,
        } = queue;
        let sql = format!(
            "UPDATE {table} SET claimed_by = $1, {lease} = $2{reset} \
             WHERE ({keys}) IN (SELECT {keys} FROM {table} \
               WHERE {free} AND ({lease} IS NULL OR {lease} < $3) \
               ORDER BY {order} LIMIT 1{lock}) \
             RETURNING {keys}"
        );
        self.write_returning(
            sqlx::query(&sql)
                .bind(worker)
                .bind(now.saturating_add(lease_ms))
                .bind(now),
        )
        .await
    }

    /// Extends the lease of a job `worker` holds to `lease_ms` from now; whether it still
    /// holds it (`false` once the job is done, or taken by another worker after a lapse).
    pub(crate) async fn renew_lease<J: LeasedJob>(
        &self,
        job: &J,
        worker: &str,
        lease_ms: i64,
    ) -> anyhow::Result<bool> {
        let JobQueue {
            table, keys, lease, ..
        } = J::QUEUE;
        let placeholders = (3..3 + keys.split(',').count())
            .map(|n| format!("${n}"))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "UPDATE {table} SET {lease} = $1 WHERE claimed_by = $2 AND ({keys}) = ({placeholders})"
        );
        let query = sqlx::query(&sql)
            .bind(self.now_ms().saturating_add(lease_ms))
            .bind(worker);
        let renewed = job.bind_key(query).execute(&self.pool).await?;
        Ok(renewed.rows_affected() == 1)
    }
}

/// A statement of the `Any` driver, its arguments bound so far.
pub(crate) type AnyQuery<'q> = Query<'q, Any, AnyArguments<'q>>;

/// A job claimed from a [`JobQueue`]: its queue, and its key to bind in a statement.
pub(crate) trait LeasedJob {
    /// The queue it was claimed from.
    const QUEUE: &'static JobQueue;

    /// Binds the job's key, in the order of the queue's `keys`.
    fn bind_key<'q>(&'q self, query: AnyQuery<'q>) -> AnyQuery<'q>;
}

impl LeasedJob for AiJob {
    const QUEUE: &'static JobQueue = &MOVES;

    fn bind_key<'q>(&'q self, query: AnyQuery<'q>) -> AnyQuery<'q> {
        query.bind(&self.game_id).bind(i64::from(self.ply))
    }
}

/// A table of jobs that AI workers claim with a lease: written once here for the AI's
/// moves, analyses and reviews, so that every kind is claimed the same way.
pub(crate) struct JobQueue {
    /// The table.
    pub(super) table: &'static str,
    /// The columns naming one job, as the claim gives them back.
    pub(super) keys: &'static str,
    /// The column of the lease's end (NULL or past: free to claim).
    pub(super) lease: &'static str,
    /// What else makes a row a job waiting (`TRUE` for a table of waiting jobs only).
    pub(super) free: &'static str,
    /// The order claims take (the oldest first, or in turn by account).
    pub(super) order: &'static str,
    /// More of the claim's `SET`, from a leading comma (a review starts over).
    pub(super) reset: &'static str,
}

/// The AI's moves: a row is removed with its move. Taken in turn by account (the game's
/// player who is not the AI, the one served longest ago first: `ai_served`), then the oldest
/// first: an account with many games against the AI delays another's move by one search at
/// most.
const MOVES: JobQueue = JobQueue {
    table: "ai_jobs",
    keys: "game_id, ply",
    lease: "lease_until_ms",
    free: "TRUE",
    order: "COALESCE((SELECT v.served_ms FROM ai_served v WHERE v.account_id = \
            (SELECT s.account_id FROM seats s WHERE s.game_id = ai_jobs.game_id \
             AND s.ai_level IS NULL AND s.account_id IS NOT NULL ORDER BY s.seat LIMIT 1)), 0), \
            created_ms, game_id",
    reset: "",
};
