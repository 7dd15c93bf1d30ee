//! An account's mail address (confirmed by a one-time link), its choices per kind of
//! notification, the one-click unsubscribe, and who watches a game live (no your-turn mail
//! while they do): what the outbox's delivery reads about a person (`docs/NOTIFICATIONS.md`).

use sqlx::Row as _;

use super::outbox::{Kind, Mail, StoredAddress, WATCH_STALE_MS};
use super::pool::Store;

impl Store {
    /// Sets (or replaces) the account's address, unconfirmed until the secret whose hash
    /// is given comes back before `expires_ms`.
    pub(crate) async fn set_email(
        &self,
        account_id: i64,
        email: &str,
        token_hash: &str,
        expires_ms: i64,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO email_addresses (account_id, email, token_hash, token_expires_ms, \
             created_ms) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account_id) DO UPDATE \
             SET email = excluded.email, token_hash = excluded.token_hash, \
             token_expires_ms = excluded.token_expires_ms, confirmed_ms = NULL, \
             created_ms = excluded.created_ms",
        )
        .bind(account_id)
        .bind(email)
        .bind(token_hash)
        .bind(expires_ms)
        .bind(self.now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Confirms the address whose confirmation secret has this hash, if it has not
    /// expired; the secret works once. The account confirmed.
    pub(crate) async fn confirm_email(&self, token_hash: &str) -> anyhow::Result<Option<i64>> {
        let now = self.now_ms();
        let row = self
            .write_returning(
                sqlx::query(
                    "UPDATE email_addresses SET confirmed_ms = $1, token_hash = NULL, \
                     token_expires_ms = NULL WHERE token_hash = $2 AND token_expires_ms > $1 \
                     RETURNING account_id",
                )
                .bind(now)
                .bind(token_hash),
            )
            .await?;
        Ok(row.map(|row| row.try_get(0)).transpose()?)
    }

    /// The account's address, if it gave one.
    pub(crate) async fn email_of(&self, account_id: i64) -> anyhow::Result<Option<StoredAddress>> {
        let row = sqlx::query(
            "SELECT email, confirmed_ms, digest_hour, created_ms FROM email_addresses \
             WHERE account_id = $1",
        )
        .bind(account_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            let hour: i64 = row.try_get("digest_hour")?;
            Ok(StoredAddress {
                email: row.try_get("email")?,
                confirmed_ms: row.try_get("confirmed_ms")?,
                digest_hour: u8::try_from(hour)?,
                created_ms: row.try_get("created_ms")?,
            })
        })
        .transpose()
    }

    /// Forgets the account's address. Whether it had one.
    pub(crate) async fn delete_email(&self, account_id: i64) -> anyhow::Result<bool> {
        let done = sqlx::query("DELETE FROM email_addresses WHERE account_id = $1")
            .bind(account_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// The account's mail choices, one per kind it changed (the others are immediate).
    pub(crate) async fn prefs(&self, account_id: i64) -> anyhow::Result<Vec<(Kind, Mail)>> {
        let rows = sqlx::query("SELECT kind, mail FROM notification_prefs WHERE account_id = $1")
            .bind(account_id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .filter_map(|row| {
                let kind = Kind::parse(row.try_get::<String, _>("kind").ok()?.as_str())?;
                let mail = Mail::parse(row.try_get::<String, _>("mail").ok()?.as_str())?;
                Some((kind, mail))
            })
            .collect())
    }

    /// Sets the account's mail choices for these kinds, and the digest's hour (which needs
    /// an address) when given, in one transaction.
    pub(crate) async fn set_prefs(
        &self,
        account_id: i64,
        choices: &[(Kind, Mail)],
        digest_hour: Option<u8>,
    ) -> anyhow::Result<()> {
        let mut tx = self.begin_write().await?;
        for (kind, mail) in choices {
            sqlx::query(
                "INSERT INTO notification_prefs (account_id, kind, mail) VALUES ($1, $2, $3) \
                 ON CONFLICT (account_id, kind) DO UPDATE SET mail = excluded.mail",
            )
            .bind(account_id)
            .bind(kind.as_str())
            .bind(mail.as_str())
            .execute(&mut *tx)
            .await?;
        }
        if let Some(hour) = digest_hour {
            sqlx::query("UPDATE email_addresses SET digest_hour = $1 WHERE account_id = $2")
                .bind(i64::from(hour))
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Turns off every mail of the account whose mail carried the unsubscribe secret of
    /// this hash (RFC 8058's one click; the inbox stays). The account, if the secret was
    /// known.
    pub(crate) async fn unsubscribe(&self, hash: &str) -> anyhow::Result<Option<i64>> {
        let row = sqlx::query("SELECT account_id FROM outbox WHERE unsubscribe_hash = $1")
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let account_id: i64 = row.try_get(0)?;
        let off: Vec<(Kind, Mail)> = Kind::ALL
            .into_iter()
            .map(|kind| (kind, Mail::Off))
            .collect();
        self.set_prefs(account_id, &off, None).await?;
        Ok(Some(account_id))
    }

    /// Records (or refreshes) that a socket of the account watches the game now.
    pub(crate) async fn watching(
        &self,
        socket_id: &str,
        account_id: i64,
        game_id: &str,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO watchers (socket_id, account_id, game_id, seen_ms) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (socket_id) DO UPDATE SET seen_ms = excluded.seen_ms",
        )
        .bind(socket_id)
        .bind(account_id)
        .bind(game_id)
        .bind(self.now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Forgets a closed socket's watch, and every watch stale at `now` (dead instances').
    pub(crate) async fn stop_watching(&self, socket_id: &str) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM watchers WHERE socket_id = $1 OR seen_ms <= $2")
            .bind(socket_id)
            .bind(self.now_ms() - WATCH_STALE_MS)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
