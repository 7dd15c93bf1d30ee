//! The server instances running on a database (`instances`), each with its version and the
//! schema it expects, seen again every `HEARTBEAT` (`crate::limits::instances`): a newer
//! instance does not migrate the schema under an older one still running (which would go on
//! writing the old way, skipping what the new schema hooks on a game's end), and a database
//! migrated further than an instance knows names the version that did it. Opening a store
//! reads them (`super::pool`).

use super::pool::Store;
use crate::clock::millis;
use crate::limits::instances::KEPT_FOR;

impl Store {
    /// Records this instance (`id`, its version and schema) as running, now.
    pub(crate) async fn register_instance(
        &self,
        id: &str,
        version: &str,
        schema: i64,
    ) -> anyhow::Result<()> {
        let now = self.now_ms();
        sqlx::query(
            "INSERT INTO instances (id, version, schema, started_ms, seen_ms) \
             VALUES ($1, $2, $3, $4, $4)",
        )
        .bind(id)
        .bind(version)
        .bind(schema)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Says this instance still runs; the instances not seen for [`KEPT_FOR`] are forgotten.
    pub(crate) async fn instance_seen(&self, id: &str) -> anyhow::Result<()> {
        let now = self.now_ms();
        sqlx::query("UPDATE instances SET seen_ms = $1 WHERE id = $2")
            .bind(now)
            .bind(id)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM instances WHERE seen_ms < $1 AND id <> $2")
            .bind(now.saturating_sub(millis(KEPT_FOR)))
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Records that this instance stopped.
    pub(crate) async fn instance_stopped(&self, id: &str) -> anyhow::Result<()> {
        sqlx::query("UPDATE instances SET stopped_ms = $1 WHERE id = $2")
            .bind(self.now_ms())
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The schema this store's binary expects (and the database is at, once opened).
    pub fn schema(&self) -> i64 {
        super::pool::schema_of(self.backend)
    }

    /// The schema the database was at when this store opened it, before any migration.
    pub fn found_schema(&self) -> i64 {
        self.found_schema
    }
}
