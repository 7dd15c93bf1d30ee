//! Guests that never came back (issue 25). "Play without an account" makes a guest's account
//! whose AI games, lesson progress and puzzle attempts only its session cookie reaches; once
//! that session has expired and nothing of the guest has moved for the retention period
//! (`serve --guest-days`), nobody can reach them again, so the clocks' scheduler removes the
//! account and what was only its own. A guest that signed up is an account like any other and
//! is never removed.

use sqlx::Row as _;

use super::pool::Store;

impl Store {
    /// Removes up to `batch` guests made before `cutoff_ms`, with no credential still valid
    /// at `now_ms` and no game changed since `cutoff_ms`, the oldest first, each in a
    /// transaction of its own with its games (a guest plays only the AI) and its own rows;
    /// the number removed. A guest that signs up meanwhile is not one any more, and stays.
    /// So does one that other people's records name (a tournament's pairing or bye, a room,
    /// from before guests were kept out of them): removing it would rewrite their history.
    pub async fn remove_old_guests(
        &self,
        now_ms: i64,
        cutoff_ms: i64,
        batch: u32,
    ) -> anyhow::Result<u32> {
        let rows = sqlx::query(
            "SELECT a.id FROM accounts a \
             WHERE a.guest_ms IS NOT NULL AND a.guest_ms < $1 \
               AND NOT EXISTS (SELECT 1 FROM credentials c WHERE c.account_id = a.id \
                               AND (c.expires_ms IS NULL OR c.expires_ms > $2)) \
               AND NOT EXISTS (SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id \
                               WHERE s.account_id = a.id AND g.updated_ms >= $1) \
               AND NOT EXISTS (SELECT 1 FROM tournament_games t \
                               WHERE t.first_id = a.id OR t.second_id = a.id) \
               AND NOT EXISTS (SELECT 1 FROM tournament_byes b WHERE b.account_id = a.id) \
               AND NOT EXISTS (SELECT 1 FROM rooms r WHERE r.master_id = a.id) \
               AND NOT EXISTS (SELECT 1 FROM room_seats r WHERE r.account_id = a.id) \
             ORDER BY a.guest_ms LIMIT $3",
        )
        .bind(cutoff_ms)
        .bind(now_ms)
        .bind(i64::from(batch))
        .fetch_all(&self.pool)
        .await?;
        let mut removed = 0;
        for row in rows {
            let id: i64 = row.try_get(0)?;
            // One guest that cannot go must not keep the others: it is told of and skipped.
            match self.remove_guest(id).await {
                Ok(true) => removed += 1,
                Ok(false) => {}
                Err(e) => tracing::warn!(account = id, "an old guest could not be removed: {e:#}"),
            }
        }
        Ok(removed)
    }

    /// Removes one guest's account with its games; false, changing nothing, when the account
    /// is no longer a guest's (signed up since it was found) or is gone already (another
    /// instance's sweep).
    async fn remove_guest(&self, account_id: i64) -> anyhow::Result<bool> {
        let mut tx = self.begin_write().await?;
        // The rows that name the account or its games without a cascade go first (a
        // challenge; a guest writes in no chat but may mute one); the games take their
        // seats, moves, deadlines and AI jobs with them; the account its credentials,
        // lesson progress, puzzle attempts and the rest of its own rows.
        for statement in [
            "DELETE FROM challenges WHERE challenger_id = $1 OR target_id = $1",
            "DELETE FROM reports WHERE reporter_id = $1 OR account_id = $1 \
             OR message_id IN (SELECT id FROM chat_messages WHERE author_id = $1)",
            "DELETE FROM chat_messages WHERE author_id = $1",
            "DELETE FROM blocks WHERE account_id = $1 OR blocked_id = $1",
            "DELETE FROM muted_chats WHERE account_id = $1",
            // Someone else's open seat kept for the guest opens to anyone.
            "UPDATE seats SET invited_id = NULL WHERE invited_id = $1",
        ] {
            sqlx::query(statement)
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query(
            "DELETE FROM games WHERE id IN (SELECT game_id FROM seats WHERE account_id = $1)",
        )
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
        let gone = sqlx::query("DELETE FROM accounts WHERE id = $1 AND guest_ms IS NOT NULL")
            .bind(account_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if gone == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }
}
