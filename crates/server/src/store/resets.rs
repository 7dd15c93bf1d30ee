//! Password resets by mail ("forgot password"): who may be sent a link (an account with a
//! confirmed address, not banned), the request written into the outbox (the delivery
//! worker makes the one-time secret when it mails the link, so the secret is never stored,
//! only its SHA-256), and the reset itself: the new password set, every token and session
//! ended and the account's other links voided, in one transaction.

use sqlx::Row as _;

use super::outbox::{Kind, Notice};
use super::pool::Store;

/// Stores a reset link's secret, by its SHA-256, until `expires_ms`, with `executor`.
async fn insert_reset_with<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    account_id: i64,
    token_hash: &str,
    expires_ms: i64,
    now_ms: i64,
) -> anyhow::Result<()> {
    sqlx::query(
        "INSERT INTO password_resets (token_hash, account_id, expires_ms, created_ms) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(token_hash)
    .bind(account_id)
    .bind(expires_ms)
    .bind(now_ms)
    .execute(executor)
    .await?;
    Ok(())
}

impl Store {
    /// The accounts a reset asked for by `name` (any case) or by `email` (a confirmed
    /// address, any case) would mail: none, one, or the few that share an address.
    /// Banned accounts are never mailed.
    pub(crate) async fn reset_candidates(
        &self,
        name: Option<&str>,
        email: Option<&str>,
    ) -> anyhow::Result<Vec<i64>> {
        let rows = sqlx::query(
            "SELECT a.id FROM accounts a JOIN email_addresses e ON e.account_id = a.id \
             WHERE e.confirmed_ms IS NOT NULL AND a.banned_ms IS NULL \
             AND (a.name_key = $1 OR lower(e.email) = $2) LIMIT 5",
        )
        .bind(name.map(str::to_ascii_lowercase))
        .bind(email.map(str::to_lowercase))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok(row.try_get::<i64, _>(0)?))
            .collect()
    }

    /// Writes a reset's notification into the outbox for the worker to mail, unless one
    /// was written for the account less than `every_ms` ago (the mails' own rate limit,
    /// which holds across instances). Whether it was written.
    pub(crate) async fn ask_reset(&self, account_id: i64, every_ms: i64) -> anyhow::Result<bool> {
        let now = self.now_ms();
        let mut tx = self.begin_write().await?;
        let recent = sqlx::query(
            "SELECT 1 FROM outbox WHERE account_id = $1 AND kind = $2 AND created_ms > $3 LIMIT 1",
        )
        .bind(account_id)
        .bind(Kind::PasswordReset.as_str())
        .bind(now - every_ms)
        .fetch_optional(&mut *tx)
        .await?;
        if recent.is_some() {
            return Ok(false);
        }
        let notice = Notice {
            account_id,
            kind: Kind::PasswordReset,
            game_id: None,
            room_id: None,
            tournament_id: None,
            message: "A new password was asked for: a link to choose it was mailed to your \
                      confirmed address. If it was not you, ignore the mail: your password \
                      stays."
                .to_owned(),
            dedupe: None,
        };
        self.notify_in(&mut tx, &notice).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Stores a reset link's secret, by its SHA-256, until `expires_ms`.
    pub(crate) async fn insert_reset(
        &self,
        account_id: i64,
        token_hash: &str,
        expires_ms: i64,
    ) -> anyhow::Result<()> {
        insert_reset_with(
            &self.pool,
            account_id,
            token_hash,
            expires_ms,
            self.now_ms(),
        )
        .await
    }

    /// An operator's one-time reset link for the account `name` (any case): its secret's
    /// hash stored until `expires_ms`, with a line in the admin log by `actor`, in one
    /// transaction. The account's name as signed up; `None` for no such account.
    pub(crate) async fn operator_reset(
        &self,
        name: &str,
        actor: &str,
        reason: &str,
        token_hash: &str,
        expires_ms: i64,
    ) -> anyhow::Result<Option<String>> {
        let mut tx = self.begin_write().await?;
        let Some(row) = sqlx::query("SELECT id, name FROM accounts WHERE name_key = $1")
            .bind(name.to_ascii_lowercase())
            .fetch_optional(&mut *tx)
            .await?
        else {
            return Ok(None);
        };
        let (id, name): (i64, String) = (row.try_get("id")?, row.try_get("name")?);
        insert_reset_with(&mut *tx, id, token_hash, expires_ms, self.now_ms()).await?;
        self.log_in(&mut tx, actor, "reset-link", &name, reason)
            .await?;
        tx.commit().await?;
        Ok(Some(name))
    }

    /// Resets a password with a link's secret (by its hash), in one transaction: the link
    /// must be unexpired and unused; the password hash is set, every token and session of
    /// the account ends, and every reset link of it goes. The account's id and name, or
    /// `None` for a link that is unknown, used or expired.
    pub(crate) async fn reset_password(
        &self,
        token_hash: &str,
        password_hash: &str,
    ) -> anyhow::Result<Option<(i64, String)>> {
        let now = self.now_ms();
        let mut tx = self.begin_write().await?;
        let account = sqlx::query(
            "DELETE FROM password_resets WHERE token_hash = $1 RETURNING account_id, expires_ms",
        )
        .bind(token_hash)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = account else {
            return Ok(None);
        };
        let account_id: i64 = row.try_get(0)?;
        if row.try_get::<i64, _>(1)? <= now {
            // An expired link goes all the same.
            tx.commit().await?;
            return Ok(None);
        }
        let name = sqlx::query(
            "UPDATE accounts SET password_hash = $1 WHERE id = $2 AND banned_ms IS NULL \
             RETURNING name",
        )
        .bind(password_hash)
        .bind(account_id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(name) = name else {
            tx.commit().await?;
            return Ok(None);
        };
        sqlx::query("DELETE FROM password_resets WHERE account_id = $1")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        let ended = Self::end_credentials_in(&mut tx, account_id, "", "").await?;
        tx.commit().await?;
        self.forget_credentials(ended);
        Ok(Some((account_id, name.try_get(0)?)))
    }
}
