//! Reading rooms: one, an account's, and a room's seats, submissions, rounds and audit log.

use sqlx::Row as _;

use super::{AuditEntry, ROOM_COLUMNS, RoomSeat, StoredRoom, StoredRound, StoredSubmission};
use super::{room_of_row, seats_with, small, submissions_with};
use crate::store::pool::Store;

impl Store {
    /// The room of that id.
    pub async fn room(&self, id: &str) -> anyhow::Result<Option<StoredRoom>> {
        let row = sqlx::query(&format!(
            "SELECT {ROOM_COLUMNS} FROM rooms r JOIN accounts m ON m.id = r.master_id \
             WHERE r.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(room_of_row).transpose()
    }

    /// The rooms an account is the game master of or holds a seat in, newest first (at
    /// most `limit`).
    pub async fn rooms_of(&self, account_id: i64, limit: u32) -> anyhow::Result<Vec<StoredRoom>> {
        let rows = sqlx::query(&format!(
            "SELECT {ROOM_COLUMNS} FROM rooms r JOIN accounts m ON m.id = r.master_id \
             WHERE r.master_id = $1 \
                OR r.id IN (SELECT room_id FROM room_seats WHERE account_id = $1) \
             ORDER BY r.created_ms DESC, r.id DESC LIMIT $2"
        ))
        .bind(account_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(room_of_row).collect()
    }

    /// The seats of a room, in order.
    pub async fn room_seats(&self, id: &str) -> anyhow::Result<Vec<RoomSeat>> {
        seats_with(&self.pool, id).await
    }

    /// The submissions of a room, of one round or of all, by round and seat.
    pub async fn room_submissions(
        &self,
        id: &str,
        round: Option<u8>,
    ) -> anyhow::Result<Vec<StoredSubmission>> {
        submissions_with(&self.pool, id, round).await
    }

    /// The resolved rounds of a room, in order.
    pub async fn room_rounds(&self, id: &str) -> anyhow::Result<Vec<StoredRound>> {
        let rows = sqlx::query(
            "SELECT round, grid, scores, resolved_ms FROM room_rounds WHERE room_id = $1 \
             ORDER BY round",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let scores: Option<String> = row.try_get("scores")?;
                Ok(StoredRound {
                    round: small(row, "round")?,
                    grid: row.try_get("grid")?,
                    scores: scores.map(|s| serde_json::from_str(&s)).transpose()?,
                    resolved_ms: row.try_get("resolved_ms")?,
                })
            })
            .collect()
    }

    /// A room's audit log, oldest first.
    pub async fn room_audit(&self, id: &str) -> anyhow::Result<Vec<AuditEntry>> {
        let rows = sqlx::query(
            "SELECT at_ms, actor, action, detail FROM room_audit WHERE room_id = $1 ORDER BY id",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(AuditEntry {
                    at_ms: row.try_get("at_ms")?,
                    actor: row.try_get("actor")?,
                    action: row.try_get("action")?,
                    detail: row.try_get("detail")?,
                })
            })
            .collect()
    }
}
